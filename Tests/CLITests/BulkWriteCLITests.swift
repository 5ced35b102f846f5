import Foundation
import JSON
import SPSim
import TestSupport
import Testing

/// Bulk writes (issue 15, item 2): `add`/`update LIST --from FILE` and `delete LIST ID...` through OData `$batch`,
/// against spsim's Asset_Register list (a person `Owner`, a lookup `Project`, a date `PurchaseDate`, a number
/// `Cost`). Serialized, like the other suites that start many spconnect processes.
@Suite(.serialized) struct BulkWriteCLITests {
    /// The NDJSON lines of `text`, parsed.
    func objects(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    /// Every item of Asset_Register with the bulk fields, by id.
    func assets(_ fixture: CLIFixture) async throws -> [Int: JSONValue] {
        let read = try await fixture.run([
            "items", "Asset_Register", "--select", "Title,OwnerId,ProjectId,PurchaseDate,Cost", "-o", "ndjson",
        ])
        #expect(read.status == 0, "\(read.stderr)")
        var byID: [Int: JSONValue] = [:]
        for item in try objects(read.stdout) { byID[item["Id"]?.intValue ?? 0] = item }
        return byID
    }

    func batches(_ fixture: CLIFixture) -> [LoggedRequest] {
        fixture.sim.requestLog().filter { $0.method == "POST" && $0.path.lowercased() == "/_api/$batch" }
    }

    // MARK: A file of 500 rows

    @Test func aFiveHundredRowCSVReportsExactlyItsThreeBadRowsAndWritesTheOthersInFiveBatches() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("bulk")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bad: [Int: String] = [17: "PurchaseDate", 250: "Owner", 433: "Cost"]
        // A byte order mark, CRLF line ends, and one title with a comma, quotes and a line break (RFC 4180).
        var csv = "\u{FEFF}Title,owner,Project,PurchaseDate,Cost\r\n"
        for row in 1...500 {
            let title = row == 5 ? "\"Desk, \"\"oak\"\"\r\nsecond line\"" : "Asset \(row)"
            let owner =
                row == 250 ? "nobody@contoso.test" : row % 2 == 0 ? "alice@contoso.test" : "Bob.MFA@contoso.test"
            let date = row == 17 ? "2026-02-30" : "2026-02-\(String(format: "%02d", row % 28 + 1))T09:30:00+01:00"
            let cost = row == 433 ? "twelve" : "\(row).5"
            csv += "\(title),\(owner),\(row % 3 + 1),\(date),\(cost)\r\n"
        }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/assets.csv"))
        fixture.sim.clearRequestLog()

        let result = try await fixture.run(["add", "Asset_Register", "--from", folder + "/assets.csv"])
        #expect(result.status == 14, "some rows failed: \(result.stderr)")
        #expect(result.stderr.contains("500 rows: 497 written, 3 failed"), "\(result.stderr)")
        let results = try objects(result.stdout)
        #expect(results.count == 500, "one NDJSON result per row when standard output is not a terminal")
        #expect(results.map { $0["row"]?.intValue } == (1...500).map { $0 })
        let failed = results.filter { $0["status"]?.stringValue == "failed" }
        #expect(failed.compactMap { $0["row"]?.intValue } == [17, 250, 433])
        for failure in failed {
            let row = failure["row"]?.intValue ?? 0
            #expect(failure["error"]?.stringValue?.hasPrefix(bad[row] ?? "?") == true, "\(failure)")
            #expect(failure["id"] == .null)
        }
        #expect(failed[0]["error"]?.stringValue?.contains("'2026-02-30' is not an ISO 8601 date") == true)
        #expect(failed[1]["error"]?.stringValue?.contains("no user 'nobody@contoso.test'") == true)
        #expect(failed[2]["error"]?.stringValue?.contains("'twelve' is not a number") == true)
        #expect(results.filter { $0["status"]?.stringValue == "created" }.count == 497)

        // 497 changes in batches of 100; each person looked up once (Bob's two spellings are one name).
        #expect(batches(fixture).map(\.batchOperations) == [100, 100, 100, 100, 97])
        let lookups = fixture.sim.requestLog().filter { $0.path.lowercased() == "/_api/web/ensureuser" }
        #expect(lookups.count == 3, "alice, bob and the unknown one: \(lookups.count)")
        #expect(fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/items") }.isEmpty)

        let items = try await assets(fixture)
        #expect(items.count == 2 + 497)
        let written = results.filter { $0["status"]?.stringValue == "created" }
        for result in written {
            let row = result["row"]?.intValue ?? 0
            let item = items[result["id"]?.intValue ?? 0]
            #expect(item?["Cost"]?.doubleValue == Double(row) + 0.5, "row \(row)")
            #expect(item?["ProjectId"]?.intValue == row % 3 + 1, "row \(row): a lookup by id")
            #expect(item?["OwnerId"]?.intValue == (row % 2 == 0 ? 10 : 11), "row \(row): the person's site id")
        }
        let desk = items[written[4]["id"]?.intValue ?? 0]
        #expect(desk?["Title"]?.stringValue == "Desk, \"oak\"\r\nsecond line")
        #expect(desk?["PurchaseDate"]?.stringValue == "2026-02-06T08:30:00Z", "ISO 8601 with an offset, sent as UTC")
        #expect(items.values.contains { $0["Title"]?.stringValue == "Asset 17" } == false)
    }

