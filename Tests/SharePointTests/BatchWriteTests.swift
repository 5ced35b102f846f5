import Foundation
import JSON
import SPSim
import SharePoint
import Testing
import Transport

extension SiteClientTests {
    /// `batchWrite` against spsim's `$batch`: one request for many changes, one outcome per change, and a batch sent
    /// again only when the server wrote nothing.
    @Suite struct BatchWrites {
        @Test(arguments: [ODataFlavor.noMetadata, .verbose])
        func createsChangesAndDeletesInOneRequestWithOneOutcomeEach(flavor: ODataFlavor) async throws {
            let fixture = try SiteFixture(mode: .basic, flavor: flavor)
            defer { fixture.sim.stop() }
            let list = ListPath.title("Asset_Register")
            let outcomes = try await fixture.site.batchWrite(
                [
                    BatchItemChange(id: nil, fields: [("Title", "Monitor"), ("OwnerId", 11), ("Cost", 150)]),
                    BatchItemChange(id: 1, fields: [("Cost", 20)]),
                    BatchItemChange(id: nil, fields: [("Nope", "x")]),
                    BatchItemChange(id: 99, fields: [("Cost", 1)]),
                    .delete(id: 2),
                ], in: list)
            #expect(outcomes.map(\.status) == [201, 204, 400, 404, 200])
            #expect(outcomes.map(\.id) == [3, 1, nil, 99, 2])
            #expect(outcomes[2].error?.kind == .badRequest)
            #expect(outcomes[3].error?.kind == .itemNotFound)
            #expect(outcomes[3].error?.url?.hasSuffix("/items(99)") == true, "\(outcomes[3].error?.url ?? "")")
            #expect(outcomes.filter { $0.error == nil }.count == 3)
            let batches = fixture.logged("/_api/$batch", method: "POST")
            #expect(batches.map(\.batchOperations) == [5])
            #expect(fixture.logged("/items").isEmpty, "no change went on its own")

            let created = try await fixture.site.item(in: list, id: 3)
            #expect(created["OwnerId"]?.intValue == 11)
            #expect(try await fixture.site.item(in: list, id: 1)["Cost"]?.doubleValue == 20)
            let gone = await sharePointError { _ = try await fixture.site.item(in: list, id: 2) }
            #expect(gone?.kind == .itemNotFound)
        }

        @Test func aThrottledBatchIsSentAgainAndWritesOnce() async throws {
            var once = FaultSpec()
            once.status429 = 1
            once.retryAfterSeconds = 1
            let fixture = try SiteFixture(mode: .basic, faults: once)
            defer { fixture.sim.stop() }
            // A digest from elsewhere, so that the batch is the first `/_api` request (the one throttled).
            fixture.site.cacheDigest("0xBAD,01 Jan 2026 00:00:00 -0000", validFor: .seconds(3600))
            let outcomes = try await fixture.site.batchWrite(
                (1...3).map { BatchItemChange(id: nil, fields: [("Title", .string("Asset \($0)"))]) },
                in: .title("Asset_Register"))
            #expect(outcomes.map(\.id) == [3, 4, 5])
            let log = fixture.sim.requestLog().map { "\($0.status) \($0.method) \($0.path.lowercased())" }
            #expect(
                log == [
                    "429 POST /_api/$batch", "403 POST /_api/$batch", "200 POST /_api/contextinfo",
                    "200 POST /_api/$batch",
                ], "throttled, then an expired digest: neither wrote anything")
            var titles: [String] = []
            for try await item in fixture.site.items(in: .title("Asset_Register")).elements {
                titles.append(item["Title"]?.stringValue ?? "")
            }
            #expect(titles == ["Laptop 0042", "Projector 7", "Asset 1", "Asset 2", "Asset 3"], "each written once")
        }

        @Test func ensureUserResolvesAnEmailAndSaysWhenThereIsNoSuchUser() async throws {
            let fixture = try SiteFixture(mode: .basic)
            defer { fixture.sim.stop() }
            #expect(try await fixture.site.ensureUser("Bob.MFA@contoso.test").id == 11)
            #expect(try await fixture.site.ensureUser("i:0#.f|membership|alice@contoso.test").id == 10)
            let missing = await sharePointError { _ = try await fixture.site.ensureUser("nobody@contoso.test") }
            #expect(missing?.status == 500)
            #expect(missing?.message == "The specified user nobody@contoso.test could not be found.")
        }
    }
}
