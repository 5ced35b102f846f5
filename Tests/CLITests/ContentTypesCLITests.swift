import Foundation
import SPSim
import TestSupport
import Testing

/// `content-types [LIST]` end to end against the simulator (docs/cli.md): a list's Item, a library's Document and
/// Folder, the site's own without a LIST, and the did-you-mean and exit code of a missing list. Serialized: each case runs a simulator and several
/// spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct ContentTypesCLITests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    @Test func aListHasItemAndALibraryDocumentAndFolder() async throws {
        let fixture = try await CLIFixture()
        let list = try await fixture.run(["content-types", "Tasks", "-o", "json"])
        #expect(list.status == 0, "\(list.stderr)")
        let items = try Self.objects(list.stdout)
        #expect(items.compactMap { $0["name"] as? String } == ["Item"])
        let itemID = try #require(items.first?["id"] as? String)
        #expect(itemID.hasPrefix("0x0100") && itemID.count == 38, "\(itemID)")
        #expect(items.first?["group"] as? String == "List Content Types")
        #expect(items.first?["hidden"] as? Bool == false)

        let library = try await fixture.run(["content-types", "Documents", "-o", "json"])
        #expect(library.status == 0, "\(library.stderr)")
        let types = try Self.objects(library.stdout)
        #expect(types.compactMap { $0["name"] as? String } == ["Document", "Folder"])
        let ids = types.compactMap { $0["id"] as? String }
        #expect(ids.count == 2 && ids[0].hasPrefix("0x0101") && ids[1].hasPrefix("0x0120"), "\(ids)")
        #expect(types.first?["description"] as? String == "Create a new document.")

        let table = try await fixture.run(["content-types", "Shared Documents"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("Document Content Types") && table.stdout.contains("Folder"), "\(table.stdout)")
    }

    @Test func withoutAListTheSitesOwn() async throws {
        let fixture = try await CLIFixture()
        let site = try await fixture.run(["content-types", "-o", "json"])
        #expect(site.status == 0, "\(site.stderr)")
        let types = try Self.objects(site.stdout)
        #expect(types.compactMap { $0["id"] as? String } == ["0x", "0x01", "0x0101", "0x0102", "0x0120"])
        #expect(types.first?["hidden"] as? Bool == true && types.first?["group"] as? String == "_Hidden")
        #expect(types.compactMap { $0["name"] as? String }.contains("Event"))
    }

    @Test func aMissingListIsExit8WithTheClosestTitle() async throws {
        let fixture = try await CLIFixture()
        let typo = try await fixture.run(["content-types", "Taks"])
        #expect(typo.status == 8, "\(typo.stderr)")
        #expect(typo.stderr.contains("Did you mean 'Tasks'?"), "\(typo.stderr)")
        #expect(typo.stdout.isEmpty, "\(typo.stdout)")
        #expect(try await fixture.run(["content-types", "Tasks", "extra"]).status == 2)
    }
}
