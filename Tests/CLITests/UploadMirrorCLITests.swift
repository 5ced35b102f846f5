import Foundation
import JSON
import SPSim
import TestSupport
import Testing

/// `upload -r --delete` (docs/cli.md): the library folder converges on the local one. What spconnect uploaded and
/// the local folder no longer has goes to the recycle bin (files, then the folders left with nothing), never a file
/// someone else put there, never one changed in SharePoint since without `--overwrite`; `--dry-run` plans it all
/// and changes nothing. Serialized: each case runs a simulator and several spconnect processes.
@Suite(.serialized) struct UploadMirrorCLITests {
    func objects(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    /// The result of each server-relative URL in an NDJSON report.
    func results(_ text: String) throws -> [String: String] {
        var found: [String: String] = [:]
        for line in try objects(text) {
            found[line["serverRelativeUrl"]?.stringValue ?? ""] = line["result"]?.stringValue
        }
        return found
    }

    /// The names below the library folder `folder`, recursively, as `ls -R` prints them.
    func serverTree(_ fixture: CLIFixture, _ folder: String) async throws -> Set<String> {
        let listed = try await fixture.run(["ls", folder, "-R", "-o", "ndjson"])
        #expect(listed.status == 0, "\(listed.stderr)")
        return Set(try objects(listed.stdout).compactMap { $0["serverRelativeUrl"]?.stringValue })
    }

    func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func deleteRecyclesOnlyWhatSpconnectUploadedAndNobodyChanged() async throws {
        let fixture = try await CLIFixture()
        let local = try temporaryDirectory("upload-mirror")
        defer { try? FileManager.default.removeItem(atPath: local) }
        let top = "/Shared Documents/Mirror"
        try write("a\n", local + "/a.txt")
        try write("b\n", local + "/sub/b.txt")
        try write("c\n", local + "/gone/c.txt")
        try write("d\n", local + "/gone/deeper/d.txt")
        let first = try await fixture.run(["upload", "-r", local, "--to", "Shared Documents/Mirror", "-o", "ndjson"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: local + "/.spconnect-upload.json"))
        // Someone else's file in the mirrored folder, and a file spconnect uploaded that someone changed since.
        try await MirrorCLITests.putOnServer(fixture, "theirs\n", as: "theirs.txt", in: "Shared Documents/Mirror")
        try await MirrorCLITests.putOnServer(fixture, "edited in SharePoint\n", as: "b.txt", in: top + "/sub")

        // Locally a.txt, sub/b.txt and the folder gone/ are deleted.
        try FileManager.default.removeItem(atPath: local + "/a.txt")
        try FileManager.default.removeItem(atPath: local + "/sub/b.txt")
        try FileManager.default.removeItem(atPath: local + "/gone")
        let before = try await serverTree(fixture, "Shared Documents/Mirror")

        let plan = try await fixture.run([
            "upload", "-r", local, "--to", "Shared Documents/Mirror", "--delete", "--dry-run", "-o", "ndjson",
        ])
        #expect(plan.status == 9, "a file changed in SharePoint is refused, as in the real run: \(plan.stderr)")
        let planned = try results(plan.stdout)
        #expect(planned[top + "/a.txt"] == "would delete", "\(plan.stdout)")
        #expect(planned[top + "/gone/c.txt"] == "would delete", "\(plan.stdout)")
        #expect(planned[top + "/gone"] == "would delete", "\(plan.stdout)")
        #expect(planned[top + "/gone/deeper"] == nil, "the top-most folder only: \(plan.stdout)")
        #expect(planned[top + "/theirs.txt"] == "kept (not uploaded by spconnect)", "\(plan.stdout)")
        #expect(planned[top + "/sub/b.txt"] == "refused (changed in SharePoint)", "\(plan.stdout)")
        #expect(try await serverTree(fixture, "Shared Documents/Mirror") == before, "a dry run changes nothing")

        let run = try await fixture.run([
            "upload", "-r", local, "--to", "Shared Documents/Mirror", "--delete", "-o", "ndjson",
        ])
        #expect(run.status == 9, "\(run.stderr)")
        #expect(run.stderr.contains("changed in SharePoint since spconnect uploaded it"), "\(run.stderr)")
        let done = try results(run.stdout)
        #expect(done[top + "/a.txt"] == "deleted" && done[top + "/gone"] == "deleted", "\(run.stdout)")
        #expect(
            try await serverTree(fixture, "Shared Documents/Mirror") == [
                top + "/sub", top + "/sub/b.txt", top + "/theirs.txt",
            ])
        // The recycle bin has them back for 93 days.
        let bin = try await fixture.run(["api", "GET", "/_api/web/recyclebin?$select=LeafName"])
        #expect(bin.stdout.contains("a.txt") && bin.stdout.contains("gone"), "\(bin.stdout)")

        // --overwrite recycles the changed file too; someone else's file stays whatever is asked.
        let forced = try await fixture.run([
            "upload", "-r", local, "--to", "Shared Documents/Mirror", "--delete", "--overwrite", "-o", "ndjson",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(
            try await serverTree(fixture, "Shared Documents/Mirror") == [top + "/sub", top + "/theirs.txt"],
            "\(forced.stdout)")

        let single = try await fixture.run(["upload", local + "/x", "--to", "Shared Documents", "--delete"])
        #expect(single.status == 2 && single.stderr.contains("--delete goes with -r"), "\(single.stderr)")
    }
}
