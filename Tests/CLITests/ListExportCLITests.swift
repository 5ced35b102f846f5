import Foundation
import SPSim
import TestSupport
import Testing

/// The nightly export (issue 15): every item by default, `--top` caps, `--select` checked against the list's fields,
/// several deletes at once, and errors whose first sentence says what happened.
/// Serialized: each case starts a simulator and several spconnect processes, and many at once push the test
/// process past ~1,300 open descriptors, where Foundation's `Process.run()` (Swift 6.3.1) can crash reading
/// /proc/self/fd (swift-corelibs-foundation PR 5472).
@Suite(.serialized) struct ListExportCLITests {
    /// CSV lines without the empty string after the last CRLF.
    func csvLines(_ text: String) -> [String] {
        text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    // MARK: Every item by default

    @Test func aCSVExportHasEveryItemByDefault() async throws {
        let fixture = try await CLIFixture(items: 12_345)
        let result = try await fixture.run(["items", "Big", "--output", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = csvLines(result.stdout)
        #expect(lines.count == 12_346, "a header and 12,345 rows")
        #expect(lines.first?.hasPrefix("FileSystemObjectType,Id,") == true)
        #expect(lines.last?.contains(",Item 12345,") == true)
        // Pages of 5,000: three requests for the items.
        let pages = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/items") }
        #expect(pages.count == 3)
        #expect(result.stderr.isEmpty, "no counter when standard error is not a terminal: \(result.stderr)")
    }

    /// With standard error a terminal (a pseudo-terminal made by `script`), the counter runs there and ends with the
    /// count, while the CSV goes to the file.
    @Test func theCountIsOnATerminalsStandardError() async throws {
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "util-linux's script makes the terminal")
        let fixture = try await CLIFixture(items: 1_234)
        let scratch = try temporaryDirectory("pty")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [
            "-qefc", "'\(spconnectPath)' items Big --output csv > '\(scratch)/export.csv'", "/dev/null",
        ]
        process.environment = fixture.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        _ = FileManager.default.createFile(atPath: scratch + "/terminal", contents: nil)
        let terminal = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/terminal"))
        defer { try? terminal.close() }
        process.standardOutput = terminal
        process.standardInput = FileHandle.nullDevice
        #expect(try await runToExit(process) == 0)
        let shown = String(
            decoding: FileManager.default.contents(atPath: scratch + "/terminal") ?? Data(), as: UTF8.self)
        let last = shown.components(separatedBy: "\r").filter { !$0.isEmpty }.last ?? ""
        #expect(last.hasPrefix("items: 1234  ("), "the terminal showed \(shown.debugDescription)")
        let exported = String(
            decoding: FileManager.default.contents(atPath: scratch + "/export.csv") ?? Data(), as: UTF8.self)
        #expect(csvLines(exported).count == 1_235)
        #expect(!exported.contains("items:"))
    }

    @Test func topCapsTheCountAcrossPages() async throws {
        let fixture = try await CLIFixture(items: 250)
        let result = try await fixture.run([
            "items", "Big", "--top", "120", "--page-size", "50", "--select", "Id", "--output", "ndjson",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (1...120).map { "{\"Id\":\($0)}\n" }.joined())
        let pages = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/items") }
        #expect(pages.count == 3, "pages of 50 until 120 are written")
        #expect(pages.first?.query.contains("top=50") == true, "\(pages.first?.query ?? "")")
    }

    @Test func allWithTopKeepsItsOldMeaningOfPageSize() async throws {
        let fixture = try await CLIFixture(items: 250)
        let result = try await fixture.run([
            "items", "Big", "--all", "--top", "100", "--select", "Id", "--output", "csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(csvLines(result.stdout).count == 251)
        #expect(result.stderr.contains("write --page-size 100"), "\(result.stderr)")
        let pages = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/items") }
        #expect(pages.count == 3)
    }

    // MARK: --select

    @Test func aMistypedFieldIsAUsageErrorNamingTheCloseOnes() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.clearRequestLog()
        let typo = try await fixture.run(["items", "Tasks", "--select", "Id,Titel"])
        #expect(typo.status == 2, "\(typo.stderr)")
        #expect(
            typo.stderr.hasPrefix("spconnect items: --select: list 'Tasks' has no field 'Titel'; did you mean Title?"),
            "\(typo.stderr)")
        let nope = try await fixture.run(["items", "Tasks", "--select", "Nope"])
        #expect(nope.status == 2)
        #expect(nope.stderr.contains("has no field 'Nope'; did you mean "), "\(nope.stderr)")
        #expect(nope.stderr.contains("'spconnect fields Tasks' lists them"))
        #expect(nope.stdout.isEmpty)
        let expandingAChoice = try await fixture.run(["items", "Tasks", "--select", "Status/Title"])
        #expect(expandingAChoice.status == 2)
        #expect(expandingAChoice.stderr.contains("'Status' is a Choice field"), "\(expandingAChoice.stderr)")
        #expect(
            !fixture.sim.requestLog().contains { $0.path.lowercased().hasSuffix("/items") },
            "no item is read with a wrong selection")
    }

    @Test func aLookupsFieldIsExpandedAndTheIdIsAlwaysShown() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.clearRequestLog()
        let result = try await fixture.run([
            "items", "Tasks", "--select", "AssignedTo/Title,title", "--top", "3", "--output", "csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "Id,AssignedTo/Title,Title\r\n1,Carol Conditional,Plan the kickoff\r\n2,Dave Expired,Review budget\r\n"
                + "3,Alice Example,Order new laptops\r\n")
        let request = fixture.sim.requestLog().first { $0.path.lowercased().hasSuffix("/items") }
        #expect(request?.query.contains("$expand=AssignedTo") == true, "\(request?.query ?? "")")
        let json = try await fixture.run(["items", "Tasks", "--select", "Title", "--top", "1", "--output", "json"])
        #expect(
            fixture.normalised(json.stdout) == "[\n  {\n    \"Id\": 1,\n    \"Title\": \"Plan the kickoff\"\n  }\n]\n")
    }

    // MARK: Writes

    @Test func deleteTakesSeveralIdsWithOneResultEach() async throws {
        let fixture = try await CLIFixture()
        for title in ["one", "two", "three"] {
            #expect(try await fixture.run(["add", "Tasks", "Title=\(title)"]).status == 0)
        }
        let both = try await fixture.run(["delete", "Tasks", "22", "23", "--output", "csv"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout == "Id,Result\r\n22,deleted\r\n23,deleted\r\n")
        #expect(try await fixture.run(["item", "Tasks", "22"]).status == 8)
        #expect(try await fixture.run(["item", "Tasks", "23"]).status == 8)
        let partly = try await fixture.run(["delete", "Tasks", "21", "22", "--output", "csv"])
        #expect(partly.status == 8, "one of them was not found")
        #expect(partly.stdout == "Id,Result\r\n21,deleted\r\n22,not found\r\n")
        #expect(partly.stderr.contains("item 22: The list item was not found"), "\(partly.stderr)")
        #expect(try await fixture.run(["delete", "Tasks", "1", "2", "--etag", "1"]).status == 2)
    }

    @Test func aBareEtagNumberIsTheQuotedEtag() async throws {
        let fixture = try await CLIFixture()
        let first = try await fixture.run(["update", "Tasks", "3", "Title=Changed", "--etag", "1", "--output", "json"])
        #expect(first.status == 0, "\(first.stderr)")
        let stale = try await fixture.run(["update", "Tasks", "3", "Title=Again", "--etag", "1"])
        #expect(stale.status == 9, "etag 1 is stale after the change: \(stale.stderr)")
        #expect(stale.stderr.contains("HTTP 412"))
    }

    @Test func uploadOverAnExistingFileSaysToOverwrite() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("upload")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: folder + "/Welcome.txt"))
        let refused = try await fixture.run(["upload", folder + "/Welcome.txt", "--to", "Documents"])
        #expect(refused.status == 9)
        #expect(
            refused.stderr.hasPrefix(
                "spconnect upload: A file named 'Welcome.txt' already exists in Documents; add --overwrite to replace "
                    + "it, or --as NAME to upload it under another name. (HTTP 400, -2130575257"),
            "\(refused.stderr)")
        let replaced = try await fixture.run(["upload", folder + "/Welcome.txt", "--to", "Documents", "--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
    }

    // MARK: Network

    /// With no retries asked for, one refused connection is the answer (the retries themselves:
    /// `VerboseRetriesCLITests`, `RetryTests`).
    @Test func anUnreachableSiteFailsWithCurlsReason() async throws {
        let fixture = try await CLIFixture()
        await fixture.sim.stop()
        let result = try await fixture.run(["items", "Tasks", "--retries", "0"])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("could not connect to 127.0.0.1"), "\(result.stderr)")
        #expect(result.stderr.contains("Couldn't connect to server"), "curl's own reason: \(result.stderr)")
    }
}
