import BulkWrites
import Foundation
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

/// Deleting list items in-process against spsim's Tasks list: one outcome per id, several ids in one `$batch`.
@Suite struct BulkDeletionTests {
    @Test func eachIdHasItsOutcomeAndSeveralGoInOneBatch() async throws {
        let sim = try Simulator(SimulatorOptions(mode: .basic))
        let site = try BulkWriterTests.site(sim)
        var ids: [Int] = []
        for title in ["one", "two"] {
            ids.append(try await site.addItem(to: .title("Tasks"), fields: [("Title", .string(title))]).id)
        }
        let outcomes = try await BulkDeletion.delete(ids + [999_999], in: .title("Tasks"), etag: "*", site: site)
        let batches = sim.requestLog().filter { $0.path.hasSuffix("/$batch") }
        await sim.stop()
        #expect(outcomes.map(\.id) == ids + [999_999])
        #expect(outcomes.map(\.outcome.text) == ["deleted", "deleted", "not found"])
        #expect(batches.count == 1, "three ids, one batch")
    }

    @Test func aMissingListIsThrownForTheCallerToTryAnotherReading() async throws {
        let sim = try Simulator(SimulatorOptions(mode: .basic))
        let site = try BulkWriterTests.site(sim)
        await #expect {
            _ = try await BulkDeletion.delete([1, 2], in: .title("No such list"), etag: "*", site: site)
        } throws: { error in
            (error as? SharePointError)?.kind == .listNotFound
        }
        await sim.stop()
    }
}