    // MARK: NDJSON, updates, deletes

    @Test func ndjsonFromStandardInputIsConvertedByFieldType() async throws {
        let fixture = try await CLIFixture()
        let input = """
            {"Title":"Chair","Owner":"bob.mfa@contoso.test","Project":3,"PurchaseDate":"2026-05-04T10:00:00+02:00","Cost":49.9}

            {"Title":"Lamp","Owner":10,"Cost":"12"}
            ["not an object"]
            {"Title":"Shelf","Cost":true}

            """
        let result = try await fixture.run(
            ["add", "Asset_Register", "--from", "-", "--format", "ndjson"], stdin: input)
        #expect(result.status == 14, "\(result.stderr)")
        #expect(
            result.stdout == """
                {"row":1,"id":3,"status":"created","error":null}
                {"row":2,"id":4,"status":"created","error":null}
                {"row":3,"id":null,"status":"failed","error":"the row is not a JSON object"}
                {"row":4,"id":null,"status":"failed","error":"Cost: true is not a value for a Number field"}

                """)
        #expect(result.stderr.contains("4 rows: 2 written, 2 failed"), "\(result.stderr)")
        let items = try await assets(fixture)
        #expect(items[3]?["OwnerId"]?.intValue == 11, "bob, resolved through ensureuser")
        #expect(items[3]?["ProjectId"]?.intValue == 3)
        #expect(items[3]?["PurchaseDate"]?.stringValue == "2026-05-04T08:00:00Z")
        #expect(items[3]?["Cost"]?.doubleValue == 49.9)
        #expect(items[4]?["OwnerId"]?.intValue == 10)
        #expect(items[4]?["Cost"]?.doubleValue == 12)
        #expect(batches(fixture).map(\.batchOperations) == [2])

