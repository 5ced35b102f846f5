import Foundation
import SPSim
import TestSupport
import Testing

/// The one addressing rule (docs/cli.md, "Addressing lists, folders and files"): a title, a site-relative path, a
/// server-relative path or a whole browser address names the same list, folder or file in every command.
/// Serialized: each case starts a simulator and several spconnect processes, and many at once push the test
/// process past ~1,300 open descriptors, where Foundation's `Process.run()` (Swift 6.3.1) can crash reading
/// /proc/self/fd (swift-corelibs-foundation PR 5472).
@Suite(.serialized) struct AddressingCLITests {
    /// How a test writes the library "Documents" (at `/Shared Documents`) or something in it; `SITE` is the
    /// simulator's URL.
    static let libraryForms = [
        "Documents", "Shared Documents", "/Shared Documents", "Shared%20Documents",
        "SITE/Shared%20Documents/Forms/AllItems.aspx",
        "SITE/Shared%20Documents/Forms/AllItems.aspx?id=%2FShared%20Documents&viewid=x",
    ]

    @Test(arguments: libraryForms)
    func lsListsTheLibraryHoweverItIsWritten(form: String) async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run([
            "ls", form.replacingOccurrences(of: "SITE", with: fixture.sim.siteURL), "--output", "csv",
        ])
        #expect(result.status == 0, "\(form): \(result.stderr)")
        expectSnapshot(result.stdout.replacingOccurrences(of: "\r\n", with: "\n"), named: "documents-ls.csv")
    }

    @Test(arguments: libraryForms + ["SITE/Shared%20Documents"])
    func listShowsTheLibraryHoweverItIsWritten(form: String) async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run([
            "list", form.replacingOccurrences(of: "SITE", with: fixture.sim.siteURL), "--output", "json",
        ])
        #expect(result.status == 0, "\(form): \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any]
        #expect(object?["title"] as? String == "Documents", "\(form)")
    }

    @Test(arguments: ["Tasks", "Lists/Tasks", "/Lists/Tasks", "SITE/Lists/Tasks/AllItems.aspx"])
    func aListIsNamedTheSameWayInEveryListCommand(form: String) async throws {
        let fixture = try await CLIFixture()
        let word = form.replacingOccurrences(of: "SITE", with: fixture.sim.siteURL)
        let items = try await fixture.run(["items", word, "--select", "Title", "--top", "2", "--output", "csv"])
        #expect(items.status == 0, "\(form): \(items.stderr)")
        #expect(items.stdout == "Id,Title\r\n1,Plan the kickoff\r\n2,Review budget\r\n", "\(form)")
        let fields = try await fixture.run(["fields", word, "--output", "csv"])
        #expect(fields.stdout.contains("Status,Status,Choice"), "\(form)")
        let item = try await fixture.run(["item", word, "2", "--select", "Title", "--output", "json"])
        #expect(item.stdout.contains("\"Title\": \"Review budget\""), "\(form): \(item.stderr)")
        let added = try await fixture.run(["add", word, "Title=Added", "--output", "json"])
        #expect(added.status == 0, "\(form): \(added.stderr)")
        #expect(added.stdout.contains("\"Id\": 21"), "\(form): \(added.stdout)")
        let updated = try await fixture.run(["update", word, "21", "Title=Updated"])
        #expect(updated.status == 0, "\(form): \(updated.stderr)")
        let deleted = try await fixture.run(["delete", word, "21", "--output", "csv"])
        #expect(deleted.stdout == "Id,Result\r\n21,deleted\r\n", "\(form): \(deleted.stderr)")
    }

    @Test(arguments: [
        "Documents/Welcome.txt", "Shared Documents/Welcome.txt", "/Shared Documents/Welcome.txt",
        "Shared%20Documents/Welcome.txt", "SITE/Shared%20Documents/Welcome.txt",
    ])
    func downloadTakesAFileHoweverItIsWritten(form: String) async throws {
        let fixture = try await CLIFixture()
        let into = try temporaryDirectory("addressed")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let result = try await fixture.run([
            "download", form.replacingOccurrences(of: "SITE", with: fixture.sim.siteURL), "--to", into, "--output",
            "csv",
        ])
        #expect(result.status == 0, "\(form): \(result.stderr)")
        #expect(
            result.stdout == "Name,Size,Saved to,Server-relative URL,Result\r\nWelcome.txt,32,\(into)/Welcome.txt,"
                + "/Shared Documents/Welcome.txt,downloaded\r\n", "\(form)")
        let saved = try Data(contentsOf: URL(fileURLWithPath: into + "/Welcome.txt"))
        let expected = try #require(
            fixture.sim.fileBytes(serverRelativeURL: "/Shared Documents/Welcome.txt", offset: 0, count: 32))
        #expect(saved == Data(expected))
    }

    @Test func downloadTakesSeveralIdsAfterOneList() async throws {
        let fixture = try await CLIFixture()
        let into = try temporaryDirectory("ids")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let result = try await fixture.run(["download", "Photos", "1", "2", "3", "--to", into, "--output", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
            .map { $0.split(separator: ",").first.map(String.init) ?? "" }
        #expect(names == ["sunset.png", "sea.png", "checker.png"])
        #expect(try await fixture.run(["download", "3", "--to", into]).status == 2)
    }

    @Test func lsRecursiveListsEveryFolderBelowDepthFirst() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("tree")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("deep".utf8).write(to: URL(fileURLWithPath: folder + "/deep.txt"))
        let upload = try await fixture.run(["upload", folder + "/deep.txt", "--to", "Documents/Forms"])
        #expect(upload.status == 0, "\(upload.stderr)")
        let flat = try await fixture.run(["ls", "Documents", "--output", "csv"])
        #expect(!flat.stdout.contains("deep.txt"), "without -R only the folder itself")
        let tree = try await fixture.run(["ls", "-R", "Documents", "--output", "csv"])
        #expect(tree.status == 0, "\(tree.stderr)")
        let lines = tree.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let documents = try #require(snapshotText(named: "documents-ls.csv"))
        let withOneInForms = documents.replacingOccurrences(of: "folder,Forms,0,", with: "folder,Forms,1,")
        #expect(Array(lines.dropLast()) == withOneInForms.split(separator: "\n").map(String.init))
        #expect(lines.last?.hasPrefix("file,deep.txt,4,") == true, "\(lines.last ?? "")")
        #expect(lines.last?.hasSuffix(",/Shared Documents/Forms/deep.txt") == true, "\(lines.last ?? "")")
        #expect(try await fixture.run(["ls", "--recursive", "Nope"]).status == 8)
    }

    @Test func mkdirMakesAFolderThatLsAndUploadSee() async throws {
        let fixture = try await CLIFixture()
        let made = try await fixture.run(["mkdir", "Documents/Reports", "--output", "json"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("\"serverRelativeUrl\": \"/Shared Documents/Reports\""), "\(made.stdout)")
        let again = try await fixture.run(["mkdir", "Shared Documents/Reports"])
        #expect(again.status == 9)
        #expect(
            again.stderr == "spconnect mkdir: A folder named 'Reports' already exists in Shared Documents; nothing was "
                + "changed.\n", "\(again.stderr)")
        let folder = try temporaryDirectory("mkdir")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("q1\n".utf8).write(to: URL(fileURLWithPath: folder + "/q1.txt"))
        let upload = try await fixture.run(["upload", folder + "/q1.txt", "--to", "Documents/Reports"])
        #expect(upload.status == 0, "\(upload.stderr)")
        let tree = try await fixture.run(["ls", "-R", "/Shared Documents", "--output", "csv"])
        let lines = tree.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.contains { $0.hasPrefix("folder,Reports,1,") && $0.hasSuffix(",/Shared Documents/Reports") })
        #expect(lines.last?.hasSuffix(",/Shared Documents/Reports/q1.txt") == true, "\(tree.stdout)")
        #expect(try await fixture.run(["mkdir", "Nope/Reports"]).status == 8)
        #expect(try await fixture.run(["mkdir", "Reports"]).status == 2)
    }

    @Test func uploadTakesALibraryTitle() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("to")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("new\n".utf8).write(to: URL(fileURLWithPath: folder + "/new.txt"))
        let result = try await fixture.run(["upload", folder + "/new.txt", "--to", "Documents", "--output", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"serverRelativeUrl\": \"/Shared Documents/new.txt\""), "\(result.stdout)")
    }

    @Test func whatNamesNothingIsNotFoundAndAnotherHostIsAUsageError() async throws {
        let fixture = try await CLIFixture()
        for word in ["Nope", "Lists/Nope", "/Lists/Nope", fixture.sim.siteURL + "/Lists/Nope/AllItems.aspx"] {
            let list = try await fixture.run(["list", word])
            #expect(list.status == 8, "\(word): \(list.stderr)")
            #expect(list.stderr.contains("The list was not found"), "\(word): \(list.stderr)")
        }
        let missing = try await fixture.run(["list", "Nope"])
        #expect(missing.stderr.contains("No list has the address /Nope either."), "\(missing.stderr)")
        let folder = try await fixture.run(["ls", "Nope/Reports"])
        #expect(folder.status == 8, "\(folder.stderr)")
        let elsewhere = try await fixture.run(["ls", "https://contoso.sharepoint.com/Shared%20Documents"])
        #expect(elsewhere.status == 2, "\(elsewhere.stderr)")
        #expect(elsewhere.stderr.contains("is on https://contoso.sharepoint.com:443, but the profile's site is on"))
    }
}
