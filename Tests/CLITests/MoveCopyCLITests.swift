import Foundation
import SPSim
import TestSupport
import Testing

/// `mv SOURCE DEST` and `cp SOURCE DEST` end to end against the simulator (docs/cli.md): into a folder keeping the
/// name, to a new name, across libraries; an existing target refused (exit 9) unless `--overwrite`; `--dry-run`
/// changing nothing; folders with everything in them; a missing source (exit 8, the closest name), a missing
/// folder, usage errors (a library's root folder, a folder into itself). Serialized: each
/// case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct MoveCopyCLITests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    /// The size of the file at `path`, or nil when `file PATH` does not find it.
    static func size(_ path: String, _ fixture: CLIFixture) async throws -> Int? {
        let shown = try await fixture.run(["file", path, "-o", "json"])
        guard shown.status == 0 else { return nil }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        return object["size"] as? Int
    }

    @Test func mvIntoAFolderKeepsTheNameAndAcrossLibrariesToo() async throws {
        let fixture = try await CLIFixture()
        #expect(try await fixture.run(["mkdir", "Documents/Archive"]).status == 0)
        let moved = try await fixture.run(["mv", "Documents/Welcome.txt", "Documents/Archive", "-o", "json"])
        #expect(moved.status == 0, "\(moved.stderr)")
        let row = try #require(try Self.objects(moved.stdout).first)
        #expect(row["source"] as? String == "/Shared Documents/Welcome.txt")
        #expect(row["destination"] as? String == "/Shared Documents/Archive/Welcome.txt")
        #expect(row["result"] as? String == "moved")
        #expect(try await Self.size("Documents/Archive/Welcome.txt", fixture) == 32)
        #expect(try await Self.size("Documents/Welcome.txt", fixture) == nil)

        let across = try await fixture.run(["mv", "Photos/sea.png", "Documents/"])
        #expect(across.status == 0, "\(across.stderr)")
        #expect(try await Self.size("Documents/sea.png", fixture) != nil)
        #expect(try await Self.size("Photos/sea.png", fixture) == nil)
        let listed = try await fixture.run(["ls", "Photos", "-o", "json"])
        #expect(!listed.stdout.contains("sea.png"), "\(listed.stdout)")
    }

    @Test func cpToANewNameAndAnExistingTargetNeedsOverwrite() async throws {
        let fixture = try await CLIFixture()
        let copied = try await fixture.run(["cp", "Documents/Budget 2026.csv", "Documents/Budget copy.csv"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("copied"), "\(copied.stdout)")
        #expect(try await Self.size("Documents/Budget copy.csv", fixture) == 46)
        #expect(try await Self.size("Documents/Budget 2026.csv", fixture) == 46)

        let again = try await fixture.run(["cp", "Documents/Welcome.txt", "Documents/Budget copy.csv"])
        #expect(again.status == 9, "\(again.stderr)")
        #expect(again.stderr.contains("--overwrite"), "\(again.stderr)")
        #expect(try await Self.size("Documents/Budget copy.csv", fixture) == 46)

        let replaced = try await fixture.run([
            "cp", "Documents/Welcome.txt", "Documents/Budget copy.csv", "--overwrite", "-o", "json",
        ])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Self.objects(replaced.stdout).first?["result"] as? String == "copied, replacing")
        #expect(try await Self.size("Documents/Budget copy.csv", fixture) == 32)

        let refused = try await fixture.run(["mv", "Documents/O'Brien notes.txt", "Documents/Welcome.txt"])
        #expect(refused.status == 9, "\(refused.stderr)")
        #expect(try await Self.size("Documents/O'Brien notes.txt", fixture) != nil)

        // Quotes, `#` and `%` in names travel escaped both ways.
        let odd = try await fixture.run(["mv", "Documents/O'Brien notes.txt", "Documents/O'Brien #1 at 50%.txt"])
        #expect(odd.status == 0, "\(odd.stderr)")
        #expect(try await Self.size("Documents/O'Brien #1 at 50%.txt", fixture) == 51)
        #expect(try await Self.size("Documents/O'Brien notes.txt", fixture) == nil)
    }

    @Test func theSimulatorRefusesAnExistingTargetAsSharePointDoes() async throws {
        let fixture = try await CLIFixture()
        let file = "/_api/web/GetFileByServerRelativePath(decodedurl='/Shared%20Documents/Welcome.txt')"
        let target = "'/Shared%20Documents/Budget%202026.csv'"
        let copy = try await fixture.run(["api", "POST", file + "/CopyTo(strnewurl=\(target),boverwrite=false)"])
        #expect(copy.status == 13, "\(copy.stderr)")
        #expect((copy.stdout + copy.stderr).contains("-2130575257"), "\(copy.stdout) \(copy.stderr)")
        let move = try await fixture.run(["api", "POST", file + "/MoveTo(newurl=\(target),flags=0)"])
        #expect(move.status == 13, "\(move.stderr)")
        #expect(try await Self.size("Documents/Budget 2026.csv", fixture) == 46)
        let replace = try await fixture.run(["api", "POST", file + "/MoveTo(newurl=\(target),flags=1)"])
        #expect(replace.status == 0, "\(replace.stderr)")
        #expect(try await Self.size("Documents/Budget 2026.csv", fixture) == 32)
        #expect(try await Self.size("Documents/Welcome.txt", fixture) == nil)
    }

    @Test func dryRunChangesNothing() async throws {
        let fixture = try await CLIFixture()
        let plan = try await fixture.run([
            "mv", "--dry-run", "--overwrite", "Documents/Welcome.txt", "Documents/Budget 2026.csv", "-o", "json",
        ])
        #expect(plan.status == 0, "\(plan.stderr)")
        let row = try #require(try Self.objects(plan.stdout).first)
        #expect(row["result"] as? String == "would move, replacing")
        #expect(try await Self.size("Documents/Welcome.txt", fixture) == 32)
        #expect(try await Self.size("Documents/Budget 2026.csv", fixture) == 46)
        let copyPlan = try await fixture.run(["cp", "-n", "Documents/Welcome.txt", "Documents/Hello.txt"])
        #expect(copyPlan.status == 0 && copyPlan.stdout.contains("would copy"), "\(copyPlan.stdout)")
        #expect(try await Self.size("Documents/Hello.txt", fixture) == nil)
    }

    @Test func missingSourceOrFolderIsExit8AndMisuseExit2() async throws {
        let fixture = try await CLIFixture()
        let typo = try await fixture.run(["mv", "Documents/Welcom.txt", "Documents/x.txt"])
        #expect(typo.status == 8, "\(typo.stderr)")
        #expect(typo.stderr.contains("Did you mean 'Documents/Welcome.txt'?"), "\(typo.stderr)")
        let nowhere = try await fixture.run(["cp", "Documents/Welcome.txt", "Documents/Nope/x.txt"])
        #expect(nowhere.status == 8, "\(nowhere.stderr)")
        #expect(nowhere.stderr.contains("No folder"), "\(nowhere.stderr)")
        #expect(try await fixture.run(["mv", "Documents/Welcome.txt"]).status == 2)
        #expect(try await fixture.run(["mv", "Documents/Welcome.txt", "Documents/Welcome.txt"]).status == 2)
        let library = try await fixture.run(["mv", "Documents", "Photos"])
        #expect(library.status == 2, "\(library.stderr)")
        #expect(library.stderr.contains("root folder of a library"), "\(library.stderr)")
        #expect(try await Self.size("Documents/Welcome.txt", fixture) == 32)
    }

    @Test func foldersMoveAndCopyWithEverythingInThem() async throws {
        let fixture = try await CLIFixture()
        for folder in ["Documents/2025", "Documents/2025/Q1", "Documents/Archive"] {
            #expect(try await fixture.run(["mkdir", folder]).status == 0)
        }
        let into = try await fixture.run(["cp", "Documents/Welcome.txt", "Documents/2025/Q1/", "-o", "json"])
        #expect(into.status == 0, "\(into.stderr)")
        #expect(
            try Self.objects(into.stdout).first?["destination"] as? String == "/Shared Documents/2025/Q1/Welcome.txt")

        let copied = try await fixture.run(["cp", "Documents/2025", "Documents/Copy 2025", "-o", "json"])
        #expect(copied.status == 0, "\(copied.stderr)")
        let row = try #require(try Self.objects(copied.stdout).first)
        #expect(row["type"] as? String == "folder" && row["result"] as? String == "copied", "\(row)")
        #expect(try await Self.size("Documents/Copy 2025/Q1/Welcome.txt", fixture) == 32)
        #expect(try await Self.size("Documents/2025/Q1/Welcome.txt", fixture) == 32)

        let moved = try await fixture.run(["mv", "Documents/2025", "Documents/Archive", "-o", "json"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try Self.objects(moved.stdout).first?["destination"] as? String == "/Shared Documents/Archive/2025")
        #expect(try await Self.size("Documents/Archive/2025/Q1/Welcome.txt", fixture) == 32)
        #expect(try await Self.size("Documents/2025/Q1/Welcome.txt", fixture) == nil)
        #expect(try await fixture.run(["ls", "Documents/2025"]).status == 8)
        let listed = try await fixture.run(["ls", "Documents/Archive/2025", "-o", "json"])
        #expect(listed.status == 0 && listed.stdout.contains("Q1"), "\(listed.stdout) \(listed.stderr)")

        let taken = try await fixture.run(["mv", "Documents/Copy 2025", "Documents/Archive/2025"])
        #expect(taken.status == 0, "into the folder: \(taken.stderr)")
        #expect(try await Self.size("Documents/Archive/2025/Copy 2025/Q1/Welcome.txt", fixture) == 32)
        let across = try await fixture.run(["mv", "Documents/Archive/2025/Copy 2025", "Photos"])
        #expect(across.status == 0, "\(across.stderr)")
        #expect(try await Self.size("Photos/Copy 2025/Q1/Welcome.txt", fixture) == 32)
        #expect(try await Self.size("Documents/Archive/2025/Copy 2025/Q1/Welcome.txt", fixture) == nil)
        #expect(try await fixture.run(["mkdir", "Documents/Q1"]).status == 0)
        let clash = try await fixture.run(["mv", "Documents/Q1", "Documents/Archive/2025", "--overwrite"])
        #expect(clash.status == 9, "\(clash.stderr)")
        #expect(clash.stderr.contains("A folder already exists"), "\(clash.stderr)")
        let itself = try await fixture.run(["mv", "Documents/Archive", "Documents/Archive/2025/Inner"])
        #expect(itself.status == 2, "\(itself.stderr)")
    }
}
