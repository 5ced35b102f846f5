import Foundation
import SPSim
import Testing

/// `items LIST --parallel N` (docs/cli.md): ranges of ID read side by side give exactly the output of the
/// sequential listing, in ID order, with no more than N requests at the server at once.
/// Serialized: each case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct ParallelItemsCLITests {
    @Test func rangesGiveTheSequentialOutputByteForByte() async throws {
        let fixture = try await CLIFixture(items: 12_345, latencyMilliseconds: 5)
        // Gaps in the ids (deleted items), as every real list has.
        let deleted = try await fixture.run(["delete", "Big", "5000", "5001", "9999", "-q"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let sequential = try await fixture.run(["items", "Big", "-o", "csv", "--select", "Title,Number"])
        #expect(sequential.status == 0, "\(sequential.stderr)")
        #expect(sequential.stdout.split(separator: "\r\n").count == 12_343)
        fixture.sim.resetPeakConcurrentRequests()
        let ranged = try await fixture.run(["items", "Big", "-o", "csv", "--select", "Title,Number", "--parallel", "4"])
        #expect(ranged.status == 0, "\(ranged.stderr)")
        #expect(ranged.stdout == sequential.stdout)
        #expect(fixture.sim.peakConcurrentRequests <= 4, "more than --parallel requests were in flight")
        #expect(fixture.sim.peakConcurrentRequests >= 2, "the ranges were not read side by side")

        // Smaller pages inside each range, a filter, and a cap: still the same items in the same order.
        for extra in [["--page-size", "700"], ["--filter", "Category eq 'Red'"], ["--top", "6001"]] {
            let plain = try await fixture.run(["items", "Big", "-o", "csv", "--select", "Title"] + extra)
            let fast = try await fixture.run(
                ["items", "Big", "-o", "csv", "--select", "Title", "--parallel", "3"] + extra)
            #expect(plain.status == 0 && fast.status == 0, "\(extra): \(plain.stderr) \(fast.stderr)")
            #expect(fast.stdout == plain.stdout, "\(extra)")
        }
    }

    @Test func throttlingIsWaitedOutWithoutLosingARange() async throws {
        let fixture = try await CLIFixture(items: 20_000, faults: try FaultSpec(parsing: "retryAfter=1"))
        // The first answer of each of the four ranges is 429 (Retry-After: 1): each is asked again, none lost.
        fixture.sim.throttle(next: 4, whereQueryContains: "ID ge")
        fixture.sim.resetPeakConcurrentRequests()
        let result = try await fixture.run(["items", "Big", "-o", "ndjson", "--select", "Id", "--parallel", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        let ids = try result.stdout.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["Id"] as? Int
        }
        #expect(ids.count == 20_000)
        #expect(ids.enumerated().first { $0.element != $0.offset + 1 } == nil, "an id is missing or out of order")
        #expect(fixture.sim.requestLog().filter { $0.status == 429 }.count == 4)
        #expect(fixture.sim.peakConcurrentRequests <= 4)
    }

    @Test func anOrderOtherThanIDIsRefused() async throws {
        let fixture = try await CLIFixture(items: 10)
        let refused = try await fixture.run(["items", "Big", "--orderby", "Title", "--parallel", "2"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--parallel reads ranges of ID"), "\(refused.stderr)")
        let byID = try await fixture.run(["items", "Big", "--orderby", "ID", "--parallel", "2", "-o", "csv"])
        #expect(byID.status == 0, "\(byID.stderr)")
        #expect(byID.stdout.split(separator: "\r\n").count == 11)
    }
}
