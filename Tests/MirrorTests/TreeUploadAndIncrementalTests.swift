import Foundation
import Mirror
import SharePoint
import Testing

/// The mirror engine's upload side and its incremental downloads, in-process.
@Suite struct TreeUploadAndIncrementalTests {
    /// `upload -r` then `upload -r --delete` after a local file went: the second run recycles what the first one
    /// uploaded, and nothing the ledger does not list.
    @Test func anUploadedFileTheFolderNoLongerHasIsRecycled() async throws {
        let fixture = try await MirrorFixture()
        let folder = fixture.scratch + "/up"
        try FileManager.default.createDirectory(atPath: folder + "/Sub", withIntermediateDirectories: true)
        try "one\n".write(toFile: folder + "/one.txt", atomically: true, encoding: .utf8)
        try "two\n".write(toFile: folder + "/Sub/two.txt", atomically: true, encoding: .utf8)
        try await fixture.put("theirs.txt", "not uploaded by spconnect\n")
        let transfer = TreeTransfer(site: fixture.site, options: MirrorFixture.options)
        let log = EventLog()
        let first = try await transfer.upload(folder, to: RemoteFolder(path: fixture.remote), report: log.record)
        #expect(try first.summary().counts == ["uploaded": 2])

        try FileManager.default.removeItem(atPath: folder + "/Sub/two.txt")
        let again = EventLog()
        let second = try await TreeTransfer(site: fixture.site, options: TreeOptions(delete: true, wait: 5)).upload(
            folder, to: RemoteFolder(path: fixture.remote), report: again.record)
        #expect(try second.summary().succeeded)
        #expect(again.results(below: folder)["Sub/two.txt"] == "deleted")
        #expect(again.results(below: folder)["theirs.txt"] == "kept (not uploaded by spconnect)")
        let left = try await fixture.site.files(inFolder: fixture.remote).map(\.name).sorted()
        #expect(left == ["one.txt", "theirs.txt"])
        await fixture.stop()
    }

    /// A token from a full run, then only what changed: the edited file fetched, the removed one deleted, the
    /// untouched one never asked for.
    @Test func anIncrementalRunReadsOnlyWhatChanged() async throws {
        let fixture = try await MirrorFixture()
        try await fixture.put("a.txt", "alpha\n")
        try await fixture.put("b.txt", "bravo\n")
        try await fixture.put("c.txt", "charlie\n")
        let token = fixture.scratch + "/mirror.token"
        fixture.sim.clearRequestLog()
        let full = try await fixture.download(incremental: IncrementalDownload(path: token))
        #expect(try full.end.summary().counts == ["downloaded": 3])
        #expect(FileManager.default.fileExists(atPath: token))
        let listings = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/files") }
        #expect(!listings.isEmpty, "the full run lists the folder (the control for the check below)")

        try await fixture.put("a.txt", "alpha, second version\n")
        _ = try await fixture.site.recycleFile(serverRelativeURL: fixture.remote + "/b.txt")
        fixture.sim.clearRequestLog()
        let run = try await fixture.download(
            TreeOptions(delete: true, wait: 5), incremental: IncrementalDownload(path: token))
        #expect(run.events.results(below: fixture.local) == ["a.txt": "downloaded", "b.txt": "deleted"])
        #expect(fixture.localText("a.txt") == "alpha, second version\n" && fixture.localText("b.txt") == nil)
        #expect(fixture.localText("c.txt") == "charlie\n")
        let asked = fixture.sim.requestLog().map(\.path)
        #expect(!asked.contains { $0.contains("c.txt") }, "\(asked)")
        #expect(!asked.contains { $0.lowercased().hasSuffix("/files") }, "no folder listed: \(asked)")
        await fixture.stop()
    }
}

/// What an upload does with a file SharePoint already has: the newer local version of a file the last upload put
/// there replaces it; a file changed in SharePoint since is refused (exit 9 in the CLI), unless `overwrite`.
@Suite struct UploadReplacementTests {
    @Test func aLocalEditOfAnUploadedFileGoesUpAndAServerEditIsKept() async throws {
        let fixture = try await MirrorFixture()
        let folder = fixture.scratch + "/up"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["mine.txt", "shared.txt"] {
            try "first\n".write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let transfer = TreeTransfer(site: fixture.site, options: MirrorFixture.options)
        _ = try await transfer.upload(folder, to: RemoteFolder(path: fixture.remote), report: EventLog().record)

        try "second, edited here\n".write(toFile: folder + "/mine.txt", atomically: true, encoding: .utf8)
        try "second, edited here too\n".write(toFile: folder + "/shared.txt", atomically: true, encoding: .utf8)
        let later = Date().addingTimeInterval(5)
        for name in ["mine.txt", "shared.txt"] {
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: folder + "/" + name)
        }
        try await fixture.put("shared.txt", "edited in SharePoint\n")

        let log = EventLog()
        let run = try await transfer.upload(folder, to: RemoteFolder(path: fixture.remote), report: log.record)
        #expect(log.results(below: folder) == ["mine.txt": "uploaded", "shared.txt": "refused (exists)"])
        guard case .conflict = try run.summary().firstFailure else {
            Issue.record("the server edit should be a conflict")
            return
        }
        let mine = fixture.sim.fileBytes(serverRelativeURL: fixture.remote + "/mine.txt", offset: 0, count: 100)
        let shared = fixture.sim.fileBytes(serverRelativeURL: fixture.remote + "/shared.txt", offset: 0, count: 100)
        #expect(mine.map { String(decoding: $0, as: UTF8.self) } == "second, edited here\n")
        #expect(shared.map { String(decoding: $0, as: UTF8.self) } == "edited in SharePoint\n")
        await fixture.stop()
    }
}
