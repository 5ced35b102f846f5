import Foundation
import SPSim
import TestSupport
import Testing

/// `permissions PATH | LIST [ID]` end to end against the simulator (docs/cli.md): the web's three group assignments
/// (its own: `permissions /`) inherited by a list, an item, a file and a folder; the seeded `Projects` list with
/// broken inheritance and one user more; the exit codes of a missing list, item and file. Serialized: each case runs
/// a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct PermissionsCLITests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    static let webDefaults = ["Team Site Owners: Full Control", "Team Site Members: Edit", "Team Site Visitors: Read"]

    static func summary(_ rows: [[String: Any]]) -> [String] {
        rows.map { "\($0["principal"] as? String ?? "?"): \($0["roles"] as? String ?? "?")" }
    }

    @Test func aListItemFileAndFolderInheritTheWebsGroups() async throws {
        let fixture = try await CLIFixture()
        let list = try await fixture.run(["permissions", "Tasks", "-o", "json"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = try Self.objects(list.stdout)
        #expect(Self.summary(rows) == Self.webDefaults)
        #expect(rows.compactMap { $0["principalId"] as? Int } == [3, 4, 5])
        #expect(
            rows.allSatisfy { $0["principalType"] as? String == "SharePoint group" && $0["inherited"] as? Bool == true }
        )
        #expect(rows.first?["loginName"] as? String == "Team Site Owners")
        #expect(list.stderr.contains("inherits its permissions"), "\(list.stderr)")

        let item = try await fixture.run(["permissions", "Tasks", "3", "-o", "json"])
        #expect(item.status == 0, "\(item.stderr)")
        #expect(Self.summary(try Self.objects(item.stdout)) == Self.webDefaults)

        let file = try await fixture.run(["permissions", "Shared Documents/Welcome.txt", "-o", "json"])
        #expect(file.status == 0, "\(file.stderr)")
        #expect(Self.summary(try Self.objects(file.stdout)) == Self.webDefaults)
        #expect(file.stderr.contains("The file /Shared Documents/Welcome.txt inherits"), "\(file.stderr)")

        #expect(try await fixture.run(["mkdir", "Documents/Reports"]).status == 0)
        let folder = try await fixture.run(["permissions", "Documents/Reports", "-o", "json"])
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(Self.summary(try Self.objects(folder.stdout)) == Self.webDefaults)
        #expect(folder.stderr.contains("The folder /Shared Documents/Reports inherits"), "\(folder.stderr)")

        let root = try await fixture.run(["permissions", "Lists/Tasks"])
        #expect(root.status == 0, "\(root.stderr)")
        #expect(root.stderr.contains("The list /Lists/Tasks inherits"), "\(root.stderr)")
        #expect(root.stdout.contains("Full Control") && root.stdout.contains("SharePoint group"), "\(root.stdout)")
    }

    @Test func theSitesRootIsTheWebWithItsOwnAssignments() async throws {
        let fixture = try await CLIFixture()
        let web = try await fixture.run(["permissions", "/", "-o", "json"])
        #expect(web.status == 0, "\(web.stderr)")
        let rows = try Self.objects(web.stdout)
        #expect(Self.summary(rows) == Self.webDefaults)
        #expect(rows.allSatisfy { $0["inherited"] as? Bool == false })
        #expect(web.stderr.contains("The site ") && web.stderr.contains("has its own permissions"), "\(web.stderr)")
    }

    @Test func slashIsTheSiteThatSiteNames() async throws {
        let fixture = try await CLIFixture(siteCollections: ["hr"])
        let hr = fixture.sim.siteURL + "/sites/hr"
        for word in ["/", "/sites/hr", hr] {
            let web = try await fixture.run(["permissions", word, "--site", hr, "-o", "json"])
            #expect(web.status == 0, "\(word): \(web.stderr)")
            #expect(Self.summary(try Self.objects(web.stdout)) == Self.webDefaults, "\(word)")
            #expect(web.stderr.contains("The site \(hr) has its own permissions"), "\(word): \(web.stderr)")
        }
    }

    @Test func brokenInheritanceShowsTheListsOwnAssignments() async throws {
        let fixture = try await CLIFixture()
        let own = try await fixture.run(["permissions", "Projects", "-o", "json"])
        #expect(own.status == 0, "\(own.stderr)")
        let rows = try Self.objects(own.stdout)
        #expect(rows.count == 4)
        #expect(Array(Self.summary(rows).prefix(3)) == Self.webDefaults)
        let user = try #require(rows.last)
        #expect(user["principalType"] as? String == "user")
        #expect(user["roles"] as? String == "Contribute")
        #expect((user["loginName"] as? String)?.hasSuffix("|carol.ca@contoso.test") == true, "\(user)")
        #expect(rows.allSatisfy { $0["inherited"] as? Bool == false })
        #expect(own.stderr.contains("has its own permissions (inheritance broken)"), "\(own.stderr)")

        // Its items inherit the list's assignments.
        let item = try await fixture.run(["permissions", "Projects", "1", "-o", "json"])
        #expect(item.status == 0, "\(item.stderr)")
        let itemRows = try Self.objects(item.stdout)
        #expect(itemRows.count == 4 && itemRows.allSatisfy { $0["inherited"] as? Bool == true })
    }

    @Test func missingTargetsAreExit8WithTheClosestName() async throws {
        let fixture = try await CLIFixture()
        let list = try await fixture.run(["permissions", "Projetcs"])
        #expect(list.status == 8, "\(list.stderr)")
        #expect(list.stderr.contains("Did you mean 'Projects'?"), "\(list.stderr)")
        let item = try await fixture.run(["permissions", "Tasks", "999"])
        #expect(item.status == 8, "\(item.stderr)")
        let file = try await fixture.run(["permissions", "Shared Documents/Welcom.txt"])
        #expect(file.status == 8, "\(file.stderr)")
        #expect(file.stderr.contains("Welcome.txt"), "\(file.stderr)")
        #expect(try await fixture.run(["permissions"]).status == 2)
        #expect(try await fixture.run(["permissions", "Tasks", "x"]).status == 2)
    }
}
