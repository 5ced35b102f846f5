import Foundation
import SPSim
import TestSupport
import Testing

/// `mv SOURCE DEST` and `cp SOURCE DEST` end to end against the simulator (docs/cli.md): into a folder keeping the
/// name, to a new name, across libraries; an existing target refused (exit 9) unless `--overwrite`; `--dry-run`
/// changing nothing; a missing source (exit 8, the closest name), a missing folder, usage errors. Serialized: each
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
        #expect(try await fixture.run(["mkdir", "Documents/Old"]).status == 0)
        let folder = try await fixture.run(["cp", "Documents/Old", "Documents/New"])
        #expect(folder.status == 2, "\(folder.stderr)")
        #expect(try await Self.size("Documents/Welcome.txt", fixture) == 32)
    }
}
