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
        let transfer = TreeTransfer(site: fixture.site, options: TreeOptions())
        let log = EventLog()
        let first = try await transfer.upload(folder, to: RemoteFolder(path: fixture.remote), report: log.record)
        #expect(try first.summary().counts == ["uploaded": 2])

        try FileManager.default.removeItem(atPath: folder + "/Sub/two.txt")
        let again = EventLog()
        let second = try await TreeTransfer(site: fixture.site, options: TreeOptions(delete: true)).upload(
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
        let run = try await fixture.download(TreeOptions(delete: true), incremental: IncrementalDownload(path: token))
        #expect(run.events.results(below: fixture.local) == ["a.txt": "downloaded", "b.txt": "deleted"])
        #expect(fixture.localText("a.txt") == "alpha, second version\n" && fixture.localText("b.txt") == nil)
        #expect(fixture.localText("c.txt") == "charlie\n")
        let asked = fixture.sim.requestLog().map(\.path)
        #expect(!asked.contains { $0.contains("c.txt") }, "\(asked)")
        #expect(!asked.contains { $0.lowercased().hasSuffix("/files") }, "no folder listed: \(asked)")
        await fixture.stop()
    }
}
