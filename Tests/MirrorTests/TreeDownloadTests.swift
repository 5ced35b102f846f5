import Foundation
import LocalFiles
import Mirror
import SharePoint
import Testing

/// The mirror engine's download side, in-process (docs/mirror.md): what each run does to the local folder and what
/// it reports.
@Suite struct TreeDownloadTests {
    @Test func aTreeIsMirroredOnceAndThenLeftAlone() async throws {
        let fixture = try await MirrorFixture()
        try await fixture.put("a.txt", "alpha\n")
        try await fixture.put("Reports/b.txt", "bravo\n")
        let first = try await fixture.download()
        #expect(try first.end.summary().succeeded)
        #expect(first.events.results(below: fixture.local) == ["a.txt": "downloaded", "Reports/b.txt": "downloaded"])
        #expect(first.events.transfersStarted == 1)
        #expect(fixture.localText("a.txt") == "alpha\n" && fixture.localText("Reports/b.txt") == "bravo\n")
        #expect(FileManager.default.fileExists(atPath: fixture.local + "/.spconnect-download.json"))

        let second = try await fixture.download()
        #expect(second.events.results(below: fixture.local) == ["a.txt": "unchanged", "Reports/b.txt": "unchanged"])
        #expect(try second.end.summary().counts == ["unchanged": 2])
        await fixture.stop()
    }

    /// A server edit replaces a copy spconnect wrote and nobody touched; a copy edited locally is kept and the run
    /// fails as a conflict.
    @Test func aServerEditReplacesAnUntouchedCopyButNeverALocalEdit() async throws {
        let fixture = try await MirrorFixture()
        try await fixture.put("a.txt", "alpha\n")
        try await fixture.put("b.txt", "bravo\n")
        _ = try await fixture.download()
        try "bravo, edited here\n".write(toFile: fixture.local + "/b.txt", atomically: true, encoding: .utf8)
        try await fixture.put("a.txt", "alpha, second version\n")
        try await fixture.put("b.txt", "bravo, second version\n")

        let run = try await fixture.download()
        #expect(
            run.events.results(below: fixture.local) == ["a.txt": "downloaded", "b.txt": "refused (modified locally)"])
        let summary = try run.end.summary()
        guard case .conflict = summary.firstFailure else {
            Issue.record("expected a conflict, got \(String(describing: summary.firstFailure))")
            return
        }
        #expect(fixture.localText("a.txt") == "alpha, second version\n")
        #expect(fixture.localText("b.txt") == "bravo, edited here\n")
        await fixture.stop()
    }

    /// With `delete`, a file the server no longer has goes when spconnect wrote it; a file the user put there stays.
    @Test func deletionTakesOnlyWhatTheMirrorWrote() async throws {
        let fixture = try await MirrorFixture()
        try await fixture.put("a.txt", "alpha\n")
        try await fixture.put("Old/b.txt", "bravo\n")
        _ = try await fixture.download()
        try "mine\n".write(toFile: fixture.local + "/mine.txt", atomically: true, encoding: .utf8)
        _ = try await fixture.site.recycleFile(serverRelativeURL: fixture.remote + "/Old/b.txt")
        _ = try await fixture.site.recycleFolder(serverRelativeURL: fixture.remote + "/Old")

        let kept = try await fixture.download()
        #expect(kept.events.results(below: fixture.local)["Old/b.txt"] == nil, "without delete nothing goes")
        #expect(fixture.localText("Old/b.txt") == "bravo\n")

        let run = try await fixture.download(TreeOptions(delete: true, wait: 5))
        #expect(
            run.events.results(below: fixture.local) == [
                "a.txt": "unchanged", "Old/b.txt": "deleted", "Old": "deleted",
            ])
        #expect(fixture.localText("Old/b.txt") == nil && fixture.localText("mine.txt") == "mine\n")
        #expect(try run.end.summary().succeeded)
        await fixture.stop()
    }

    @Test func aDryRunChangesNothing() async throws {
        let fixture = try await MirrorFixture()
        try await fixture.put("a.txt", "alpha\n")
        let run = try await fixture.download(TreeOptions(dryRun: true, wait: 5))
        #expect(run.events.results(below: fixture.local) == ["a.txt": "would download"])
        #expect(!FileManager.default.fileExists(atPath: fixture.local), "no folder made")
        await fixture.stop()
    }

    /// Another run's lock on the local folder ends the run before anything is read or written.
    @Test func anotherRunsLockEndsTheRunUntouched() async throws {
        let fixture = try await MirrorFixture()
        try await fixture.put("a.txt", "alpha\n")
        try FileManager.default.createDirectory(atPath: fixture.local, withIntermediateDirectories: true)
        let held = try await takeLock(treeLockFileName, in: LocalFolder(path: fixture.local), waiting: 0)
        guard case .acquired(let lock) = held else {
            Issue.record("the test could not take the lock")
            return
        }
        fixture.sim.clearRequestLog()
        let run = try await fixture.download(TreeOptions(wait: 0.3))
        guard case .locked(let holder) = run.end else {
            Issue.record("expected the run to stop at the lock, got \(run.end)")
            return
        }
        #expect(holder.pid == getpid())
        #expect(run.events.events.contains { if case .waitingForLock = $0 { true } else { false } })
        #expect(fixture.sim.requestLog().isEmpty, "nothing was read")
        #expect(fixture.localText("a.txt") == nil)
        withExtendedLifetime(lock) {}
        await fixture.stop()
    }
}