        let unnamed = try await fixture.run(["add", "Asset_Register", "--from", "-"], stdin: input)
        #expect(unnamed.status == 2)
        #expect(unnamed.stderr.contains("needs --format csv or --format ndjson"), "\(unnamed.stderr)")
    }

    @Test func updateFromAFileChangesOnlyTheItemsItsIdColumnNames() async throws {
        let fixture = try await CLIFixture()
        let added = try await fixture.run(
            ["add", "Asset_Register", "--from", "-", "--format", "csv"],
            stdin: "Title,Cost\nKeyboard,30\nMouse,15\n")
        #expect(added.status == 0, "\(added.stderr)")
        let untouched = try await fixture.run(["item", "Asset_Register", "4", "-o", "json"])
        fixture.sim.clearRequestLog()

        let result = try await fixture.run(
            ["update", "Asset_Register", "--from", "-", "--format", "csv", "-o", "csv"],
            stdin: "Id,Cost,Owner\r\n3,35,bob.mfa@contoso.test\r\n1,20,\r\n77,1,\r\n")
        #expect(result.status == 14, "item 77 does not exist: \(result.stderr)")
        #expect(
            result.stdout
                == "Row,Id,Status,Error\r\n1,3,updated,\r\n2,1,updated,\r\n3,77,failed,\"HTTP 404 "
                + "(-2147024809, System.ArgumentException): Item does not exist. It may have been deleted by "
                + "another user.\"\r\n", "\(result.stdout)")
        #expect(batches(fixture).map(\.batchOperations) == [3])
        let items = try await assets(fixture)
        #expect(items[3]?["Cost"]?.doubleValue == 35)
        #expect(items[3]?["OwnerId"]?.intValue == 11)
        #expect(items[3]?["Title"]?.stringValue == "Keyboard", "fields not in the file are left as they were")
        #expect(items[1]?["Cost"]?.doubleValue == 20)
        #expect(items[1]?["Title"]?.stringValue == "Laptop 0042")
        let after = try await fixture.run(["item", "Asset_Register", "4", "-o", "json"])
        #expect(after.stdout == untouched.stdout, "item 4 is in no row: unchanged")

        let noID = try await fixture.run(
            ["update", "Asset_Register", "--from", "-", "--format", "csv"], stdin: "Title\nx\n")
        #expect(noID.status == 2)
        #expect(noID.stderr.contains("update needs an Id column"), "\(noID.stderr)")
    }

    @Test func deletingSeveralIdsIsOneBatchWithOneResultEach() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.clearRequestLog()
        let result = try await fixture.run(["delete", "Tasks", "1", "2", "3", "--output", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Id,Result\r\n1,deleted\r\n2,deleted\r\n3,deleted\r\n")
        #expect(batches(fixture).map(\.batchOperations) == [3])
        #expect(fixture.sim.requestLog().filter { $0.path.lowercased().contains("/items(") }.isEmpty)
        let left = try await fixture.run(["items", "Tasks", "--select", "Id", "--top", "2", "-o", "csv"])
        #expect(left.stdout == "Id\r\n4\r\n5\r\n")
    }

    @Test func aBatchLostInTheNetworkIsNeverSentAgainAndItsRowsAreUnknown() async throws {
        var faults = FaultSpec()
        faults.dropPath = "/_api/$batch"
        let fixture = try await CLIFixture(faults: faults)
        let result = try await fixture.run(
            ["add", "Asset_Register", "--from", "-", "--format", "csv"], stdin: "Title\nOne\nTwo\n")
        #expect(result.status == 6, "a network failure: \(result.stderr)")
        let statuses = try objects(result.stdout).map { $0["status"]?.stringValue ?? "" }
        #expect(statuses == ["unknown", "unknown"])
        #expect(result.stderr.contains("2 rows: 0 written, 0 failed, 2 unknown"), "\(result.stderr)")
        #expect(batches(fixture).count == 1, "a batch the server may have written is never repeated")
        let items = try await assets(fixture)
        #expect(items.count == 4, "the server wrote both before the answer was lost")
    }

    // MARK: Checked before anything is sent

    @Test func anUnknownColumnStopsBeforeAnythingIsSent() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.clearRequestLog()
        let result = try await fixture.run(
            ["add", "Asset_Register", "--from", "-", "--format", "csv"], stdin: "Title,Cots\nChair,12\n")
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("list 'Asset_Register' has no field 'Cots' (column 2); did you mean Cost?"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let sent = fixture.sim.requestLog().filter { $0.method == "POST" }.map(\.path)
        #expect(sent.isEmpty, "no $batch, no digest: \(sent)")

        let readOnly = try await fixture.run(
            ["add", "Asset_Register", "--from", "-", "--format", "csv"], stdin: "Title,Modified\nChair,2026-01-01\n")
        #expect(readOnly.status == 2)
        #expect(readOnly.stderr.contains("'Modified' (column 2) is a read-only field"), "\(readOnly.stderr)")
        let withID = try await fixture.run(
            ["add", "Asset_Register", "--from", "-", "--format", "csv"], stdin: "Id,Title\n1,Chair\n")
        #expect(withID.status == 2)
        #expect(withID.stderr.contains("cannot have an Id column"), "\(withID.stderr)")
        #expect(batches(fixture).isEmpty)
    }
}
