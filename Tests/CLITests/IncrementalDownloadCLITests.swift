import Foundation
import SPSim
import TestSupport
import Testing

/// `download -r FOLDER --to DIR --incremental FILE` end to end against the simulator (docs/cli.md): the first run is
/// a full mirror and saves the library's token, the next reads the change log instead of the tree and fetches only
/// the added and changed files, deleting (with `--delete`) what the server removed, and a token older than the log
/// is a full run again. Serialized: a simulator and several spconnect processes per case.
@Suite(.serialized) struct IncrementalDownloadCLITests {
    typealias Mirror = MirrorCLITests

    static func rows(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    /// The requests that listed a folder's files or folders (what a full run makes for every folder).
    static func listings(_ fixture: CLIFixture) -> Int {
        fixture.sim.requestLog().count {
            $0.path.lowercased().hasSuffix("/files") || $0.path.lowercased().hasSuffix("/folders")
        }
    }

    @Test func theSecondRunFetchesOnlyTheChangesAndDeletesWhatTheServerRemoved() async throws {
        let fixture = try await CLIFixture(exportFiles: 40)
        let work = try temporaryDirectory("incremental")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (into, tokenPath) = (work + "/mirror", work + "/export.token")
        let arguments = ["download", "-r", "Export", "--to", into, "--incremental", tokenPath, "-o", "json"]
        let first = try await fixture.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Self.rows(first.stdout).count { $0["result"] as? String == "downloaded" } == 40)
        let saved = String(decoding: FileManager.default.contents(atPath: tokenPath) ?? Data(), as: UTF8.self)
        #expect(saved.hasPrefix("1;3;"), "\(saved)")
        #expect(FileManager.default.fileExists(atPath: into + "/folder-3/part-0"))

        try await Mirror.putOnServer(fixture, "changed\n", as: "file-00000.bin", in: "Export")
        try await Mirror.putOnServer(fixture, "new\n", as: "new.txt", in: "Export")
        try await Mirror.deleteOnServer(fixture, "/Export/file-00017.bin")
        try await Mirror.deleteOnServer(fixture, "/Export/folder-3", folder: true)
        fixture.sim.clearRequestLog()
        let second = try await fixture.run(arguments + ["--delete"])
        #expect(second.status == 0, "\(second.stderr)")
        let rows = try Self.rows(second.stdout)
        #expect(Mirror.result(rows, "/file-00000.bin") == "downloaded")
        #expect(Mirror.result(rows, "/new.txt") == "downloaded")
        #expect(Mirror.result(rows, "/file-00017.bin") == "deleted")
        #expect(rows.count { $0["result"] as? String == "downloaded" } == 2, "\(rows)")
        #expect(
            String(decoding: FileManager.default.contents(atPath: into + "/new.txt") ?? Data(), as: UTF8.self)
                == "new\n")
        #expect(!FileManager.default.fileExists(atPath: into + "/file-00017.bin"))
        #expect(!FileManager.default.fileExists(atPath: into + "/folder-3"))
        #expect(FileManager.default.fileExists(atPath: into + "/file-00034.bin"))
        #expect(FileManager.default.fileExists(atPath: into + "/folder-2/part-0/file-00002.bin"))
        #expect(Self.listings(fixture) == 0, "\(fixture.sim.requestLog().map(\.path))")
        #expect(fixture.sim.requestLog().count < 15, "\(fixture.sim.requestLog().map(\.path))")
        #expect(try Mirror.ledger(into)["file-00017.bin"] == nil)

