import FileOperations
import Foundation
import LocalFiles
import Mirror
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

/// The file operations against an in-process spsim (HTTP Basic as alice, so the site takes writes), with no
/// spconnect process: what a word names, removal to the recycle bin, and single-file downloads.
@Suite struct FileOperationsTests {
    /// A fresh site and a folder of `Shared Documents` holding `files` (name → text).
    private func site(with files: [String: String]) async throws -> (Simulator, SharePointSite, String) {
        let sim = try Simulator(SimulatorOptions(mode: .basic))
        let site = SharePointSite(
            client: try HTTPClient(), siteURL: sim.siteURL + "/",
            authentication: .basic(user: aliceEmail, password: Secret(alicePassword)))
        let folder = try await site.createFolder(named: "Ops", in: "/Shared Documents").serverRelativeUrl
        let scratch = try temporaryDirectory("file-operations")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for (name, text) in files {
            try text.write(toFile: scratch + "/" + name, atomically: true, encoding: .utf8)
            _ = try await site.upload(file: scratch + "/" + name, toFolder: folder, overwrite: true)
        }
        return (sim, site, folder)
    }

    /// A path given twice or inside an earlier folder goes with that one; a library's root folder is refused; the
    /// rest is recycled, once each.
    @Test func removalRecyclesEachPathOnceAndRefusesALibraryRoot() async throws {
        let (sim, site, _) = try await site(with: ["a.txt": "a", "b.txt": "b"])
        let outcomes = await Removal.run(
            ["Shared Documents/Ops/a.txt", "Shared Documents/Ops", "/Shared Documents/Ops/b.txt", "Shared Documents"],
            dryRun: false, site: site)
        await sim.stop()
        #expect(outcomes.map(\.word).count == 4)
        guard case .recycled(.file, _) = outcomes[0].result else { Issue.record("\(outcomes[0].result)"); return }
        guard case .recycled(.folder, _) = outcomes[1].result else { Issue.record("\(outcomes[1].result)"); return }
        guard case .covered(_, let by, false) = outcomes[2].result, by == "Shared Documents/Ops" else {
            Issue.record("\(outcomes[2].result)")
            return
        }
        guard case .refused(_, "library") = outcomes[3].result else { Issue.record("\(outcomes[3].result)"); return }
        let posts = sim.requestLog().filter { $0.method == "POST" && $0.path.lowercased().hasSuffix("/recycle()") }
        #expect(posts.count == 2, "\(posts.map(\.path))")
    }

    /// A dry run reads but changes nothing.
    @Test func aDryRunSendsNoRecycle() async throws {
        let (sim, site, _) = try await site(with: ["a.txt": "a"])
        let outcomes = await Removal.run(["Shared Documents/Ops/a.txt"], dryRun: true, site: site)
        let posts = sim.requestLog().filter { $0.method == "POST" && $0.path.lowercased().hasSuffix("/recycle()") }
        await sim.stop()
        guard case .wouldRecycle = outcomes[0].result else { Issue.record("\(outcomes[0].result)"); return }
        #expect(posts.isEmpty)
    }

