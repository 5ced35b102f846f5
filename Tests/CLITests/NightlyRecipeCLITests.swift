import Foundation
import SPSim
import TestSupport
import Testing

/// The nightly job of docs/cli.md ("Recipe: a nightly job"), run as its script (`docs/examples/nightly-job.sh`)
/// against the simulator over three nights: the first exports and mirrors everything, the second carries a new
/// item and a deleted file over and fetches only the library's changes, the third fails and leaves the second
/// night's files as they were.
@Suite(.serialized) struct NightlyRecipeCLITests {
    static let script: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("docs/examples/nightly-job.sh").path
    }()

    /// Runs the script once, as its timer would, and returns its exit status and log.
    static func night(_ fixture: CLIFixture, out: String) async throws -> (status: Int32, log: String) {
        let scratch = try temporaryDirectory("night")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var environment = fixture.environment
        environment["PATH"] = "/usr/bin:/bin"
        environment["SPCONNECT"] = spconnectPath
        environment["SPCONNECT_NIGHTLY_OUT"] = out
        environment["SPCONNECT_NIGHTLY_LISTS"] = "Tasks"
        environment["SPCONNECT_NIGHTLY_LIBRARY"] = "Export"
        let status = await spawnToExit(
            "/bin/sh", [script], environment: environment, standardOutput: scratch + "/log",
            standardError: scratch + "/log", timeout: .seconds(120))
        let log = String(decoding: FileManager.default.contents(atPath: scratch + "/log") ?? Data(), as: UTF8.self)
        return (status, log)
    }

    @Test func threeNightsConvergeAndAFailedNightKeepsYesterday() async throws {
        let fixture = try await CLIFixture(exportFiles: 12)
        let out = try temporaryDirectory("nightly")
        defer { try? FileManager.default.removeItem(atPath: out) }

        let first = try await Self.night(fixture, out: out)
        #expect(first.status == 0, "\(first.log)")
        let firstCSV = String(
            decoding: FileManager.default.contents(atPath: out + "/Tasks.csv") ?? Data(), as: UTF8.self)
        #expect(firstCSV.split(whereSeparator: \.isNewline).count > 1, "\(firstCSV)")
        #expect(FileManager.default.fileExists(atPath: out + "/mirror/file-00000.bin"), "\(first.log)")

        // During the day: a new task, and a file deleted in SharePoint.
        let added = try await fixture.run(["add", "Tasks", "Title=Added during the day", "-o", "json"])
        #expect(added.status == 0, "\(added.stderr)")
        try await MirrorCLITests.deleteOnServer(fixture, "/Export/file-00000.bin")

        fixture.sim.clearRequestLog()
        let second = try await Self.night(fixture, out: out)
        #expect(second.status == 0, "\(second.log)")
        // Only the changes: the library's change log, no folder listed, no unchanged file fetched again.
        let secondRequests = fixture.sim.requestLog().map { $0.path.lowercased() }
        #expect(secondRequests.contains { $0.contains("getchanges") }, "\(secondRequests)")
        #expect(!secondRequests.contains { $0.hasSuffix("/folders") || $0.hasSuffix("/files") }, "\(secondRequests)")
        #expect(!secondRequests.contains { $0.hasSuffix("/$value") }, "nothing changed to fetch: \(secondRequests)")
        let secondCSV = try #require(FileManager.default.contents(atPath: out + "/Tasks.csv"))
        #expect(String(decoding: secondCSV, as: UTF8.self).contains("Added during the day"))
        #expect(!FileManager.default.fileExists(atPath: out + "/mirror/file-00000.bin"))
        #expect(second.log.contains("\"deleted\""), "the mirror's report names the deletion: \(second.log)")
        let mirrored = MirrorCLITests.snapshot(out + "/mirror")

        // The third night the session is gone and no password is at hand: the job fails with exit 11, said in
        // its log, and the second night's export and mirror are exactly as they were.
        #expect(try await fixture.run(["logout"]).status == 0)
        let third = try await Self.night(fixture, out: out)
        #expect(third.status == 11, "\(third.log)")
        #expect(third.log.contains("exit 11"), "\(third.log)")
        #expect(FileManager.default.contents(atPath: out + "/Tasks.csv") == secondCSV)
        #expect(MirrorCLITests.snapshot(out + "/mirror") == mirrored)
        #expect(FileManager.default.fileExists(atPath: out + "/mirror.token"), "the mirror's change token is kept")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
