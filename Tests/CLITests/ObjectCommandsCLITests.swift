import Foundation
import SPSim
import TestSupport
import Testing

/// `file`, `versions`, `attachments` and `rm` end to end against the simulator (docs/cli.md): what each shows, the
/// did-you-mean of a missing path, and what `rm` and `attachments --download` change or refuse to change.
/// Serialized: each case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct ObjectCommandsCLITests {
    /// The JSON object or array `text` holds.
    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try json(text) as? [[String: Any]], "\(text)")
    }

    @Test func eachCommandHasHelpCompletionAndAManPageSection() async throws {
        let home = try temporaryDirectory("object-help")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config"]
        for (name, example) in [
            ("rm", "spconnect rm --dry-run"), ("file", "spconnect file "), ("versions", "spconnect versions Tasks 17"),
            ("attachments", "spconnect attachments Tasks 17 --download"),
        ] {
            let help = try await runSpconnect(["help", name], environment: environment)
            #expect(help.status == 0, "\(help.stderr)")
            #expect(help.stdout.hasPrefix("usage: spconnect \(name) "), "\(help.stdout)")
            #expect(help.stdout.contains("\nexamples:\n") && help.stdout.contains(example), "\(help.stdout)")
        }
        let man = try await runSpconnect(["man"], environment: environment)
        for heading in [
            "spconnect rm PATH...", "spconnect file PATH", "spconnect versions PATH", "spconnect attachments",
        ] {
            #expect(man.stdout.contains(".SS \"\(heading)"), "the man page lacks \(heading)")
        }
        let script = try await runSpconnect(["completion", "bash"], environment: environment)
        let file = home + "/spconnect.bash"
        try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) async throws -> [String] { try await bashCompletions(script: file, words) }
        #expect(try await complete(["spconnect", "vers"]) == ["version", "versions"])
        #expect(try await complete(["spconnect", "att"]) == ["attachments"])
        #expect(try await complete(["spconnect", "rm", "Documents/a.txt", "--dr"]) == ["--dry-run"])
        #expect(try await complete(["spconnect", "attachments", "Tasks", "1", "--dow"]) == ["--download"])
        #expect(try await complete(["spconnect", "attachments", "Tasks", "1", "--ov"]) == ["--overwrite"])
    }

    @Test func fileShowsPropertiesAndAMissingOneNamesTheClosest() async throws {
        let fixture = try await CLIFixture()
        let shown = try await fixture.run(["file", "Documents/Welcome.txt", "-o", "json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let file = try #require(try Self.json(shown.stdout) as? [String: Any])
        #expect(file["name"] as? String == "Welcome.txt")
        #expect(file["serverRelativeUrl"] as? String == "/Shared Documents/Welcome.txt")
        #expect(file["size"] as? Int == 32)
        #expect(file["createdBy"] as? String == "Alice Example")
        #expect(file["modifiedBy"] as? String == "Alice Example")
        #expect(file["version"] as? String == "1.0")
        #expect(file["checkOut"] as? String == "none")
        let id = try #require(file["uniqueId"] as? String)
        #expect(file["etag"] as? String == "\"{\(id.uppercased())},1\"")

        let url = "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/Welcome.txt')"
        #expect(try await fixture.run(["api", "POST", url + "/checkout()"]).status == 0)
        let out = try #require(
            try Self.json(try await fixture.run(["file", "Documents/Welcome.txt", "-o", "json"]).stdout)
                as? [String: Any])
        #expect(out["checkOut"] as? String == "online")
        let checkIn = try await fixture.run(["api", "POST", url + "/checkin(comment='Reviewed',checkintype=0)"])
        #expect(checkIn.status == 0, "\(checkIn.stderr)")
        let back = try #require(
            try Self.json(try await fixture.run(["file", "Documents/Welcome.txt", "-o", "json"]).stdout)
                as? [String: Any])
        #expect(back["checkOut"] as? String == "none")
        #expect(back["checkInComment"] as? String == "Reviewed")

        let typo = try await fixture.run(["file", "Documents/Welcom.txt"])
        #expect(typo.status == 8)
        #expect(typo.stderr.contains("Did you mean 'Documents/Welcome.txt'?"), "\(typo.stderr)")
        let far = try await fixture.run(["file", "Documents/zzzzzzzz.bin"])
        #expect(far.status == 8)
        #expect(!far.stderr.contains("Did you mean"), "\(far.stderr)")
        let folder = try await fixture.run(["file", "Shared Documents"])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("is a folder, not a file"), "\(folder.stderr)")
    }

    @Test func aFileUploadedAgainKeepsItsEarlierVersion() async throws {
        let fixture = try await CLIFixture()
        let scratch = try temporaryDirectory("versions")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let local = scratch + "/plan.txt"
        try Data("one\n".utf8).write(to: URL(fileURLWithPath: local))
        #expect(try await fixture.run(["upload", local, "--to", "Documents"]).status == 0)
        try Data("the second text\n".utf8).write(to: URL(fileURLWithPath: local))
        #expect(try await fixture.run(["upload", local, "--to", "Documents", "--overwrite"]).status == 0)

        let listed = try await fixture.run(["versions", "Documents/plan.txt", "-o", "json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let versions = try Self.objects(listed.stdout)
        #expect(versions.map { $0["version"] as? String } == ["1.0", "2.0"])
        #expect(versions.map { $0["size"] as? Int } == [4, 16])
        #expect(versions.map { $0["current"] as? Bool } == [false, true])
        #expect(versions.allSatisfy { $0["createdBy"] as? String == "Alice Example" })
        let table = try await fixture.run(["versions", "Documents/plan.txt", "-o", "table"])
        #expect(table.stdout.contains("Version") && table.stdout.contains("2.0"), "\(table.stdout)")

        let missing = try await fixture.run(["versions", "Documents/plan.tx"])
        #expect(missing.status == 8)
        #expect(missing.stderr.contains("Did you mean 'Documents/plan.txt'?"), "\(missing.stderr)")
    }

    @Test func anUpdatedItemListsItsVersionsNewestFirst() async throws {
        let fixture = try await CLIFixture()
        #expect(try await fixture.run(["update", "Tasks", "3", "Title=Order two laptops"]).status == 0)
        let listed = try await fixture.run(["versions", "Tasks", "3", "-o", "json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let versions = try Self.objects(listed.stdout)
        #expect(versions.map { $0["version"] as? String } == ["2.0", "1.0"])
        #expect(versions.map { $0["current"] as? Bool } == [true, false])
        #expect(versions[0]["changed"] as? String == "Title", "\(versions[0])")
        let now = try #require(versions[0]["values"] as? [String: Any])
        let before = try #require(versions[1]["values"] as? [String: Any])
        #expect(now["Title"] as? String == "Order two laptops")
        #expect(before["Title"] as? String == "Order new laptops")
        let table = try await fixture.run(["versions", "Tasks", "3", "-o", "table"])
        #expect(!table.stdout.contains("Values"), "a table shows what changed, not every value: \(table.stdout)")

        let listOnly = try await fixture.run(["versions", "Tasks"])
        #expect(listOnly.status == 2, "a list title is its root folder: \(listOnly.stderr)")
        #expect(listOnly.stderr.contains("spconnect versions Tasks ID"), "\(listOnly.stderr)")
        let noSuchWord = try await fixture.run(["versions", "Nothing"])
        #expect(noSuchWord.status == 8, "\(noSuchWord.stderr)")
        #expect(noSuchWord.stderr.contains("spconnect versions Nothing ID"), "\(noSuchWord.stderr)")
        let noItem = try await fixture.run(["versions", "Tasks", "999"])
        #expect(noItem.status == 8, "\(noItem.stderr)")
        let noList = try await fixture.run(["versions", "Taks", "3"])
        #expect(noList.status == 8, "\(noList.stderr)")
        #expect(noList.stderr.contains("Did you mean 'Tasks'?"), "\(noList.stderr)")
    }

    @Test func attachmentsAreListedAndSavedWithoutReplacingWhatIsThere() async throws {
        let fixture = try await CLIFixture()
        let listed = try await fixture.run(["attachments", "Tasks", "1", "-o", "json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let names = try Self.objects(listed.stdout).map { $0["name"] as? String }
        #expect(names == ["agenda.txt", "O'Brien plan.txt"])
        let none = try await fixture.run(["attachments", "Tasks", "2", "-o", "json"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(try Self.objects(none.stdout).isEmpty, "\(none.stdout)")

        let scratch = try temporaryDirectory("attachments")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let into = scratch + "/task-1"
        let saved = try await fixture.run(["attachments", "Tasks", "1", "--download", into, "-o", "json"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try Self.objects(saved.stdout).allSatisfy { $0["result"] as? String == "downloaded" })
        let agenda = into + "/agenda.txt"
        #expect(try String(contentsOfFile: agenda, encoding: .utf8) == "Kickoff agenda: goals, roles, dates.\n")
        #expect(FileManager.default.fileExists(atPath: into + "/O'Brien plan.txt"))

        try Data("my own notes\n".utf8).write(to: URL(fileURLWithPath: agenda))
        let refused = try await fixture.run(["attachments", "Tasks", "1", "--download", into, "-o", "json"])
        #expect(refused.status == 9, "\(refused.stderr)")
        #expect(try Self.objects(refused.stdout).allSatisfy { $0["result"] as? String == "refused (exists)" })
        #expect(refused.stderr.contains("add --overwrite to replace it"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: agenda, encoding: .utf8) == "my own notes\n")

        let replaced = try await fixture.run(["attachments", "Tasks", "1", "--download", into, "--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try String(contentsOfFile: agenda, encoding: .utf8) == "Kickoff agenda: goals, roles, dates.\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: into).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers)")

        let typo = try await fixture.run(["attachments", "Tsaks", "1"])
        #expect(typo.status == 8, "\(typo.stderr)")
        #expect(typo.stderr.contains("Did you mean 'Tasks'?"), "\(typo.stderr)")

        let lonely = try await fixture.run(["attachments", "Tasks", "1", "--overwrite"])
        #expect(lonely.status == 2, "\(lonely.stderr)")
    }

    @Test func rmDryRunChangesNothingThenRecyclesFilesAndFolders() async throws {
        let fixture = try await CLIFixture()
        #expect(try await fixture.run(["mkdir", "Documents/Old"]).status == 0)
        let scratch = try temporaryDirectory("rm")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: scratch + "/old.txt"))
        #expect(try await fixture.run(["upload", scratch + "/old.txt", "--to", "Documents/Old"]).status == 0)

        let dry = try await fixture.run(["rm", "--dry-run", "Documents/Old", "Documents/Welcome.txt", "-o", "json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let planned = try Self.objects(dry.stdout)
        #expect(planned.map { $0["result"] as? String } == ["would recycle", "would recycle"])
        #expect(planned.map { $0["type"] as? String } == ["folder", "file"])
        #expect(try await fixture.run(["file", "Documents/Welcome.txt"]).status == 0, "--dry-run removed the file")
        #expect(try await fixture.run(["file", "Documents/Old/old.txt"]).status == 0, "--dry-run removed the folder")

        let removed = try await fixture.run([
            "rm", "Documents/Old", "Documents/Welcome.txt", "Documents/Budget 2025.csv", "Documents",
            "Documents/Old/old.txt", "/Shared Documents/Welcome.txt", "http://elsewhere.test/x.txt", "-o", "json",
        ])
        #expect(removed.status == 8, "the first failure is the missing path: \(removed.stderr)")
        let results = try Self.objects(removed.stdout)
        #expect(
            results.map { $0["result"] as? String } == [
                "recycled", "recycled", "not found", "refused (library)", "recycled (with Documents/Old)",
                "recycled (with Documents/Welcome.txt)", "refused (usage)",
            ])
        #expect(removed.stderr.contains("Did you mean 'Documents/Budget 2026.csv'?"), "\(removed.stderr)")
        #expect(removed.stderr.contains("root folder of 'Documents'"), "\(removed.stderr)")
        #expect(try await fixture.run(["file", "Documents/Welcome.txt"]).status == 8)
        #expect(try await fixture.run(["file", "Documents/Old/old.txt"]).status == 8)
        #expect(try await fixture.run(["file", "Documents/Budget 2026.csv"]).status == 0)

        let bin = try await fixture.run(["api", "GET", "/_api/web/RecycleBin"])
        #expect(bin.status == 0, "\(bin.stderr)")
        let entries = try #require((try Self.json(bin.stdout) as? [String: Any])?["value"] as? [[String: Any]])
        #expect(entries.map { $0["LeafName"] as? String } == ["Old", "Welcome.txt"])
        let ids = results.prefix(2).map { $0["recycleBinId"] as? String }
        #expect(removed.stderr.contains("Moved 4 of 7 to the recycle bin."), "\(removed.stderr)")
        #expect(entries.map { $0["Id"] as? String } == ids)
    }
}
