import Foundation
import SPSim
import TestSupport
import Testing

/// spconnect against spsim's resource-unit budgets (`SimulatorOptions.resourceBudgets`, windows shortened to two
/// seconds so a test spans several): once the site has stated its budget, no request of any process of the profile
/// is throttled, however many of them run.
@Suite(.childProcesses, .serialized) struct ThrottlingCLITests {
    @Test func twoProcessesOfOneProfileSpendOneBudgetWithoutA429AfterItIsStated() async throws {
        var model = ResourceBudgetModel()
        model.appPerMinute = 100
        model.windowSeconds = 2
        let fixture = try await CLIFixture(exportFiles: 60, resourceBudgets: model)
        let first = try temporaryDirectory("paced-a")
        let second = try temporaryDirectory("paced-b")
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        // Both jobs at once, eight workers each: together they need several windows' budgets.
        let environment = fixture.environment
        async let one = runSpconnect(
            ["download", "-r", "Export", "--to", first, "--parallel", "8", "-q"], environment: environment)
        async let other = runSpconnect(
            ["download", "-r", "Export", "--to", second, "--parallel", "8", "-q"], environment: environment)
        let (a, b) = try await (one, other)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        let report = fixture.sim.resourceBudgetReport()
        #expect(report.firstRateLimitHeadersAt != nil, "the site stated its budget: \(report)")
        #expect(report.unitsAnswered > 2 * model.appPerMinute, "the jobs needed several windows: \(report)")
        #expect(report.throttledAfterFirstRateLimitHeaders == 0, "\(report)")
        let written = { (root: String) in
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".bin") }.count
        }
        #expect(written(first) == 60 && written(second) == 60)
    }
}
