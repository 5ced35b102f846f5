import Foundation
import Synchronization
import Testing

@testable import HTTPServer

/// A connection thread waits for its work: that work must not queue behind the pool's other work.
@Suite struct BlockingAwaitTests {
    /// Work waited for by a thread runs ahead of work already queued at the default priority. Before, under the
    /// full test suite's load, a gateway request's work waited behind every queued test for more than 30 s.
    @Test func waitedForWorkRunsAheadOfQueuedWork() async throws {
        let queued = 200
        let finished = FinishedCount()
        for _ in 0..<queued {
            Task(priority: .medium) {
                let end = Date().addingTimeInterval(0.02)
                var spins = 0
                while Date() < end { spins &+= 1 }
                finished.value.add(1, ordering: .relaxed)
            }
        }
        let answeredAfter = Answer()
        let waiter = Thread {
            let count = blockingAwait { finished.value.load(ordering: .relaxed) }
            answeredAfter.count.withLock { $0 = count }
        }
        waiter.start()
        while answeredAfter.count.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
        let count = try #require(answeredAfter.count.withLock { $0 })
        // Queued first in line, it would see nearly all of them done.
        #expect(count < queued / 2, "the waited-for work ran after \(count) of \(queued) queued tasks")
    }
}

private final class FinishedCount: Sendable {
    let value = Atomic(0)
}

private final class Answer: Sendable {
    let count = Mutex<Int?>(nil)
}
