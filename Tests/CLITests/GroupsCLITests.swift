import Foundation
import SPSim
import TestSupport
import Testing

/// `groups`, `group members NAME` and `whoami --groups` end to end against the simulator (docs/cli.md): the site's
/// groups, one group's members, the did-you-mean and exit code of a missing group, and the signed-in user's groups.
/// Serialized: each case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct GroupsCLITests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    @Test func groupsListsTheSiteGroupsWithDescriptionAndOwner() async throws {
        let fixture = try await CLIFixture()
        let listed = try await fixture.run(["groups", "-o", "json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let groups = try Self.objects(listed.stdout)
        #expect(
            groups.compactMap { $0["title"] as? String } == [
                "Team Site Owners", "Team Site Members", "Team Site Visitors",
            ])
        #expect(groups.compactMap { $0["id"] as? Int } == [3, 4, 5])
        #expect(groups.allSatisfy { $0["ownerTitle"] as? String == "Team Site Owners" })
        #expect(groups.first?["description"] as? String == "Full control")
    }

    @Test func groupMembersListsTheUsersAndAMissingGroupNamesTheClosest() async throws {
        let fixture = try await CLIFixture()
        let members = try await fixture.run(["group", "members", "team site members", "-o", "json"])
        #expect(members.status == 0, "\(members.stderr)")
        #expect(
            try Self.objects(members.stdout).compactMap { $0["email"] as? String } == [
                "alice@contoso.test", "bob.mfa@contoso.test", "carol.ca@contoso.test",
            ])
        let visitors = try await fixture.run(["group", "members", "Team Site Visitors", "-o", "ndjson"])
        #expect(visitors.stdout.contains("dave.expired@contoso.test"), "\(visitors.stdout)")
        #expect(!visitors.stdout.contains("alice@contoso.test"), "\(visitors.stdout)")

        let typo = try await fixture.run(["group", "members", "Team Site Memebrs"])
        #expect(typo.status == 8, "\(typo.stderr)")
        #expect(typo.stderr.contains("Did you mean 'Team Site Members'?"), "\(typo.stderr)")
        let far = try await fixture.run(["group", "members", "Auditors"])
        #expect(far.status == 8, "\(far.stderr)")
        #expect(!far.stderr.contains("Did you mean"), "\(far.stderr)")
        #expect(try await fixture.run(["group", "Auditors"]).status == 2)
    }

    @Test func whoamiGroupsListsTheSignedInUsersGroups() async throws {
        let fixture = try await CLIFixture()
        let mine = try await fixture.run(["whoami", "--groups", "-o", "json"])
        #expect(mine.status == 0, "\(mine.stderr)")
        #expect(
            try Self.objects(mine.stdout).compactMap { $0["title"] as? String } == [
                "Team Site Owners", "Team Site Members",
            ])
        let table = try await fixture.run(["whoami", "--groups"])
        #expect(table.stdout.contains("Team Site Owners") && !table.stdout.contains("Visitors"), "\(table.stdout)")
    }
}
