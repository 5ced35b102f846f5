import BulkWrites
import Foundation
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

/// The bulk-write engine in-process against spsim's Tasks list (HTTP Basic as alice, so the site takes writes): rows
/// of a CSV file become items, a dry run sends nothing, a column the list lacks stops the run before anything is sent.
@Suite struct BulkWriterTests {
    static func site(_ sim: Simulator) throws -> SharePointSite {
        SharePointSite(
            client: try HTTPClient(), siteURL: sim.siteURL + "/",
            authentication: .basic(user: aliceEmail, password: Secret(alicePassword)))
    }

    static func csv(_ text: String) throws -> BulkInput {
        try BulkInput(Array(text.utf8), format: .csv, source: "'rows.csv'")
    }

    @Test func rowsBecomeItemsAndEachRowHasItsResult() async throws {
        let sim = try Simulator(SimulatorOptions(mode: .basic))
        let site = try Self.site(sim)
        let writer = BulkWriter(list: .title("Tasks"), listName: "Tasks", site: site, updating: false, dryRun: false)
        var results: [BulkRowResult] = []
        let summary = try await writer.write(try Self.csv("Title\nfirst row\nsecond row\n")) { results.append($0) }
        #expect(summary.written == 2 && summary.failed == 0 && summary.stopped == nil)
        #expect(results.map(\.status) == ["created", "created"])
        let ids = results.compactMap(\.id)
        #expect(ids.count == 2)
        for (id, title) in zip(ids, ["first row", "second row"]) {
            let item = try await site.item(in: .title("Tasks"), id: id)
            #expect(item["Title"]?.stringValue == title)
        }
        await sim.stop()
    }

    @Test func aDryRunChecksEveryRowAndSendsNothing() async throws {
        let sim = try Simulator(SimulatorOptions(mode: .basic))
        let site = try Self.site(sim)
        let writer = BulkWriter(list: .title("Tasks"), listName: "Tasks", site: site, updating: false, dryRun: true)
        _ = try await site.fields(of: .title("Tasks"))
        sim.clearRequestLog()
        var results: [BulkRowResult] = []
        let summary = try await writer.write(try Self.csv("Title\nnot written\n")) { results.append($0) }
        #expect(results.map(\.status) == ["would create"] && summary.written == 1)
        #expect(!sim.requestLog().contains { $0.method == "POST" }, "\(sim.requestLog().map(\.path))")
        await sim.stop()
    }

    @Test func aColumnTheListLacksStopsTheRunBeforeAnythingIsSent() async throws {
        let sim = try Simulator(SimulatorOptions(mode: .basic))
        let site = try Self.site(sim)
        let writer = BulkWriter(list: .title("Tasks"), listName: "Tasks", site: site, updating: false, dryRun: false)
        sim.clearRequestLog()
        do {
            _ = try await writer.write(try Self.csv("Titel\nx\n")) { _ in }
            Issue.record("a column the list lacks was accepted")
        } catch let error as BulkInputError {
            #expect(error.description.contains("no field 'Titel'") && error.description.contains("Title"))
        }
        #expect(!sim.requestLog().contains { $0.method == "POST" })
        await sim.stop()
    }
}