/// SharePoint keeps modification times to the second: two versions of a file of the same size written in one second
/// look alike by size and time. The ledger keeps the ETag of the version written, so the newer one is fetched (the
/// soak found the mirror keeping the older one for good).
@Suite struct SameSecondEditTests {
    @Test func anEditInTheSameSecondWithTheSameSizeIsFetched() async throws {
        let fixture = try await MirrorFixture()
        try await fixture.put("a.txt", "version 1\n")
        _ = try await fixture.download()
        try await fixture.put("a.txt", "version 2\n")
        let run = try await fixture.download()
        #expect(run.events.results(below: fixture.local) == ["a.txt": "downloaded"])
        #expect(fixture.localText("a.txt") == "version 2\n")
        await fixture.stop()
    }
}

/// A run killed after a file landed but before the ledger heard of it: the file is the version the run was writing,
/// which the ledger saved as pending before the first byte, so the next run knows it as spconnect's and replaces it
/// when SharePoint has a newer one (the soak found such a file refused as a local edit night after night).
@Suite struct KilledRunTests {
    @Test func aFileAKilledRunWroteIsStillTheMirrors() async throws {
        let fixture = try await MirrorFixture()
        try await fixture.put("a.txt", "version 1\n")
        _ = try await fixture.download()
        // What a run killed mid-way leaves: version 2 in place with SharePoint's time, the ledger saved before it
        // landed (version 1's entry, version 2 pending).
        let landed = "version 2, longer\n"
        try landed.write(toFile: fixture.local + "/a.txt", atomically: true, encoding: .utf8)
        let time = Date(timeIntervalSince1970: 1_767_225_600)
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: fixture.local + "/a.txt")
        let ledgerPath = fixture.local + "/.spconnect-download.json"
        var ledger = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledgerPath))) as? [String: Any])
        ledger["pending"] = ["a.txt": ["size": landed.utf8.count, "modified": 1_767_225_600]]
        try JSONSerialization.data(withJSONObject: ledger).write(to: URL(fileURLWithPath: ledgerPath))
        try await fixture.put("a.txt", "version 3\n")

        let run = try await fixture.download()
        #expect(run.events.results(below: fixture.local) == ["a.txt": "downloaded"])
        #expect(fixture.localText("a.txt") == "version 3\n")
        let saved = try String(contentsOfFile: ledgerPath, encoding: .utf8)
        #expect(!saved.contains("pending"), "a run that ends clears what was pending: \(saved)")
        await fixture.stop()
    }
}