    /// Nothing at a path: "not found" with the closest name beside it.
    @Test func aMissingFileIsNamedWithTheClosestName() async throws {
        let (sim, site, _) = try await site(with: ["Budget 2026.csv": "x"])
        await #expect {
            _ = try await RemoteEntry.read("Shared Documents/Ops/Budget 2025.csv", site: site)
        } throws: { error in
            (error as? SharePointError)?.isMissingPath == true
                && "\(error)".contains("Did you mean 'Shared Documents/Ops/Budget 2026.csv'?")
        }
        await sim.stop()
    }

    /// Files named by path download into the folder, one outcome each, in order; a missing one fails alone.
    @Test func downloadsGiveOneOutcomePerFileInOrder() async throws {
        let (sim, site, folder) = try await site(with: ["a.txt": "alpha", "b.txt": "beta"])
        let targets: [DownloadTarget] = [
            .file(folder + "/b.txt"), .file(folder + "/missing.txt"), .file("Shared Documents/Ops/a.txt"),
        ]
        let (urls, words) = try await FileDownloads.resolve(targets, site: site)
        let local = try temporaryDirectory("file-operations-local")
        defer { try? FileManager.default.removeItem(atPath: local) }
        let outcomes = await FileDownloads.download(
            urls, words: words, to: local, parallel: 2, site: site, totals: TransferTotals(count: urls.count))
        await sim.stop()
        #expect(outcomes.count == 3)
        #expect((try? outcomes[0].get().size) == 4)
        #expect((try? outcomes[1].get()) == nil)
        #expect((try? outcomes[2].get().serverRelativeUrl) == folder + "/a.txt")
        #expect((try? String(contentsOfFile: local + "/a.txt", encoding: .utf8)) == "alpha")
        #expect((try? String(contentsOfFile: local + "/b.txt", encoding: .utf8)) == "beta")
    }

    /// A move into a folder keeps the name; a file already there is replaced only by a file with overwrite; the same
    /// path and a folder into itself are refused.
    @Test func relocationsArePlannedAndRefusedBeforeAnythingMoves() async throws {
        let (sim, site, folder) = try await site(with: ["a.txt": "a", "b.txt": "b"])
        _ = try await site.createFolder(named: "Sub", in: folder)
        let into = try await Relocation.plan(
            from: folder + "/a.txt", to: folder + "/Sub", copying: false, site: site)
        #expect(into.target == folder + "/Sub/a.txt" && into.existing == nil)
        let onto = try await Relocation.plan(from: folder + "/a.txt", to: folder + "/b.txt", copying: true, site: site)
        #expect(onto.existing?.kind == "file" && onto.replaces(overwrite: true) && !onto.replaces(overwrite: false))
        await #expect(throws: RelocationRefusal.self) {
            _ = try await Relocation.plan(from: folder + "/a.txt", to: folder + "/a.txt", copying: false, site: site)
        }
        await #expect(throws: RelocationRefusal.self) {
            _ = try await Relocation.plan(from: folder, to: folder + "/Sub", copying: false, site: site)
        }
        try await into.carryOut(overwrite: false, site: site)
        #expect((try? await site.file(serverRelativeURL: folder + "/Sub/a.txt")) != nil)
        #expect((try? await site.file(serverRelativeURL: folder + "/a.txt")) == nil)
        await sim.stop()
    }

    /// An item's attachments land in a local folder as their own names; a second run without `overwrite` keeps the
    /// file there; a server's name that is not a plain file name is never used as a path.
    @Test func attachmentsAreSavedOnceAndUnsafeNamesAreRefused() async throws {
        let (sim, site, _) = try await site(with: [:])
        defer { Task { await sim.stop() } }
        let url =
            site.siteURL + "/_api/web/lists/getbytitle('Tasks')/items(1)/AttachmentFiles/add(FileName='receipt.txt')"
        let added = try await site.send(
            method: "POST", url: url, headers: ["Accept": "application/json"], body: Array("paid".utf8),
            retry: .never)
        #expect(added.status == 200, "\(added.text)")
        let attachments = try await site.attachments(in: .title("Tasks"), id: 1)
        let scratch = try temporaryDirectory("attachments")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folder = try LocalFolder(path: scratch)
        let first = await AttachmentDownloads.save(
            attachments, of: .title("Tasks"), id: 1, into: folder, overwrite: false, site: site)
        #expect(first.count == attachments.count && attachments.count >= 2)
        guard case .downloaded(4, let path) = first.first(where: { $0.name == "receipt.txt" })?.result else {
            Issue.record("\(first)")
            return
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "paid")
        let again = await AttachmentDownloads.save(
            attachments, of: .title("Tasks"), id: 1, into: folder, overwrite: false, site: site)
        for outcome in again {
            guard case .exists = outcome.result else { Issue.record("\(outcome)"); continue }
        }
        for name in ["../receipt.txt", "a/b", "..", "", "a\\b", "tab\there"] {
            #expect(!AttachmentDownloads.isPlainName(name), "\(name)")
        }
        #expect(AttachmentDownloads.isPlainName("receipt 2026.pdf"))
    }

    /// Download words: a list followed by its ids, other words files; two files that would land under one name are
    /// refused before anything is fetched.
    @Test func downloadWordsAndDestinationsAreCheckedFirst() throws {
        #expect(
            try DownloadTarget.parse(["Photos", "1", "2", "a.txt", "Tasks", "7"]) == [
                .items(list: "Photos", ids: [1, 2]), .file("a.txt"), .items(list: "Tasks", ids: [7]),
            ])
        #expect(throws: (any Error).self) { try DownloadTarget.parse(["3"]) }
        #expect(throws: (any Error).self) { try DownloadTarget.parse(["Photos", "0"]) }
        #expect(throws: (any Error).self) { try DownloadTarget.parse([]) }
        #expect(
            try FileDownloads.distinctDestinations(["/s/a/x.txt", "/s/a/x.txt", "/s/b/y.txt"], in: "out")
                == ["/s/a/x.txt", "/s/b/y.txt"])
        #expect(throws: (any Error).self) {
            try FileDownloads.distinctDestinations(["/s/a/x.txt", "/s/b/x.txt"], in: "out")
        }
    }
}
