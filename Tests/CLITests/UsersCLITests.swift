import Foundation
import SPSim
import TestSupport
import Testing

/// `users` and `user` end to end against the simulator (docs/cli.md): the site's users, one user by e-mail or login
/// name, the did-you-mean and exit code of a missing one, and `--ensure` (with its dry run) through ensureuser.
/// Serialized: each case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct UsersCLITests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func usersListsEverySiteUserWithItsPrincipalType() async throws {
        let fixture = try await CLIFixture()
        let listed = try await fixture.run(["users", "-o", "json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let users = try Self.objects(listed.stdout)
        #expect(
            users.compactMap { $0["email"] as? String } == [
                "alice@contoso.test", "bob.mfa@contoso.test", "carol.ca@contoso.test", "dave.expired@contoso.test",
            ])
        let alice = try #require(users.first)
        #expect(alice["title"] as? String == "Alice Example")
        #expect(alice["loginName"] as? String == "i:0#.f|membership|alice@contoso.test")
        #expect(alice["isSiteAdmin"] as? Bool == true)
        #expect(alice["principalType"] as? Int == 1)
        #expect(users.dropFirst().allSatisfy { $0["isSiteAdmin"] as? Bool == false })

        let csv = try await fixture.run(["users", "-o", "csv"])
        let rows = csv.stdout.split(whereSeparator: \.isNewline)
        #expect(rows.count == 5, "\(csv.stdout)")
        #expect(rows.first == "Id,Name,E-mail,Login name,Site admin,Principal type", "\(csv.stdout)")
    }

    @Test func userFindsOneByEmailOrLoginAndNamesTheClosestWhenMissing() async throws {
        let fixture = try await CLIFixture()
        for name in ["Bob.MFA@contoso.test", "i:0#.f|membership|bob.mfa@contoso.test"] {
            let found = try await fixture.run(["user", name, "-o", "json"])
            #expect(found.status == 0, "\(found.stderr)")
            #expect(try Self.object(found.stdout)["title"] as? String == "Bob Mfa")
        }
        let typo = try await fixture.run(["user", "bob.mfa@contoso.tset"])
        #expect(typo.status == 8, "\(typo.stderr)")
        #expect(typo.stderr.contains("Did you mean 'bob.mfa@contoso.test'?"), "\(typo.stderr)")
        #expect(typo.stderr.contains("--ensure"), "\(typo.stderr)")
        let far = try await fixture.run(["user", "nobody@elsewhere.example"])
        #expect(far.status == 8)
        #expect(!far.stderr.contains("Did you mean"), "\(far.stderr)")
        let misuse = try await fixture.run(["user", "alice@contoso.test", "--dry-run"])
        #expect(misuse.status == 2, "\(misuse.stderr)")
    }

    @Test func ensureResolvesThroughEnsureUserAndItsDryRunSendsNothing() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.clearRequestLog()  // the sign-in's own posts are not the dry run's
        let dry = try await fixture.run(["user", "carol.ca@contoso.test", "--ensure", "--dry-run", "-o", "json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.isEmpty, "\(dry.stdout)")
        #expect(dry.stderr.contains("/_api/web/ensureuser"), "\(dry.stderr)")
        // Read from the server's log, not from the output: the dry run sent nothing to ensureuser (nor any other
        // write), and the real run went through it once.
        let ensureCalls = { fixture.sim.requestLog().filter { $0.path.lowercased() == "/_api/web/ensureuser" } }
        #expect(ensureCalls().isEmpty, "the dry run called ensureuser")
        #expect(fixture.sim.requestLog().allSatisfy { $0.method == "GET" }, "the dry run sent a write")
        let ensured = try await fixture.run(["user", "carol.ca@contoso.test", "--ensure", "-o", "json"])
        #expect(ensured.status == 0, "\(ensured.stderr)")
        #expect(ensureCalls().map(\.method) == ["POST"], "ensureuser: \(ensureCalls().map(\.method))")
        let carol = try Self.object(ensured.stdout)
        #expect(carol["title"] as? String == "Carol Conditional")
        #expect(carol["loginName"] as? String == "i:0#.f|membership|carol.ca@contoso.test")
        let unknown = try await fixture.run(["user", "nobody@elsewhere.example", "--ensure"])
        #expect(unknown.status == 8, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("nobody@elsewhere.example"), "\(unknown.stderr)")
    }
}
