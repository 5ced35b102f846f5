import Foundation
import SPSim
import TestSupport
import Testing

/// spsim's model of SharePoint Online's resource-unit budgets (`ResourceBudgetModel`), driven with curl.
@Suite(.childProcesses) struct ResourceBudgetTests {
    static let decorated = "User-Agent: NONISV|Contoso|nightly/1.0"

    static func site(_ spec: String) throws -> Simulator {
        var options = SimulatorOptions(mode: .entra)
        options.resourceBudgets = try ResourceBudgetModel(parsing: spec)
        return try Simulator(options)
    }

    @Test func rateLimitHeadersFromEightyPercentThenA429WithTheWindowsEnd() async throws {
        let site = try Self.site("app=10")
        defer { site.stop() }
        let browser = Browser()
        var answers: [Answer] = []
        for _ in 0..<11 {
            answers.append(try await browser.request(site.siteURL + "/_api/web", headers: [Self.decorated]))
        }
        #expect(answers[0..<7].allSatisfy { $0.header("RateLimit-Limit") == nil && $0.status != 429 })
        #expect(answers[7].header("RateLimit-Limit") == "10")
        #expect(answers[7].header("RateLimit-Remaining") == "2")
        #expect(answers[9].header("RateLimit-Remaining") == "0")
        let reset = Int(answers[7].header("RateLimit-Reset") ?? "") ?? 0
        #expect((1...60).contains(reset))
        #expect(answers[7].header("RateLimit-Policy") == nil, "SharePoint's minute is not named")
        #expect(answers[10].status == 429)
        let retryAfter = Int(answers[10].header("Retry-After") ?? "") ?? 0
        #expect((1...60).contains(retryAfter), "the rest of the minute")
        let report = site.resourceBudgetReport()
        #expect(report.requestsAnswered == 10 && report.unitsAnswered == 10)
        #expect(report.throttled429 == 1 && report.throttledAfterFirstRateLimitHeaders == 1)
    }

    @Test func requestsCostWhatMicrosoftPublishes() async throws {
        let site = try Self.site("app=1000")
        defer { site.stop() }
        let browser = Browser()
        var spent = 0
        for (path, method, units) in [
            ("/_api/web", "GET", 1), ("/_api/web/lists", "GET", 2), ("/_api/web/lists(guid'x')/items(3)", "GET", 1),
            ("/_api/web/roleassignments", "GET", 5), ("/_api/web/lists/getbytitle('Documents')/items", "POST", 2),
            ("/_api/contextinfo", "POST", 1), ("/Shared Documents/report.docx", "GET", 1),
            ("/_layouts/15/authenticate.aspx", "GET", 0),
        ] {
            let url = site.siteURL + path.replacingOccurrences(of: " ", with: "%20")
            _ = try await browser.request(url, method: method, headers: [Self.decorated])
            spent += units
            #expect(site.resourceBudgetReport().unitsAnswered == spent, "\(method) \(path) costs \(units)")
        }
    }

    @Test func undecoratedTrafficIsThrottledFirst() async throws {
        let site = try Self.site("app=10,undecorated=0.5")
        defer { site.stop() }
        let browser = Browser()
        var undecorated: [Int] = []
        var decorated: [Int] = []
        for _ in 0..<6 {
            undecorated.append(
                try await browser.request(site.siteURL + "/_api/web", headers: ["User-Agent: curl"]).status)
            decorated.append(try await browser.request(site.siteURL + "/_api/web", headers: [Self.decorated]).status)
        }
        #expect(undecorated.last == 429, "half of the budget: \(undecorated)")
        #expect(!decorated.contains(429), "\(decorated)")
    }

    @Test func aSpentDayIs503AndAFixedRetryAfterIsSent() async throws {
        let site = try Self.site("appDay=3,retryAfter=120")
        defer { site.stop() }
        let browser = Browser()
        var last: Answer?
        for _ in 0..<4 { last = try await browser.request(site.siteURL + "/_api/web", headers: [Self.decorated]) }
        #expect(last?.status == 503)
        #expect(last?.header("Retry-After") == "120")
        #expect(site.resourceBudgetReport().throttled503 == 1)
    }

    @Test func shortenedWindowsAreNamedAndRenewed() async throws {
        // Four-second windows, asked until one holds 80 % of its budget: five requests in one second need not fall in
        // one window on a loaded machine.
        let site = try Self.site("app=5,window=4")
        defer { site.stop() }
        let browser = Browser()
        var statuses: [Int] = []
        var policy: String?
        var reset: Int?
        for _ in 0..<20 where policy == nil {
            let answer = try await browser.request(site.siteURL + "/_api/web", headers: [Self.decorated])
            statuses.append(answer.status)
            policy = answer.header("RateLimit-Policy")
            reset = answer.header("RateLimit-Reset").flatMap { Int($0) }
        }
        #expect(policy == "5;w=4", "\(statuses)")
        // Past the reset the server named, a new window begins.
        try await Task.sleep(for: .milliseconds((reset ?? 4) * 1000 + 200))
        let next = try await browser.request(site.siteURL + "/_api/web", headers: [Self.decorated])
        #expect(next.status != 429 && next.header("RateLimit-Limit") == nil, "a new window: \(statuses)")
    }

    @Test func badSpecificationsSayWhatIsWrong() {
        #expect(throws: ResourceBudgetModel.ParseError.self) { try ResourceBudgetModel(parsing: "app=0") }
        #expect(throws: ResourceBudgetModel.ParseError.self) { try ResourceBudgetModel(parsing: "apps=10") }
        #expect(throws: ResourceBudgetModel.ParseError.self) { try ResourceBudgetModel(parsing: "undecorated=2") }
        #expect((try? ResourceBudgetModel(parsing: ""))?.appPerMinute == 1250)
    }
}