        let third = try await fixture.run(arguments + ["--delete"])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try Self.rows(third.stdout).isEmpty, "\(third.stdout)")
    }

    /// A snapshot of a mirror without its ledger and lock (the ledger differs between runs by when each file was
    /// written), each file as a short digest (FNV-1a) of its size, time and bytes so that a failure prints paths
    /// rather than contents.
    static func files(_ directory: String) -> [String: String] {
        Mirror.snapshot(directory).filter { !$0.key.hasPrefix(".spconnect-download.") }.mapValues { entry in
            // A folder's own time is when its entries last changed here, not a property of the mirror.
            if entry.contains("NSFileTypeDirectory") { return "folder" }
            var hash: UInt64 = 14_695_981_039_346_656_037
            for byte in entry.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
            return String(hash, radix: 16)
        }
    }

    @Test func renamesAndMovesEndAtTheTreeAFreshMirrorGets() async throws {
        let fixture = try await CLIFixture(exportFiles: 20)
        let work = try temporaryDirectory("incremental-moves")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (into, tokenPath) = (work + "/mirror", work + "/export.token")
        let arguments = ["download", "-r", "Export", "--to", into, "--incremental", tokenPath, "-o", "json"]
        #expect(try await fixture.run(arguments).status == 0)
        #expect(FileManager.default.fileExists(atPath: into + "/folder-2/part-0/file-00002.bin"))
        for (source, destination) in [
            ("Export/file-00000.bin", "Export/renamed.bin"),  // a rename within the library
            ("Export/folder-2", "Export/folder-two"),  // a folder renamed, with what is below it
            ("Export/file-00017.bin", "Shared Documents"),  // a move to another library
        ] {
            let moved = try await fixture.run(["mv", source, destination])
            #expect(moved.status == 0, "mv \(source) \(destination): \(moved.stderr)")
        }
        let changes = try await fixture.run(["changes", "Export", "-o", "json"])
        #expect(changes.status == 0, "\(changes.stderr)")
        let kinds = Set(try Self.rows(changes.stdout).compactMap { $0["change"] as? String })
        #expect(kinds.isSuperset(of: ["rename", "moveAway"]), "\(changes.stdout)")

        let second = try await fixture.run(arguments + ["--delete"])
        #expect(second.status == 0, "\(second.stderr)")
        let rows = try Self.rows(second.stdout)
        #expect(Mirror.result(rows, "/renamed.bin") == "downloaded", "\(rows)")
        #expect(Mirror.result(rows, "/file-00000.bin") == "deleted", "\(rows)")
        #expect(Mirror.result(rows, "/file-00017.bin") == "deleted", "\(rows)")
        #expect(!FileManager.default.fileExists(atPath: into + "/folder-2"))
        #expect(FileManager.default.fileExists(atPath: into + "/folder-two/part-0/file-00002.bin"))

        let fresh = work + "/fresh"
        let full = try await fixture.run(["download", "-r", "Export", "--to", fresh, "-q"])
        #expect(full.status == 0, "\(full.stderr)")
        let (mirrored, expected) = (Self.files(into), Self.files(fresh))
        let differing = Set(mirrored.keys).union(expected.keys).filter { mirrored[$0] != expected[$0] }.sorted()
        #expect(mirrored == expected, "differing entries: \(differing)")
        #expect(Set(try Mirror.ledger(into).keys) == Set(try Mirror.ledger(fresh).keys))
    }

    @Test func withoutDeleteTheRemovedAreReportedAndATooOldTokenIsAFullRun() async throws {
        let fixture = try await CLIFixture(exportFiles: 12)
        let work = try temporaryDirectory("incremental-old")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (into, tokenPath) = (work + "/mirror", work + "/export.token")
        let arguments = ["download", "-r", "Export", "--to", into, "--incremental", tokenPath, "-o", "json"]
        #expect(try await fixture.run(arguments).status == 0)
        try await Mirror.deleteOnServer(fixture, "/Export/folder-4/part-0/file-00004.bin")
        let kept = try await fixture.run(arguments)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(
            Mirror.result(try Self.rows(kept.stdout), "/file-00004.bin")
                == "deleted on the server (kept; --delete removes it)")
        #expect(FileManager.default.fileExists(atPath: into + "/folder-4/part-0/file-00004.bin"))

        try await Mirror.putOnServer(fixture, "late\n", as: "late.txt", in: "Export")
        fixture.sim.truncateChangeLog()
        fixture.sim.clearRequestLog()
        let old = try await fixture.run(arguments)
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stderr.contains("older than the library's change log keeps"), "\(old.stderr)")
        #expect(Mirror.result(try Self.rows(old.stdout), "/late.txt") == "downloaded")
        #expect(Self.listings(fixture) > 0)
        let single = try await fixture.run(["download", "Export", "3", "--incremental", tokenPath])
        #expect(single.status == 2, "\(single.stderr)")
    }
}
