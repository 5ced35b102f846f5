import Foundation
import SPSim
import TestSupport
import Testing

/// `download -r` as a mirror that converges (docs/cli.md, "Folder trees" and "Recipe: a nightly job"): `--delete`
/// removes only what spconnect wrote and the server dropped, empty folders are made, a file is judged by its
/// content, `--dry-run` changes nothing, and a folder has one run at a time. Serialized: each case runs a simulator
/// and several spconnect processes.
@Suite(.serialized) struct MirrorCLITests {
    typealias Tree = TreeTransferCLITests

    /// Deletes the file or folder at the server-relative `url` (no spaces in it) through `api`.
    static func deleteOnServer(_ fixture: CLIFixture, _ url: String, folder: Bool = false) async throws {
        let kind = folder ? "GetFolderByServerRelativeUrl" : "GetFileByServerRelativeUrl"
        let result = try await fixture.run(["api", "DELETE", "/_api/web/\(kind)('\(url)')"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Uploads `text` as `name` into the library folder `folder`, replacing what is there.
    static func putOnServer(_ fixture: CLIFixture, _ text: String, as name: String, in folder: String) async throws {
        let scratch = try temporaryDirectory("put")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        #expect(FileManager.default.createFile(atPath: scratch + "/f", contents: Data(text.utf8)))
        let result = try await fixture.run(["upload", scratch + "/f", "--to", folder, "--as", name, "--overwrite"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Every entry below `directory`, dot files included: relative path → kind, size, whole-second time, bytes.
    static func snapshot(_ directory: String) -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            let path = directory + "/" + relative
            let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
            let time = Int((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
            let bytes = FileManager.default.contents(atPath: path).map { $0.base64EncodedString() } ?? "-"
            found[relative] = "\(attributes[.type] ?? "?") \(attributes[.size] ?? "?") \(time) \(bytes)"
        }
        return found
    }

    /// The result of the row whose path ends with `suffix`.
    static func result(_ rows: [[String: Any]], _ suffix: String) -> String? {
        rows.first { ($0["path"] as? String)?.hasSuffix(suffix) == true }?["result"] as? String
    }

    /// The ledger's entries: relative path → its fields.
    static func ledger(_ directory: String) throws -> [String: [String: Any]] {
        let data = try #require(FileManager.default.contents(atPath: directory + "/.spconnect-download.json"))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["files"] as? [String: [String: Any]])
    }

    @Test func deleteRemovesOnlyWhatSpconnectWroteAndTheServerDropped() async throws {
        let fixture = try await CLIFixture(exportFiles: 20)
        let into = try temporaryDirectory("mirror")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let first = try await fixture.run(["download", "-r", "Export", "--to", into, "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        // Gone from the server: a file at the top, one modified locally since, and a folder with two files.
        try await Self.deleteOnServer(fixture, "/Export/file-00017.bin")
        try await Self.deleteOnServer(fixture, "/Export/file-00000.bin")
        try await Self.deleteOnServer(fixture, "/Export/folder-3", folder: true)
        let edited = Data(repeating: 7, count: 10)
        #expect(FileManager.default.createFile(atPath: into + "/file-00000.bin", contents: edited))
        // The user's own files, one of them in a folder the server dropped.
        let mine = Data("mine\n".utf8)
        #expect(FileManager.default.createFile(atPath: into + "/mine.txt", contents: mine))
        #expect(FileManager.default.createFile(atPath: into + "/folder-3/part-0/notes.txt", contents: mine))

        let run = try await fixture.run(["download", "-r", "Export", "--to", into, "--delete", "-o", "ndjson"])
        #expect(run.status == 9, "the modified file is refused: \(run.stderr)")
        let rows = try Tree.lines(run.stdout)
        #expect(Self.result(rows, "/file-00017.bin") == "deleted", "\(run.stdout)")
        #expect(Self.result(rows, "/folder-3/part-0/file-00003.bin") == "deleted", "\(run.stdout)")
        #expect(Self.result(rows, "/folder-3/part-1/file-00013.bin") == "deleted", "\(run.stdout)")
        #expect(Self.result(rows, "/folder-3/part-1") == "deleted", "the then-empty folder: \(run.stdout)")
        #expect(Self.result(rows, "/file-00000.bin") == "refused (modified locally)", "\(run.stdout)")
        #expect(run.stderr.contains("modified locally") && run.stderr.contains("--overwrite"), "\(run.stderr)")
        #expect(rows.filter { $0["result"] as? String == "unchanged" }.count == 16, "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: into + "/file-00017.bin"))
        #expect(!FileManager.default.fileExists(atPath: into + "/folder-3/part-1"))
        // Never a file spconnect did not write, nor the folders that still hold one.
        #expect(FileManager.default.contents(atPath: into + "/mine.txt") == mine)
        #expect(FileManager.default.contents(atPath: into + "/folder-3/part-0/notes.txt") == mine)
        #expect(FileManager.default.contents(atPath: into + "/file-00000.bin") == edited)
        #expect(run.stderr.contains("4 deleted"), "\(run.stderr)")
        let ledger = try Self.ledger(into)
        #expect(ledger["file-00017.bin"] == nil && ledger["folder-3/part-1/file-00013.bin"] == nil)
        #expect(ledger.count == 17, "\(ledger.keys.sorted())")

        // --overwrite lets the modified one go too; then the mirror has converged.
        let forced = try await fixture.run([
            "download", "-r", "Export", "--to", into, "--delete", "--overwrite", "-o", "ndjson",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(Self.result(try Tree.lines(forced.stdout), "/file-00000.bin") == "deleted", "\(forced.stdout)")
        var expected = try await Tree.remoteTree(fixture)
        expected["mine.txt"] = mine.count
        expected["folder-3/part-0/notes.txt"] = mine.count
        #expect(Tree.localTree(into) == expected)
    }

    @Test func emptyServerFoldersAreMadeLocally() async throws {
        let fixture = try await CLIFixture(exportFiles: 3)
        for folder in ["Export/Empty", "Export/Empty/Deeper"] {
            #expect(try await fixture.run(["mkdir", folder]).status == 0)
        }
        let into = try temporaryDirectory("mirror")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let run = try await fixture.run(["download", "-r", "Export", "--to", into, "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: into + "/Empty/Deeper", isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
    }

    /// A server file named as the ledger or the lock file at the top is refused, never written over them.
    @Test func aServerFileWithTheLedgersNameIsRefused() async throws {
        let fixture = try await CLIFixture(exportFiles: 2)
        try await Self.putOnServer(fixture, "{}", as: ".spconnect-download.json", in: "Export")
        let into = try temporaryDirectory("mirror")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let run = try await fixture.run(["download", "-r", "Export", "--to", into, "-o", "ndjson"])
        #expect(run.status == 9, "\(run.stderr)")
        let rows = try Tree.lines(run.stdout)
        #expect(Self.result(rows, "/.spconnect-download.json") == "refused (reserved name)", "\(run.stdout)")
        #expect(try Self.ledger(into).count == 2)
    }

    /// A file whose content is what spconnect wrote is replaced when the server changed, even with another time; a
    /// file whose content changed is refused, even with the size and time spconnect left it (`--overwrite`
    /// replaces it). A ledger written before the hash (size and time only) still counts.
    @Test func aTouchedFileIsReplacedAndAModifiedOneIsRefused() async throws {
        let fixture = try await CLIFixture(exportFiles: 3)
        let into = try temporaryDirectory("mirror")
        defer { try? FileManager.default.removeItem(atPath: into) }
        #expect(try await fixture.run(["download", "-r", "Export", "--to", into, "-q"]).status == 0)
        let touched = into + "/folder-1/part-0/file-00001.bin"
        let modified = into + "/folder-2/part-0/file-00002.bin"
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: touched)
        let original = try FileManager.default.attributesOfItem(atPath: modified)
        var bytes = try #require(FileManager.default.contents(atPath: modified))
        bytes[0] ^= 0xFF
        #expect(FileManager.default.createFile(atPath: modified, contents: bytes))
        try FileManager.default.setAttributes(
            [.modificationDate: original[.modificationDate] as Any], ofItemAtPath: modified)
        try await Self.putOnServer(fixture, "new one\n", as: "file-00001.bin", in: "Export/folder-1/part-0")
        try await Self.putOnServer(fixture, "new two\n", as: "file-00002.bin", in: "Export/folder-2/part-0")

        let run = try await fixture.run(["download", "-r", "Export", "--to", into, "-o", "ndjson"])
        #expect(run.status == 9, "\(run.stderr)")
        let rows = try Tree.lines(run.stdout)
        #expect(Self.result(rows, "/file-00001.bin") == "downloaded", "\(run.stdout)")
        #expect(Self.result(rows, "/file-00002.bin") == "refused (modified locally)", "\(run.stdout)")
        #expect(run.stderr.contains("\(modified): was modified locally"), "\(run.stderr)")
        #expect(run.stderr.contains("--overwrite"), "\(run.stderr)")
        #expect(FileManager.default.contents(atPath: touched) == Data("new one\n".utf8))
        #expect(FileManager.default.contents(atPath: modified) == bytes)
        let forced = try await fixture.run(["download", "-r", "Export", "--to", into, "--overwrite", "-q"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(FileManager.default.contents(atPath: modified) == Data("new two\n".utf8))
        #expect(try Self.ledger(into).values.allSatisfy { ($0["sha256"] as? String)?.count == 64 })

        // A ledger without hashes (an earlier spconnect's): size and time decide, as they did.
        let path = into + "/.spconnect-download.json"
        let old = try #require(FileManager.default.contents(atPath: path))
        let stripped = String(decoding: old, as: UTF8.self).replacing(/,"sha256":"[0-9a-f]{64}"/, with: "")
        #expect(!stripped.contains("sha256"), "\(stripped)")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(stripped.utf8)))
        try await Self.putOnServer(fixture, "newer one\n", as: "file-00001.bin", in: "Export/folder-1/part-0")
        let again = try await fixture.run(["download", "-r", "Export", "--to", into, "-o", "ndjson"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: touched) == Data("newer one\n".utf8))
    }

    @Test func dryRunPrintsThePlanAndChangesNothing() async throws {
        let fixture = try await CLIFixture(exportFiles: 20)
        let scratch = try temporaryDirectory("mirror")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let into = scratch + "/copy"
        #expect(try await fixture.run(["download", "-r", "Export", "--to", into, "-q"]).status == 0)
        try await Self.putOnServer(fixture, "changed\n", as: "file-00000.bin", in: "Export")
        try await Self.putOnServer(fixture, "new\n", as: "new.txt", in: "Export")
        try await Self.putOnServer(fixture, "theirs\n", as: "v.txt", in: "Export")
        try await Self.deleteOnServer(fixture, "/Export/file-00017.bin")
        #expect(FileManager.default.createFile(atPath: into + "/v.txt", contents: Data("mine\n".utf8)))
        let before = Self.snapshot(into)
        let bodies = Tree.bodiesSent(fixture)

        let plan = try await fixture.run([
            "download", "-r", "Export", "--to", into, "--delete", "--dry-run", "-o", "ndjson",
        ])
        #expect(plan.status == 9, "a refusal in the plan is the exit code a real run would have: \(plan.stderr)")
        let rows = try Tree.lines(plan.stdout)
        #expect(Self.result(rows, "/file-00000.bin") == "would replace", "\(plan.stdout)")
        #expect(Self.result(rows, "/new.txt") == "would download", "\(plan.stdout)")
        #expect(Self.result(rows, "/file-00017.bin") == "would delete", "\(plan.stdout)")
        #expect(Self.result(rows, "/v.txt") == "refused (exists)", "\(plan.stdout)")
        #expect(rows.filter { $0["result"] as? String == "unchanged" }.count == 18, "\(plan.stdout)")
        #expect(plan.stderr.contains("nothing was changed"), "\(plan.stderr)")
        #expect(Self.snapshot(into) == before, "the dry run changed the folder")
        #expect(Tree.bodiesSent(fixture) == bodies, "the dry run fetched file bodies")

        // Into a folder that is not there: everything would be downloaded, and the folder is not made.
        let none = try await fixture.run(["download", "-r", "Export", "--to", scratch + "/none", "--dry-run"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/none"))
        #expect(none.stderr.contains("21 would download"), "\(none.stderr)")
    }

    @Test func uploadDryRunSendsNothingAndTheLockFileStaysLocal() async throws {
        let fixture = try await CLIFixture()
        let local = try temporaryDirectory("mirror")
        defer { try? FileManager.default.removeItem(atPath: local) }
        for (path, text) in ["a.txt": "a\n", "sub/b.txt": "b\n", ".spconnect-download.lock": "4242\n"] {
            try FileManager.default.createDirectory(
                atPath: ((local + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: local + "/" + path, contents: Data(text.utf8)))
        }
        let posts = { fixture.sim.requestLog().filter { $0.method == "POST" }.count }
        let before = posts()
        let plan = try await fixture.run([
            "upload", "-r", local, "--to", "Documents/Planned", "--dry-run", "-o", "ndjson",
        ])
        #expect(plan.status == 0, "\(plan.stderr)")
        let rows = try Tree.lines(plan.stdout)
        #expect(rows.count == 2, "\(plan.stdout)")
        #expect(rows.allSatisfy { $0["result"] as? String == "would upload" }, "\(plan.stdout)")
        #expect(posts() == before, "the dry run wrote to the server")
        #expect(try await fixture.run(["ls", "Documents/Planned"]).status == 8)

        let real = try await fixture.run(["upload", "-r", local, "--to", "Documents/Planned", "-q"])
        #expect(real.status == 0, "\(real.stderr)")
        #expect(try await Tree.remoteTree(fixture, "Shared Documents/Planned") == ["a.txt": 2, "sub/b.txt": 2])
        #expect(FileManager.default.createFile(atPath: local + "/a.txt", contents: Data("a, changed\n".utf8)))
        let afterReal = posts()
        let replan = try await fixture.run([
            "upload", "-r", local, "--to", "Documents/Planned", "--dry-run", "--overwrite", "-o", "ndjson",
        ])
        #expect(replan.status == 0, "\(replan.stderr)")
        let again = try Tree.lines(replan.stdout)
        #expect(Self.result(again, "/a.txt") == "would replace", "\(replan.stdout)")
        #expect(Self.result(again, "/sub/b.txt") == "unchanged", "\(replan.stdout)")
        #expect(posts() == afterReal, "the dry run wrote to the server")
    }

    /// A second run into a folder in use exits 15 naming the first one's PID (so does `upload -r` from it); one with
    /// `--wait` waits, and takes over as soon as the first is killed (flock: no stale lock), leaving a complete
    /// mirror and a ledger that lists only whole files.
    @Test func aSecondRunIntoTheSameFolderWaitsOrExitsWithItsOwnCode() async throws {
        let fixture = try await CLIFixture(exportFiles: 80, latencyMilliseconds: 40)
        let scratch = try temporaryDirectory("mirror")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let into = scratch + "/copy"
        var environment = fixture.environment
        environment["PATH"] = "/usr/bin:/bin"
        let script = """
            "$0" download -r Export --to "$1" --parallel 1 -o ndjson >"$2/a.out" 2>"$2/a.err" &
            a=$!
            echo $a >"$2/a.pid"
            tries=0
            while [ "$(find "$1" -name 'file-*.bin' 2>/dev/null | wc -l)" -lt 3 ] && [ $tries -lt 600 ]; do
                sleep 0.05; tries=$((tries + 1))
            done
            "$0" download -r Export --to "$1" -o ndjson >"$2/b.out" 2>"$2/b.err"
            echo $? >"$2/b.rc"
            "$0" upload -r "$1" --to Documents/Back -o ndjson >"$2/u.out" 2>"$2/u.err"
            echo $? >"$2/u.rc"
            "$0" download -r Export --to "$1" --wait 120 --parallel 4 -o ndjson >"$2/w.out" 2>"$2/w.err" &
            w=$!
            sleep 0.5
            kill -9 $a
            wait $a
            wait $w
            echo $? >"$2/w.rc"
            exit 0
            """
        let status = await spawnToExit(
            "/bin/sh", ["-c", script, spconnectPath, into, scratch], environment: environment,
            timeout: .seconds(300))
        #expect(status == 0)
        let read = { (name: String) in
            String(decoding: FileManager.default.contents(atPath: scratch + "/" + name) ?? Data(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let pid = read("a.pid")
        #expect(read("b.rc") == "15", "b: \(read("b.err"))")
        #expect(read("b.err").contains("PID \(pid)"), "b: \(read("b.err"))")
        #expect(read("b.err").contains("--wait"), "b: \(read("b.err"))")
        #expect(read("u.rc") == "15", "u: \(read("u.err"))")
        #expect(read("u.err").contains("PID \(pid)"), "u: \(read("u.err"))")
        #expect(read("w.rc") == "0", "w: \(read("w.err"))")
        #expect(read("w.err").contains("waiting"), "w: \(read("w.err"))")

        let remote = try await Tree.remoteTree(fixture)
        #expect(Tree.localTree(into) == remote)
        let ledger = try Self.ledger(into)
        #expect(ledger.count == 80)
        for (path, entry) in ledger {
            let size = (try? FileManager.default.attributesOfItem(atPath: into + "/" + path))?[.size] as? Int
            #expect(size != nil && entry["size"] as? Int == size, "\(path) is in the ledger but not whole")
        }
        let lock = try FileManager.default.attributesOfItem(atPath: into + "/.spconnect-download.lock")
        #expect((lock[.posixPermissions] as? Int) == 0o600)
        let leftovers = FileManager.default.enumerator(atPath: into)?.allObjects.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".part") }
        #expect(leftovers == [], "temporary files left: \(leftovers ?? [])")
    }
}
