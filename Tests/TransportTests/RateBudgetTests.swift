import Foundation
import Testing

@testable import Transport

/// Pacing by a server's stated budget: the ledger's arithmetic, and the file the clients of a profile share.
@Suite struct RateBudgetTests {
    static let origin = "https://contoso.sharepoint.com:443"

    @Test func theHeadersAreReadWithTheDraftsPolicy() {
        let stated = RateLimitHeaders(
            HTTPHeaders([
                ("RateLimit-Limit", "1250"), ("RateLimit-Remaining", "240"), ("RateLimit-Reset", "37"),
                ("RateLimit-Policy", "1250;w=60, 1200000;w=86400"),
            ]))
        #expect(stated == RateLimitHeaders(limit: 1250, remaining: 240, resetSeconds: 37, windowSeconds: 60))
        #expect(RateLimitHeaders(HTTPHeaders([("RateLimit-Limit", "10"), ("RateLimit-Remaining", "1")])) == nil)
        let zero = HTTPHeaders([("RateLimit-Limit", "0"), ("RateLimit-Remaining", "0"), ("RateLimit-Reset", "5")])
        #expect(RateLimitHeaders(zero) == nil, "a limit of nothing states no budget")
    }

    /// The first statement: what is left, less the units still in flight and a margin, spread over the time left.
    @Test func theUnitsLeftAreSpreadOverTheTimeLeft() {
        var ledger = RateBudgetLedger(
            origin: Self.origin, first: RateLimitHeaders(limit: 100, remaining: 44, resetSeconds: 10), at: 0,
            unitsInFlight: 2)
        #expect(ledger.remaining == 20, "half of 44 left, less 2 in flight and 2 kept back")
        var slots: [Int64] = []
        for _ in 0..<20 { slots.append(ledger.reserve(1, now: 0)) }
        #expect(slots.first == 0)
        #expect(slots.last! >= 8_000 && slots.last! < 8_750, "the last unit before the window's last second")
        #expect(zip(slots, slots.dropFirst()).allSatisfy { $1 - $0 >= 449 && $1 - $0 <= 451 }, "\(slots)")
        // The window is spent: the next request goes when the next one starts, which allows the limit less the margin.
        #expect(ledger.reserve(2, now: 0) == 10_000)
        #expect(ledger.remaining == 96)
    }

    /// Sixty seconds never hold more than the limit, at any pace of requests.
    @Test func noWindowHoldsMoreThanTheLimit() {
        var ledger = RateBudgetLedger(
            origin: Self.origin, first: RateLimitHeaders(limit: 50, remaining: 10, resetSeconds: 3), at: 0,
            unitsInFlight: 0)
        var sent: [(at: Int64, units: Int)] = []
        var now: Int64 = 0
        for step in 0..<400 {
            let units = [1, 2, 5][step % 3]
            let slot = ledger.reserve(units, now: now)
            sent.append((slot, units))
            now = slot + Int64(step % 7)
        }
        // The server's windows: [0, 3 s) and then every 60 s.
        var perWindow: [Int64: Int] = [:]
        for request in sent {
            perWindow[request.at < 3_000 ? -1 : (request.at - 3_000) / 60_000, default: 0] += request.units
        }
        #expect(perWindow[-1, default: 0] <= 10, "\(perWindow)")
        #expect(perWindow.filter { $0.key >= 0 }.values.allSatisfy { $0 <= 50 }, "\(perWindow)")
    }

    @Test func theServersLowerAccountIsBelievedAndALaterWindowAdopted() {
        var ledger = RateBudgetLedger(
            origin: Self.origin, first: RateLimitHeaders(limit: 100, remaining: 50, resetSeconds: 30), at: 0,
            unitsInFlight: 0)
        ledger.observe(RateLimitHeaders(limit: 100, remaining: 20, resetSeconds: 29), at: 1_000, unitsInFlight: 3)
        #expect(ledger.remaining == 15, "another process spent units: 20 - 3 in flight - 2")
        #expect(ledger.windowEnd == 30_000, "the earliest end any answer allows")
        ledger.observe(RateLimitHeaders(limit: 100, remaining: 90, resetSeconds: 29), at: 1_000, unitsInFlight: 0)
        #expect(ledger.remaining == 15, "a higher account is not believed within the window")
        ledger.observe(RateLimitHeaders(limit: 100, remaining: 70, resetSeconds: 50), at: 40_000, unitsInFlight: 0)
        #expect(ledger.windowEnd == 90_000 && ledger.remaining == 68, "the server had moved to its next window")
    }

    @Test func aLedgerFromBeforeTheClockWasSetBackOrOfYesterdayIsForgotten() {
        let ledger = RateBudgetLedger(
            origin: Self.origin, first: RateLimitHeaders(limit: 100, remaining: 50, resetSeconds: 30), at: 7_200_000,
            unitsInFlight: 0)
        #expect(ledger.isCurrent(at: 7_200_000))
        #expect(!ledger.isCurrent(at: 0), "the clock set back two hours")
        #expect(!ledger.isCurrent(at: 7_200_000 + 86_400_000 + 60_000), "a day later")
        #expect(RateBudgetLedger(line: ledger.line) == ledger)
        #expect(RateBudgetLedger(line: "https://x 100 60000 5") == nil, "a line cut short")
    }

    // MARK: The shared file

    private func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "spc-budget-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private static let stated = HTTPHeaders([
        ("RateLimit-Limit", "100"), ("RateLimit-Remaining", "6"), ("RateLimit-Reset", "30"),
    ])

    @Test func clientsNamingOneFileShareTheBudgetAndOnlyForItsOrigin() async throws {
        let path = try folder() + "/default.budget"
        let one = SharedRateBudget(path: path)
        let other = SharedRateBudget(path: path)
        let url = "https://contoso.sharepoint.com/_api/web"
        #expect(one.reserve(1, origin: Self.origin, now: 0) == nil, "no budget stated yet")
        #expect(!FileManager.default.fileExists(atPath: path))
        one.answered(units: 0, headers: Self.stated, url: url)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        // Half of 6 left less the margin of 2: two units now, and the next in the next window, whichever client asks.
        #expect(try #require(other.reserve(2, origin: Self.origin, now: now)).slot <= now + 1)
        #expect(try #require(one.reserve(1, origin: Self.origin, now: now)).slot >= now + 29_000)
        #expect(one.reserve(1, origin: "https://login.microsoftonline.com:443", now: now) == nil, "another origin")
    }

    @Test func aFileThatIsNotTheUsersOwnOrIsALinkIsIgnored() throws {
        let base = try folder()
        let target = base + "/elsewhere"
        let path = base + "/default.budget"
        FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o600])
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        SharedRateBudget(path: path).answered(units: 0, headers: Self.stated, url: "https://contoso.sharepoint.com/")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).isEmpty, "nothing written through the link")

        let open = base + "/open.budget"
        let budget = SharedRateBudget(path: open)
        FileManager.default.createFile(atPath: open, contents: nil, attributes: [.posixPermissions: 0o644])
        budget.answered(units: 0, headers: Self.stated, url: "https://contoso.sharepoint.com/")
        #expect(budget.currentLedgerLine() == nil, "a file others can read is no ledger")
    }
}
