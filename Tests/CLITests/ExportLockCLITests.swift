import Foundation
import SPSim
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One export of a list per profile at a time (docs/cli.md, `items`): while the list's export lock is held (here by
/// the test itself, as a running export holds it), a second `items LIST --out FILE` of the same list and profile
/// exits 15, or waits for it with `--wait`; another list is not held up.
/// Serialized: each case runs a simulator and several spconnect processes.
@Suite(.serialized) struct ExportLockCLITests {
    @Test func aSecondExportOfTheSameListWaitsOrExitsFifteen() async throws {
        let fixture = try await CLIFixture(items: 12_000)
        let out = try temporaryDirectory("export-lock")
        defer { try? FileManager.default.removeItem(atPath: out) }
        // The first export makes the list's lock file; then this test holds that lock, as a running export would.
        let first = try await fixture.run(["items", "Big", "--out", out + "/first.csv"])
        #expect(first.status == 0, "\(first.stderr)")
        let sessions = fixture.state + "/spconnect/sessions"
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: sessions).first {
                $0.hasPrefix("default.export-") && $0.hasSuffix(".lock")
            })
        let descriptor = open(sessions + "/" + name, O_RDWR | O_CLOEXEC)
        #expect(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)

        let refused = try await fixture.run(["items", "Big", "--out", out + "/second.csv"])
        #expect(refused.status == 15, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("the export of 'Big' (profile 'default') is in use by another spconnect run"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/second.csv"))
        // Another list of the same profile is not held up.
        let other = try await fixture.run(["items", "Tasks", "--out", out + "/tasks.csv"])
        #expect(other.status == 0, "\(other.stderr)")

        // A run with --wait waits for the lock and goes on once it is released. The lock is released when the run
        // says it waits (a fixed pause once ran out before a loaded machine had started the run at all), and the
        // file must not exist at that moment.
        let environment = fixture.environment
        let third = out + "/third.csv"
        let released = Mutex<(done: Bool, fileExistedWhileHeld: Bool)>((false, false))
        let waited = try await runSpconnect(
            ["items", "Big", "--out", third, "--wait", "120"], environment: environment,
            watchingStandardError: { text in
                guard text.contains("waiting for another spconnect run") else { return }
                released.withLock { state in
                    guard !state.done else { return }
                    state.fileExistedWhileHeld = FileManager.default.fileExists(atPath: third)
                    state.done = true
                    close(descriptor)
                }
            })
        let state = released.withLock { $0 }
        if !state.done { close(descriptor) }
        #expect(state.done, "the run never said it waits: \(waited.stderr)")
        #expect(!state.fileExistedWhileHeld, "it waits while the lock is held")
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(waited.stderr.contains("waiting for another spconnect run"), "\(waited.stderr)")
        let lines = { (name: String) in
            String(decoding: FileManager.default.contents(atPath: out + "/" + name) ?? Data(), as: UTF8.self)
                .split(whereSeparator: \.isNewline).count
        }
        #expect(lines("first.csv") == 12_001, "\(lines("first.csv"))")
        #expect(lines("third.csv") == lines("first.csv"))

        let stray = try await fixture.run(["items", "Tasks", "--wait", "5"])
        #expect(stray.status == 2 && stray.stderr.contains("--wait goes with --out"), "\(stray.stderr)")
    }
}
