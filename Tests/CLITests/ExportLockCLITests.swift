import Foundation
import SPSim
import TestSupport
import Testing

/// One export of a list per profile at a time (docs/cli.md, `items`): a second `items LIST --out FILE` of the same
/// list and profile exits 15 naming the first run's PID, or waits for it with `--wait`; another list is not held up.
/// Serialized: each case runs a simulator and several spconnect processes.
@Suite(.serialized) struct ExportLockCLITests {
    @Test func aSecondExportOfTheSameListWaitsOrExitsFifteen() async throws {
        // 12,000 items behind 250 ms a page: the first export takes a few seconds.
        let fixture = try await CLIFixture(items: 12_000, latencyMilliseconds: 250)
        let out = try temporaryDirectory("export-lock")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let environment = fixture.environment
        let first = Task {
            try await runSpconnect(
                ["items", "Big", "--out", out + "/first.csv", "--page-size", "1000"], environment: environment)
        }
        try await Task.sleep(for: .milliseconds(1500))

        let refused = try await fixture.run(["items", "Big", "--out", out + "/second.csv"])
        #expect(refused.status == 15, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("the export of 'Big' (profile 'default') is in use by another spconnect run (PID"))
        #expect(!FileManager.default.fileExists(atPath: out + "/second.csv"))
        // Another list of the same profile is not held up.
        let other = try await fixture.run(["items", "Tasks", "--out", out + "/tasks.csv"])
        #expect(other.status == 0, "\(other.stderr)")

        let waited = try await fixture.run(["items", "Big", "--out", out + "/third.csv", "--wait", "120"])
        let firstRun = try await first.value
        #expect(firstRun.status == 0, "\(firstRun.stderr)")
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
