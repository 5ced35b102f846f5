import Foundation
import JSON
import SPSim
import TestSupport
import Testing

/// `--dry-run` on the list writes (docs/cli.md): `delete LIST ID... --dry-run` and `add`/`update LIST --from FILE
/// --dry-run` say what each id or row would do, with the real run's exit codes, and send no write at all.
/// Serialized: each case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct DryRunCLITests {
    func objects(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    /// Requests that could have changed something: every method but GET (the digest's `contextinfo` aside).
    func writes(_ fixture: CLIFixture) -> [String] {
        fixture.sim.requestLog().filter { $0.method != "GET" && !$0.path.lowercased().hasSuffix("/contextinfo") }
            .map { "\($0.method) \($0.path)" }
    }

    @Test func deleteDryRunLooksEachItemUpAndDeletesNothing() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.clearRequestLog()
        let planned = try await fixture.run(["delete", "Tasks", "2", "3", "999", "--dry-run", "-o", "ndjson"])
        #expect(planned.status == 8, "a missing id is exit 8, as in the real run: \(planned.stderr)")
        let rows = try objects(planned.stdout)
        #expect(rows.map { $0["result"]?.stringValue } == ["would delete", "would delete", "not found"])
        #expect(rows.first?["title"]?.stringValue == "Review budget", "\(planned.stdout)")
        #expect(planned.stderr.contains("Dry run: nothing was deleted"), "\(planned.stderr)")
        #expect(writes(fixture).isEmpty, "\(writes(fixture))")
        let still = try await fixture.run(["item", "Tasks", "2", "-o", "json"])
        #expect(still.status == 0, "item 2 is still there: \(still.stderr)")

        let typo = try await fixture.run(["delete", "Taks", "2", "--dry-run"])
        #expect(typo.status == 8, "\(typo.stderr)")
    }

    @Test func addFromDryRunChecksEveryRowAndWritesNothing() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("dry-run")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let csv =
            "Title,Owner,Cost\nDesk,alice@contoso.test,120.5\nChair,alice@contoso.test,twelve\n"
            + "Lamp,newcomer@contoso.test,15\n"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/assets.csv"))
        let before = try await fixture.run(["items", "Asset_Register", "--select", "Id", "-o", "ndjson"])
        fixture.sim.clearRequestLog()

        let planned = try await fixture.run(["add", "Asset_Register", "--from", folder + "/assets.csv", "--dry-run"])
        #expect(planned.status == 14, "a bad row is exit 14, as in the real run: \(planned.stderr)")
        let rows = try objects(planned.stdout)
        #expect(rows.map { $0["status"]?.stringValue } == ["would create", "failed", "would create"])
        #expect(rows[1]["error"]?.stringValue?.contains("Cost") == true, "\(planned.stdout)")
        // A person who is not on the site yet would be added by the real run: said, and not added now.
        #expect(rows[2]["error"]?.stringValue?.contains("newcomer@contoso.test") == true, "\(planned.stdout)")
        #expect(planned.stderr.contains("Dry run, nothing was written. 3 rows: 2 would be written, 1 failed"))
        #expect(writes(fixture).isEmpty, "no batch, no ensureuser: \(writes(fixture))")
        let after = try await fixture.run(["items", "Asset_Register", "--select", "Id", "-o", "ndjson"])
        #expect(after.stdout == before.stdout)

        let updates = "Id,Cost\n1,99\n"
        try Data(updates.utf8).write(to: URL(fileURLWithPath: folder + "/updates.csv"))
        let update = try await fixture.run([
            "update", "Asset_Register", "--from", folder + "/updates.csv", "--dry-run", "-o", "ndjson",
        ])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try objects(update.stdout).first?["status"]?.stringValue == "would update")
        #expect(writes(fixture).isEmpty, "\(writes(fixture))")

        let single = try await fixture.run(["add", "Asset_Register", "Title=Desk", "--dry-run"])
        #expect(single.status == 2 && single.stderr.contains("--dry-run goes with --from"), "\(single.stderr)")
    }
}
