import Foundation
import Testing

@testable import Transport

/// The pause shared through a file: waited when a server asked for it, ignored when no server could have.
@Suite struct SharedBackoffTests {
    private func backoff(deadline: Date) throws -> SharedBackoff {
        let folder = NSTemporaryDirectory() + "spc-backoff-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/default.backoff"
        try Data("\(Int64(deadline.timeIntervalSince1970 * 1000))\n".utf8).write(to: URL(fileURLWithPath: path))
        return SharedBackoff(path: path)
    }

    @Test func aDeadlineWithinTheCapIsWaited() throws {
        let now = Date()
        let shared = try backoff(deadline: now.addingTimeInterval(5))
        #expect(shared.wait(at: now, cap: .seconds(60)) == .seconds(5))
    }

    @Test func aPassedDeadlineIsNotWaited() throws {
        let now = Date()
        #expect(try backoff(deadline: now.addingTimeInterval(-1)).wait(at: now, cap: .seconds(60)) == nil)
    }

    /// The soak's clock jump: a file written at real time, read by a run whose clock was set back two hours, named
    /// a deadline two hours ahead; every request of that run waited the whole cap (60 s), and a nightly download
    /// ran past its two-minute limit. No server asks for more than the cap, so such a deadline is ignored.
    @Test func aDeadlineFurtherThanTheCapIsIgnored() throws {
        let now = Date()
        let shared = try backoff(deadline: now.addingTimeInterval(7_200))
        #expect(shared.wait(at: now, cap: .seconds(60)) == nil)
        #expect(shared.wait(at: now, cap: .seconds(60 * 60 * 3)) != nil)
    }

    @Test func aThrottledClientPausesTheOthers() throws {
        let now = Date()
        let shared = try backoff(deadline: now.addingTimeInterval(-10))
        shared.pause(for: .seconds(30))
        let wait = try #require(shared.wait(at: Date(), cap: .seconds(60)))
        #expect(wait > .seconds(25) && wait <= .seconds(30))
    }
}
