import Foundation
import SPSim
import TestSupport
import Testing

/// `changes LIST`, `changes --web` and `items LIST --since-token FILE` end to end against the simulator's change log
/// (docs/cli.md "Incremental runs"): adds, updates and deletes since a token, every page of them, the token file
/// written only after a run that succeeded, a token older than the log keeps, and a list past the view threshold.
/// Serialized: each case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct ChangesCLITests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    static func token(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func changesListsAddsUpdatesAndDeletesSinceTheToken() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("changes")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokenPath = folder + "/tasks.token"
        let first = try await fixture.run(["changes", "Tasks", "--since-token", tokenPath, "-o", "json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Self.objects(first.stdout).isEmpty, "\(first.stdout)")
        let saved = Self.token(tokenPath)
        #expect(saved.hasPrefix("1;3;") && saved.hasSuffix(";0\n"), "\(saved)")
        #expect(try Self.mode(tokenPath) == 0o600)

        #expect(try await fixture.run(["add", "Tasks", "Title=Brand new"]).status == 0)
        #expect(try await fixture.run(["update", "Tasks", "3", "Title=Changed"]).status == 0)
        #expect(try await fixture.run(["delete", "Tasks", "4"]).status == 0)
        #expect(try await fixture.run(["add", "Projects", "Title=Elsewhere"]).status == 0)

        let second = try await fixture.run(["changes", "Tasks", "--since-token", tokenPath, "-o", "json"])
        #expect(second.status == 0, "\(second.stderr)")
        let changes = try Self.objects(second.stdout)
        #expect(changes.compactMap { $0["change"] as? String } == ["add", "update", "delete"])
        #expect(changes.compactMap { $0["id"] as? Int } == [21, 3, 4])
        #expect(changes.first?["path"] as? String == "/Lists/Tasks/21_.000")
        #expect((changes.last?["token"] as? String)?.hasSuffix(";3") == true, "\(changes)")
        #expect((changes.first?["uniqueId"] as? String)?.count == 36, "\(changes)")
        #expect((changes.first?["time"] as? String)?.hasSuffix("Z") == true, "\(changes)")
        #expect(Self.token(tokenPath).hasSuffix(";3\n"), "\(Self.token(tokenPath))")

        let third = try await fixture.run(["changes", "Tasks", "--since-token", tokenPath, "-o", "json"])
        #expect(try Self.objects(third.stdout).isEmpty, "\(third.stdout)")
        // Verbose OData (SharePoint 2013): the query and the answer carry their `__metadata` types.
        let verbose = try await fixture.run(["changes", "Tasks", "--odata", "verbose", "-o", "json"])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(try Self.objects(verbose.stdout).compactMap { $0["id"] as? Int } == [21, 3, 4])
        let table = try await fixture.run(["changes", "Tasks"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("delete") && table.stdout.contains("/Lists/Tasks/4_.000"), "\(table.stdout)")
    }

    @Test func changesOfTheWebReadEveryPageAcrossLists() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("changes-web")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: folder + "/note.txt"))
        #expect(try await fixture.run(["upload", folder + "/note.txt", "--to", "Documents"]).status == 0)
        #expect(try await fixture.run(["add", "Projects", "Title=Another"]).status == 0)
        #expect(try await fixture.run(["update", "Tasks", "1", "Title=Kickoff planned"]).status == 0)
        fixture.sim.clearRequestLog()
        let web = try await fixture.run(["changes", "--web", "--fetch-limit", "1", "-o", "json"])
        #expect(web.status == 0, "\(web.stderr)")
        let changes = try Self.objects(web.stdout)
        #expect(changes.compactMap { $0["change"] as? String } == ["add", "add", "update"])
        #expect(changes.first?["path"] as? String == "/Shared Documents/note.txt")
        #expect(Set(changes.compactMap { $0["listId"] as? String }).count == 3)
        let requests = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/getchanges") }
        #expect(requests.count == 4, "\(requests.map(\.path))")

        let both = try await fixture.run(["changes", "Tasks", "--web"])
        #expect(both.status == 2, "\(both.stderr)")
        let missing = try await fixture.run(["changes", "Taks"])
        #expect(missing.status == 8, "\(missing.stderr)")
        #expect(missing.stderr.contains("Did you mean 'Tasks'?"), "\(missing.stderr)")
    }

    @Test func aTokenOlderThanTheLogIsRefusedAndAnotherListsTokenIsAUsageError() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("changes-old")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokenPath = folder + "/tasks.token"
        #expect(try await fixture.run(["changes", "Tasks", "--since-token", tokenPath]).status == 0)
        let saved = Self.token(tokenPath)
        #expect(try await fixture.run(["update", "Tasks", "2", "Title=Budget reviewed"]).status == 0)
        fixture.sim.truncateChangeLog()
        let old = try await fixture.run(["changes", "Tasks", "--since-token", tokenPath])
        #expect(old.status == 1, "\(old.stderr)")
        #expect(old.stderr.contains("older than the change log"), "\(old.stderr)")
        #expect(Self.token(tokenPath) == saved)

        let other = try await fixture.run(["changes", "Projects", "--since-token", tokenPath])
        #expect(other.status == 2, "\(other.stderr)")
        #expect(other.stderr.contains("another list"), "\(other.stderr)")
        try Data("not a token\n".utf8).write(to: URL(fileURLWithPath: tokenPath))
        let garbage = try await fixture.run(["changes", "Tasks", "--since-token", tokenPath])
        #expect(garbage.status == 2, "\(garbage.stderr)")
        let nowhere = try await fixture.run(["changes", "Tasks", "--since-token", folder + "/missing/tasks.token"])
        #expect(nowhere.status == 2, "\(nowhere.stderr)")
        #expect(nowhere.stderr.contains("does not exist"), "\(nowhere.stderr)")
        #expect(Self.token(tokenPath) == "not a token\n")
    }
}
