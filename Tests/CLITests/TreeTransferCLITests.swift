import Foundation
import SPSim
import TestSupport
import Testing

/// `download -r` and `upload -r` (docs/cli.md, "Folder trees"): the tree kept, one result per file, files that
/// match skipped, a killed run resumed, nothing of the user's replaced without `--overwrite`.
/// Serialized: each case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct TreeTransferCLITests {
    /// Every NDJSON line of `text` as an object.
    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// Relative path → size of every regular file below `directory` (dot files left out).
    static func localTree(_ directory: String) -> [String: Int] {
        var found: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            let path = directory + "/" + relative
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                !(relative as NSString).lastPathComponent.hasPrefix(".")
            else { continue }
            found[relative] = (attributes[.size] as? NSNumber)?.intValue
        }
        return found
    }

    /// Relative path (below `/Export`) → size of every file of the library, as `ls -R` lists them.
    static func remoteTree(_ fixture: CLIFixture, _ folder: String = "Export") async throws -> [String: Int] {
        let listing = try await fixture.run(["ls", "-R", folder, "-o", "ndjson"])
        #expect(listing.status == 0, "\(listing.stderr)")
        var tree: [String: Int] = [:]
        for entry in try lines(listing.stdout) where entry["type"] as? String == "file" {
            let url = try #require(entry["serverRelativeUrl"] as? String)
            tree[String(url.dropFirst("/\(folder)/".count))] = entry["size"] as? Int
        }
        return tree
    }

    /// How many file bodies (`…/$value`) the simulator has sent.
    static func bodiesSent(_ fixture: CLIFixture) -> Int {
        fixture.sim.requestLog().filter { $0.path.hasSuffix("/$value") }.count
    }

    @Test func downloadMirrorsTheTreeAndSkipsWhatAlreadyMatches() async throws {
        let fixture = try await CLIFixture(exportFiles: 60)
        let into = try temporaryDirectory("tree") + "/made/by/download"
        defer { try? FileManager.default.removeItem(atPath: into) }
        let first = try await fixture.run(["download", "-r", "Export", "--to", into, "--parallel", "3", "-o", "ndjson"])
        #expect(first.status == 0, "\(first.stderr)")
        let results = try Self.lines(first.stdout)
        #expect(results.count == 60)
        #expect(results.allSatisfy { $0["result"] as? String == "downloaded" }, "\(first.stdout)")
        let remote = try await Self.remoteTree(fixture)
        #expect(remote.count == 60)
        #expect(Self.localTree(into) == remote)
        #expect(first.stderr.contains("Files: 60 downloaded."), "\(first.stderr)")

        let sentBefore = Self.bodiesSent(fixture)
        let again = try await fixture.run(["download", "-r", "Export", "--to", into, "-o", "ndjson"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.lines(again.stdout).allSatisfy { $0["result"] as? String == "unchanged" })
        #expect(Self.bodiesSent(fixture) == sentBefore, "a rerun over a complete copy fetched file bodies")
    }

    @Test func aKilledDownloadIsResumedFetchingOnlyWhatIsMissing() async throws {
        let fixture = try await CLIFixture(exportFiles: 80, latencyMilliseconds: 40)
        let scratch = try temporaryDirectory("tree")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let into = scratch + "/copy"
        // Started by a shell that kills it (SIGKILL, by PID) once 20 files are in place: a kill mid-transfer.
        var environment = fixture.environment
        environment["PATH"] = "/usr/bin:/bin"
        let script = """
            "$0" download -r Export --to "$1" --parallel 2 -o ndjson >"$2" 2>&1 &
            pid=$!
            tries=0
            while [ "$(find "$1" -name 'file-*.bin' 2>/dev/null | wc -l)" -lt 20 ] && [ $tries -lt 600 ]; do
                sleep 0.05; tries=$((tries + 1))
            done
            kill -9 $pid
            wait $pid
            exit 0
            """
        let killed = await spawnToExit(
            "/bin/sh", ["-c", script, spconnectPath, into, scratch + "/first.out"], environment: environment,
            timeout: .seconds(120))
        #expect(killed == 0)
        let remote = try await Self.remoteTree(fixture)
        let partial = Self.localTree(into)
        #expect(partial.count >= 20 && partial.count < 80, "the kill came too late to test a resume: \(partial.count)")
        for (path, size) in partial { #expect(remote[path] == size, "\(path) is in place but not whole") }

        let sentBefore = Self.bodiesSent(fixture)
        let rerun = try await fixture.run(["download", "-r", "Export", "--to", into, "--parallel", "4", "-o", "ndjson"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let results = try Self.lines(rerun.stdout)
        let fetched = results.filter { $0["result"] as? String == "downloaded" }.count
        #expect(fetched == 80 - partial.count)
        #expect(results.filter { $0["result"] as? String == "unchanged" }.count == partial.count)
        #expect(Self.bodiesSent(fixture) - sentBefore == fetched, "the rerun fetched a file it already had")
        #expect(Self.localTree(into) == remote)
        #expect(remote.count == 80)
        // Nothing half-written is left behind, not even the killed run's temporary files.
        let leftovers = FileManager.default.enumerator(atPath: into)?.allObjects.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".part") }
        #expect(leftovers == [], "temporary files left: \(leftovers ?? [])")
    }

    @Test func downloadNeverReplacesAFileItDidNotWrite() async throws {
        let fixture = try await CLIFixture()
        let into = try temporaryDirectory("tree")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let mine = Data("my own notes, not SharePoint's\n".utf8)
        #expect(FileManager.default.createFile(atPath: into + "/Welcome.txt", contents: mine))
        let refused = try await fixture.run(["download", "-r", "Documents", "--to", into, "-o", "ndjson"])
        #expect(refused.status == 9, "\(refused.stderr)")
        let results = try Self.lines(refused.stdout)
        let welcome = results.first { ($0["path"] as? String)?.hasSuffix("/Welcome.txt") == true }
        #expect(welcome?["result"] as? String == "refused (exists)")
        #expect(results.filter { $0["result"] as? String == "downloaded" }.count == 4, "\(refused.stdout)")
        #expect(refused.stderr.contains("--overwrite"), "\(refused.stderr)")
        #expect(FileManager.default.contents(atPath: into + "/Welcome.txt") == mine)
        // The library's own view pages folder is not content.
        #expect(!FileManager.default.fileExists(atPath: into + "/Forms"))

        let replaced = try await fixture.run(["download", "-r", "Documents", "--to", into, "--overwrite", "-q"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(FileManager.default.contents(atPath: into + "/Welcome.txt") != mine)
        // A file that download wrote, then SharePoint changed, is replaced without --overwrite (its ledger entry).
        let updated = try await fixture.run(["upload", into + "/Welcome.txt", "--to", "Documents", "--overwrite"])
        #expect(updated.status == 0, "\(updated.stderr)")
        let newer = try await fixture.run(["download", "-r", "Documents", "--to", into, "-o", "ndjson"])
        #expect(newer.status == 0, "\(newer.stderr)")
    }

    /// A symbolic link inside `--to DIR`, at any depth, is never followed, not even with `--overwrite`: each file
    /// below a linked folder is `refused (link)`, nothing outside DIR is written or replaced, the other files
    /// arrive.
    @Test func downloadNeverWritesThroughALinkInsideTheFolder() async throws {
        let fixture = try await CLIFixture(exportFiles: 40)
        let scratch = try temporaryDirectory("tree")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let into = scratch + "/copy"
        let outside = scratch + "/outside"
        let deeper = scratch + "/deeper"
        for folder in [into + "/folder-2", outside + "/part-0", deeper] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let mine = Data("not SharePoint's\n".utf8)
        #expect(FileManager.default.createFile(atPath: outside + "/part-0/file-00001.bin", contents: mine))
        try FileManager.default.createSymbolicLink(atPath: into + "/folder-1", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: into + "/folder-2/part-0", withDestinationPath: deeper)

        let result = try await fixture.run(["download", "-r", "Export", "--to", into, "--overwrite", "-o", "ndjson"])
        #expect(result.status == 9, "\(result.stderr)")
        let results = try Self.lines(result.stdout)
        #expect(results.count == 40, "\(result.stdout)")
        let linked = results.filter {
            let path = $0["path"] as? String ?? ""
            return path.contains("/folder-1/") || path.contains("/folder-2/part-0/")
        }
        // Files 1, 11, 21, 31 below folder-1; file 2 below folder-2/part-0.
        #expect(linked.count == 5, "\(result.stdout)")
        #expect(linked.allSatisfy { $0["result"] as? String == "refused (link)" }, "\(result.stdout)")
        #expect(results.filter { $0["result"] as? String == "downloaded" }.count == 35, "\(result.stdout)")
        #expect(result.stderr.contains("\(into)/folder-1 is a symbolic link"), "\(result.stderr)")
        #expect(result.stderr.contains("\(into)/folder-2/part-0 is a symbolic link"), "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: outside + "/part-0/file-00001.bin") == mine)
        let outsideNow = FileManager.default.enumerator(atPath: outside)?.allObjects.compactMap { $0 as? String }
        #expect(outsideNow?.sorted() == ["part-0", "part-0/file-00001.bin"], "written outside: \(outsideNow ?? [])")
        #expect(try FileManager.default.contentsOfDirectory(atPath: deeper) == [], "written outside the folder")
    }

    /// A local error is named as one, with the file and the system's reason: a name too long for the local file
    /// system is `failed (local file)` ("File name too long", exit 1), not a network failure. A long name that
    /// still fits (its temporary file's name would not) is downloaded.
    @Test func aNameTooLongLocallyIsALocalFailureNamingTheFile() async throws {
        let fixture = try await CLIFixture()
        let scratch = try temporaryDirectory("tree")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let source = scratch + "/source.txt"
        #expect(FileManager.default.createFile(atPath: source, contents: Data("long\n".utf8)))
        let tooLong = String(repeating: "n", count: 300) + ".txt"
        let fits = String(repeating: "f", count: 240) + ".txt"
        #expect(try await fixture.run(["mkdir", "Documents/Long"]).status == 0)
        for name in [tooLong, fits] {
            let upload = try await fixture.run(["upload", source, "--to", "Documents/Long", "--as", name])
            #expect(upload.status == 0, "\(upload.stderr)")
        }
        let into = scratch + "/copy"
        let result = try await fixture.run(["download", "-r", "Documents/Long", "--to", into, "-o", "ndjson"])
        #expect(result.status == 1, "\(result.stderr)")
        let results = try Self.lines(result.stdout)
        let failed = results.first { ($0["serverRelativeUrl"] as? String)?.hasSuffix("/" + tooLong) == true }
        #expect(failed?["result"] as? String == "failed (local file)", "\(result.stdout)")
        #expect(result.stderr.contains(tooLong) && result.stderr.contains("File name too long"), "\(result.stderr)")
        #expect(!result.stderr.contains("network"), "\(result.stderr)")
        let arrived = results.first { ($0["serverRelativeUrl"] as? String)?.hasSuffix("/" + fits) == true }
        #expect(arrived?["result"] as? String == "downloaded", "\(result.stdout)")
        #expect(FileManager.default.contents(atPath: into + "/" + fits) == Data("long\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: into).filter { $0.hasSuffix(".part") } == [])
    }

    @Test func uploadCopiesATreeMakingFoldersAndResumes() async throws {
        let fixture = try await CLIFixture()
        let local = try temporaryDirectory("tree")
        defer { try? FileManager.default.removeItem(atPath: local) }
        let files = [
            "top.txt": Data("top\n".utf8), "a/one.txt": Data("one\n".utf8), "a/b/two.csv": Data("x,y\n1,2\n".utf8),
            "a/b/c/big.bin": Data((0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
        ]
        for (path, bytes) in files {
            try FileManager.default.createDirectory(
                atPath: ((local + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: local + "/" + path, contents: bytes))
        }
        try FileManager.default.createSymbolicLink(atPath: local + "/link", withDestinationPath: "/etc/passwd")

        let first = try await fixture.run([
            "upload", "-r", local, "--to", "Documents/Imports", "--parallel", "2", "-o", "ndjson",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let results = try Self.lines(first.stdout)
        #expect(results.filter { $0["result"] as? String == "uploaded" }.count == 4, "\(first.stdout)")
        #expect(results.contains { $0["result"] as? String == "skipped (link)" })
        #expect(first.stderr.contains("symbolic link"), "\(first.stderr)")
        let remote = try await Self.remoteTree(fixture, "Shared Documents/Imports")
        #expect(remote == files.mapValues(\.count))
        // The chunked path was taken for the 12 MiB file (StartUpload … FinishUpload).
        #expect(fixture.sim.requestLog().contains { $0.path.lowercased().contains("/startupload") })

        // A rerun sends nothing that is already there. A file changed here goes up again (SharePoint's copy is still
        // the one the last upload made); one changed in SharePoint since is refused without --overwrite.
        let sentBefore = fixture.sim.requestLog().filter { $0.method == "POST" && $0.path.contains("/Files/add") }.count
        let again = try await fixture.run(["upload", "-r", local, "--to", "Documents/Imports", "-o", "ndjson"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.lines(again.stdout).filter { $0["result"] as? String == "unchanged" }.count == 4)
        let sentAfter = fixture.sim.requestLog().filter { $0.method == "POST" && $0.path.contains("/Files/add") }.count
        #expect(sentAfter == sentBefore)
        #expect(FileManager.default.createFile(atPath: local + "/top.txt", contents: Data("top, edited\n".utf8)))
        let edited = try await fixture.run(["upload", "-r", local, "--to", "Documents/Imports", "-o", "ndjson"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try Self.lines(edited.stdout).contains { $0["result"] as? String == "uploaded" })
        let theirs = try temporaryDirectory("theirs")
        defer { try? FileManager.default.removeItem(atPath: theirs) }
        #expect(FileManager.default.createFile(atPath: theirs + "/top.txt", contents: Data("their version\n".utf8)))
        let elsewhere = try await fixture.run([
            "upload", theirs + "/top.txt", "--to", "Documents/Imports", "--overwrite", "-q",
        ])
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        #expect(FileManager.default.createFile(atPath: local + "/top.txt", contents: Data("top, changed\n".utf8)))
        let changed = try await fixture.run(["upload", "-r", local, "--to", "Documents/Imports", "-o", "ndjson"])
        #expect(changed.status == 9, "\(changed.stderr)")
        #expect(try Self.lines(changed.stdout).contains { $0["result"] as? String == "refused (exists)" })
        let forced = try await fixture.run([
            "upload", "-r", local, "--to", "Documents/Imports", "--overwrite", "-o", "ndjson",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try await Self.remoteTree(fixture, "Shared Documents/Imports")["top.txt"] == 13)

        // And back: a round trip gives the same bytes.
        let back = try temporaryDirectory("tree")
        defer { try? FileManager.default.removeItem(atPath: back) }
        let download = try await fixture.run(["download", "-r", "Documents/Imports", "--to", back, "-q"])
        #expect(download.status == 0, "\(download.stderr)")
        #expect(FileManager.default.contents(atPath: back + "/a/b/c/big.bin") == files["a/b/c/big.bin"])
    }

    @Test func aMultiFileDownloadListsWhatArrivedWhenOneFails() async throws {
        let fixture = try await CLIFixture()
        let into = try temporaryDirectory("tree") + "/new"
        defer { try? FileManager.default.removeItem(atPath: into) }
        let result = try await fixture.run([
            "download", "/Shared Documents/Welcome.txt", "/Shared Documents/missing.txt", "/Photos/sea.png", "--to",
            into, "-o", "csv",
        ])
        #expect(result.status == 8, "\(result.stderr)")
        let rows = result.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 4, "a header and one row per file: \(result.stdout)")
        #expect(rows[1].hasPrefix("Welcome.txt,32,") && rows[1].hasSuffix(",downloaded"), "\(result.stdout)")
        #expect(rows[2] == "missing.txt,,,/Shared Documents/missing.txt,failed (not found)", "\(result.stdout)")
        #expect(rows[3].hasPrefix("sea.png,") && rows[3].hasSuffix(",downloaded"), "\(result.stdout)")
        #expect(result.stderr.contains("/Shared Documents/missing.txt"), "\(result.stderr)")
        #expect(result.stderr.contains("2 of 3 files downloaded, 1 failed"), "\(result.stderr)")
    }
}
