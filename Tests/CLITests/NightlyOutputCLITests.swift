import Foundation
import SPSim
import TestSupport
import Testing

/// What a nightly job writes (docs/cli.md, "Recipe: a nightly job"): `--out FILE` replaces yesterday's export only
/// when tonight's succeeded, and downloaded files follow the umask while the ledger stays private.
@Suite(.serialized) struct NightlyOutputCLITests {
    /// Names in `directory` other than `kept`: a temporary file left behind would show here.
    static func others(in directory: String, than kept: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { !kept.contains($0) }.sorted()
    }

    @Test func outReplacesTheFileOnlyWhenTheCommandSucceeds() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("out")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tasks.csv"

        // The name says CSV; standard output stays empty.
        let first = try await fixture.run(["items", "Tasks", "--select", "Id,Title", "--out", path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.isEmpty, "\(first.stdout)")
        let written = try #require(FileManager.default.contents(atPath: path))
        let lines = String(decoding: written, as: UTF8.self).split(whereSeparator: \.isNewline)
        #expect(lines.first?.contains("Title") == true && lines.count > 1, "\(lines)")
        #expect(try Self.others(in: folder, than: ["tasks.csv"]).isEmpty)

        // Tonight fails: yesterday's file is left exactly as it was, no temporary file stays, and stderr says so.
        let yesterday = Data("Id,Title\n1,yesterday\n".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: yesterday))
        let failed = try await fixture.run(["items", "No such list", "--out", path])
        #expect(failed.status == 8, "\(failed.stderr)")
        #expect(FileManager.default.contents(atPath: path) == yesterday)
        #expect(try Self.others(in: folder, than: ["tasks.csv"]).isEmpty)
        #expect(failed.stderr.contains("left as it was"), "\(failed.stderr)")

        // `-o` wins over the name; an existing file's mode is kept.
        #expect(chmod(path, 0o640) == 0)
        let json = try await fixture.run(["items", "Tasks", "--select", "Id", "-o", "ndjson", "--out", path])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        #expect(rows.hasPrefix("{"), "\(rows)")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o640)
    }

    /// The failure comes after the output has started: the first page of a 12,345-row list arrives whole, every
    /// later page is cut off mid-body. Yesterday's file stays exactly as it was and no temporary file is left.
    @Test func outIsLeftAsItWasWhenTheRunFailsAfterItsOutputStarted() async throws {
        var faults = FaultSpec()
        faults.dropPath = "/items"
        faults.dropAfter = 1
        let fixture = try await CLIFixture(items: 12_345, faults: faults)
        let folder = try temporaryDirectory("out-midrun")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big.ndjson"
        let yesterday = Data(#"{"Id":1,"Title":"yesterday"}"#.utf8 + [0x0A])
        #expect(FileManager.default.createFile(atPath: path, contents: yesterday))
        let failed = try await fixture.run([
            "items", "Big", "--all", "--select", "Id,Title", "-o", "ndjson", "--out", path, "--timeout", "60",
        ])
        #expect(failed.status != 0, "\(failed.stderr)")
        // The positive control: the server did answer the first page (the output had begun) before the drops.
        let pages = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/items") }
        #expect(pages.count >= 2, "only \(pages.count) item pages were asked for")
        #expect(FileManager.default.contents(atPath: path) == yesterday)
        #expect(try Self.others(in: folder, than: ["big.ndjson"]).isEmpty)
        #expect(failed.stderr.contains("left as it was"), "\(failed.stderr)")
    }

    @Test func apiWritesItsAnswerWithOutAndKeepsTheFileOnAnError() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("out-api")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/web.json"
        let web = try await fixture.run(["api", "GET", "/_api/web?$select=Title", "--out", path])
        #expect(web.status == 0, "\(web.stderr)")
        let object = try JSONSerialization.jsonObject(with: try #require(FileManager.default.contents(atPath: path)))
        #expect((object as? [String: Any]) != nil, "\(object)")

        let kept = try #require(FileManager.default.contents(atPath: path))
        let missing = try await fixture.run(["api", "GET", "/_api/web/lists/getbytitle('Nope')", "--out", path])
        #expect(missing.status != 0)
        #expect(FileManager.default.contents(atPath: path) == kept)
        #expect(try Self.others(in: folder, than: ["web.json"]).isEmpty)
    }

    @Test func outIntoAFolderThatIsMissingIsAUsageError() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let result = try await fixture.run(["items", "Tasks", "--out", "/nonexistent-spconnect/tasks.csv"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("/nonexistent-spconnect") && result.stderr.contains("does not exist"))
    }

    /// This process's umask, read without changing it (`umask(2)` would, for every thread).
    static func currentUmask() throws -> mode_t {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    @Test func downloadsFollowTheUmaskAndTheLedgerStaysPrivate() async throws {
        let mask = try Self.currentUmask()
        let fixture = try await CLIFixture(exportFiles: 3)
        let into = try temporaryDirectory("umask")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let single = try await fixture.run(["download", "/Export/file-00000.bin", "--to", into])
        #expect(single.status == 0, "\(single.stderr)")
        let tree = into + "/tree"
        let mirror = try await fixture.run(["download", "-r", "Export", "--to", tree, "-q"])
        #expect(mirror.status == 0, "\(mirror.stderr)")
        var info = stat()
        #expect(stat(into + "/file-00000.bin", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o666 & ~mask, "mode \(String(info.st_mode & 0o777, radix: 8))")
        #expect(stat(tree + "/file-00000.bin", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o666 & ~mask, "mode \(String(info.st_mode & 0o777, radix: 8))")
        #expect(stat(tree + "/.spconnect-download.json", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }
}
