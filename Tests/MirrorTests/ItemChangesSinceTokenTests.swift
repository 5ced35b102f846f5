import Foundation
import Mirror
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

/// An incremental list export's plan, in-process against spsim's Tasks list: every item on the first run, then only
/// what changed, and every item again when the token is older than the change log keeps.
@Suite struct ItemChangesSinceTokenTests {
    @Test func firstEverythingThenOnlyTheChangesThenEverythingAfterATruncatedLog() async throws {
        let fixture = try await MirrorFixture()
        let site = fixture.site
        let file = ChangeTokenFile(path: fixture.scratch + "/tasks.token")
        let first = try await ItemChangesSinceToken.plan(file, list: .title("Tasks"), named: "Tasks", site: site)
        #expect(first.reading == .firstRun)
        try file.write(first.nextToken)
        let added = try await site.addItem(to: .title("Tasks"), fields: [("Title", .string("new"))]).id
        let second = try await ItemChangesSinceToken.plan(file, list: .title("Tasks"), named: "Tasks", site: site)
        #expect(second.reading == .changes(changed: [added], deleted: []))
        try file.write(second.nextToken)
        try await site.deleteItem(in: .title("Tasks"), id: added)
        let third = try await ItemChangesSinceToken.plan(file, list: .title("Tasks"), named: "Tasks", site: site)
        #expect(third.reading == .changes(changed: [], deleted: [added]))
        fixture.sim.truncateChangeLog()
        let fourth = try await ItemChangesSinceToken.plan(file, list: .title("Tasks"), named: "Tasks", site: site)
        #expect(fourth.reading == .tokenTooOld)
        await fixture.stop()
    }
}
