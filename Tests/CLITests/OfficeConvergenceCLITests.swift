import Foundation
import SPSim
import TestSupport
import Testing

/// SharePoint rewrites the Office documents it is sent (spsim: `OfficeDocuments`), so their size and hash differ from
/// the local files. `upload -r`, then `download -r` into the same folder, then `upload -r` again must converge: no
/// file goes either way a second time, and SharePoint makes no new version of an unchanged file.
@Suite(.childProcesses) struct OfficeConvergenceCLITests {
    typealias Tree = TreeTransferCLITests

    /// An empty ZIP package: its end-of-central-directory record with `comment`.
    static func package(_ comment: String) -> Data {
        let text = Array(comment.utf8)
        return Data([0x50, 0x4B, 5, 6] + [UInt8](repeating: 0, count: 16) + [UInt8(text.count), 0] + text)
    }

    /// Sets `path`'s modification time to `seconds` and 0.7 s (SharePoint keeps whole seconds).
    static func touch(_ path: String, seconds: Int) {
        var times = [
            timespec(tv_sec: seconds, tv_nsec: 700_000_000), timespec(tv_sec: seconds, tv_nsec: 700_000_000),
        ]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test func uploadDownloadUploadTransfersEachFileOnceAndMakesNoVersion() async throws {
        let fixture = try await CLIFixture()
        let local = try temporaryDirectory("office")
        defer { try? FileManager.default.removeItem(atPath: local) }
        let files = [
            "report.docx": Self.package("report"), "budget/plan.xlsx": Self.package("plan"),
            "deck.pptx": Self.package("deck"), "notes.txt": Data("notes\n".utf8),
        ]
        let past = Int(Date().timeIntervalSince1970) - 3600
        for (path, bytes) in files {
            let full = local + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: full, contents: bytes))
            Self.touch(full, seconds: past)
        }
        let library = "Shared Documents/Converge"
        let upload = ["upload", "-r", local, "--to", library, "-o", "ndjson"]

        let first = try await fixture.run(upload)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Tree.lines(first.stdout).allSatisfy { $0["result"] as? String == "uploaded" }, "\(first.stdout)")
        let stored = try #require(fixture.sim.fileLength(serverRelativeURL: "/Shared Documents/Converge/report.docx"))
        #expect(stored != files["report.docx"]!.count, "SharePoint rewrote the document")

        let log = { fixture.sim.requestLog().filter { $0.host == "127.0.0.1" } }
        fixture.sim.clearRequestLog()
        let down = try await fixture.run(["download", "-r", library, "--to", local, "-o", "ndjson"])
        #expect(down.status == 0, "\(down.stderr)")
        let downRows = try Tree.lines(down.stdout)
        #expect(downRows.count == 4 && downRows.allSatisfy { $0["result"] as? String == "unchanged" }, "\(down.stdout)")
        let fetched = log().filter { $0.path.lowercased().contains("$value") || $0.path.hasSuffix(".docx") }
        #expect(fetched.isEmpty, "nothing downloaded: \(fetched.map(\.path))")
        for (path, bytes) in files {
            #expect(FileManager.default.contents(atPath: local + "/" + path) == bytes, "\(path) left as it was")
        }

        fixture.sim.clearRequestLog()
        let again = try await fixture.run(upload)
        #expect(again.status == 0, "\(again.stderr)")
        let againRows = try Tree.lines(again.stdout)
        #expect(againRows.allSatisfy { $0["result"] as? String == "unchanged" }, "\(again.stdout)")
        let writes = log().filter {
            ["POST", "PUT", "MERGE", "PATCH"].contains($0.method) && !$0.path.contains("contextinfo")
        }
        let folders = writes.filter { $0.path.lowercased().contains("folders") }
        #expect(writes.count == folders.count, "no file sent, so no version made: \(writes.map(\.path))")

        // A real edit still goes up, and only that file.
        #expect(
            FileManager.default.createFile(atPath: local + "/report.docx", contents: Self.package("report, edited")))
        let edited = try await fixture.run(upload)
        #expect(edited.status == 0, "\(edited.stderr)")
        let editedRows = try Tree.lines(edited.stdout)
        #expect(MirrorCLITests.result(editedRows, "/report.docx") == "uploaded", "\(edited.stdout)")
        #expect(editedRows.filter { $0["result"] as? String == "uploaded" }.count == 1, "\(edited.stdout)")
    }
}
