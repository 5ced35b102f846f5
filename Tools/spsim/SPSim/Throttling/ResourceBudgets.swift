import Cryptography
public import Foundation
import HTTPServer

/// What the budgets did over a run (``Simulator/resourceBudgetReport()``): the units the answered requests cost,
/// the throttled answers, and when the first `RateLimit` headers went out.
public struct ResourceBudgetReport: Sendable, Equatable {
    /// Requests answered (not throttled) and the units they cost.
    public var requestsAnswered = 0
    public var unitsAnswered = 0
    /// Answers 429 (a minute's budget spent) and 503 (a day's).
    public var throttled429 = 0
    public var throttled503 = 0
    /// Throttled answers after the first answer that carried `RateLimit` headers.
    public var throttledAfterFirstRateLimitHeaders = 0
    /// Seconds from the simulator's start to the first answer with `RateLimit` headers, nil when none was sent.
    public var firstRateLimitHeadersAt: Double?
    /// Seconds from the simulator's start to the first and the last metered request.
    public var firstRequestAt: Double?
    public var lastRequestAt: Double?
}

/// The units spent in the current windows, per app and for the tenant (``ResourceBudgetModel``).
struct ResourceBudgetState {
    /// A fixed window's number (minutes or days since the start) and the units spent in it.
    struct Window {
        var number = 0
        var spent = 0

        /// Spends `units` in window `current`, starting it afresh when the window changed.
        mutating func spend(_ units: Int, in current: Int) {
            if current != number { (number, spent) = (current, 0) }
            spent += units
        }
    }

    var appMinutes: [String: Window] = [:]
    var appDays: [String: Window] = [:]
    var tenantMinute = Window()
    var tenantDay = Window()
    var report = ResourceBudgetReport()
}

extension SimulatorCore {
    /// The throttled answer for a metered site request over its budget, or nil with the `RateLimit` headers its
    /// answer carries (none before 80 % of the minute is used). Nil and no headers when budgets are off or the
    /// request is not metered.
    func budgetGate(_ request: HTTPServerRequest) -> (
        throttled: HTTPServerResponse?, headers: [(name: String, value: String)]
    ) {
        guard let model = options.resourceBudgets,
            let units = ResourceCost.of(request, isWebDAV: isWebDAVRequest(request))
        else { return (nil, []) }
        let now = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
        let app = budgetKey(request)
        let userAgent = request.header("User-Agent") ?? ""
        let share = userAgent.hasPrefix("NONISV|") || userAgent.hasPrefix("ISV|") ? 1 : model.undecoratedShare
        let window = Double(model.windowSeconds)
        let minute = Int(now / window)
        let day = Int(now / 86_400)
        func limit(_ units: Int) -> Int { max(1, Int(Double(units) * share)) }
        return resourceBudgets.withLock { budgets in
            var appMinute = budgets.appMinutes[app] ?? .init()
            var appDay = budgets.appDays[app] ?? .init()
            // A throttled request still counts.
            appMinute.spend(units, in: minute)
            appDay.spend(units, in: day)
            budgets.tenantMinute.spend(units, in: minute)
            budgets.tenantDay.spend(units, in: day)
            (budgets.appMinutes[app], budgets.appDays[app]) = (appMinute, appDay)
            if budgets.report.firstRequestAt == nil { budgets.report.firstRequestAt = now }
            budgets.report.lastRequestAt = now
            let dayOver = appDay.spent > limit(model.appPerDay) || budgets.tenantDay.spent > limit(model.tenantPerDay)
            let minuteOver =
                appMinute.spent > limit(model.appPerMinute) || budgets.tenantMinute.spent > limit(model.tenantPerMinute)
            if dayOver || minuteOver {
                let windowEnd = dayOver ? Double(day + 1) * 86_400 : Double(minute + 1) * window
                let wait = model.retryAfterSeconds ?? max(1, Int((windowEnd - now).rounded(.up)))
                if dayOver { budgets.report.throttled503 += 1 } else { budgets.report.throttled429 += 1 }
                if budgets.report.firstRateLimitHeadersAt != nil {
                    budgets.report.throttledAfterFirstRateLimitHeaders += 1
                }
                let status = dayOver ? 503 : 429
                return (
                    HTTPServerResponse(
                        status: status, contentType: "text/plain; charset=utf-8",
                        text: dayOver ? "Service Unavailable" : "Too Many Requests",
                        headers: [("Retry-After", String(wait))] + standardHeaders()),
                    []
                )
            }
            budgets.report.requestsAnswered += 1
            budgets.report.unitsAnswered += units
            // The headers of the budget nearest its end, once it is 80 % used.
            let appLimit = limit(model.appPerMinute)
            let tenantLimit = limit(model.tenantPerMinute)
            let (limitStated, spent) =
                Double(appMinute.spent) / Double(appLimit) >= Double(budgets.tenantMinute.spent) / Double(tenantLimit)
                ? (appLimit, appMinute.spent) : (tenantLimit, budgets.tenantMinute.spent)
            guard spent * 5 >= limitStated * 4 else { return (nil, []) }
            if budgets.report.firstRateLimitHeadersAt == nil { budgets.report.firstRateLimitHeadersAt = now }
            let reset = max(1, Int((Double(minute + 1) * window - now).rounded(.up)))
            let policy =
                model.windowSeconds == 60 ? [] : [("RateLimit-Policy", "\(limitStated);w=\(model.windowSeconds)")]
            return (
                nil,
                [
                    ("RateLimit-Limit", String(limitStated)),
                    ("RateLimit-Remaining", String(max(0, limitStated - spent))),
                    ("RateLimit-Reset", String(reset)),
                ] + policy
            )
        }
    }

    /// The app a request is counted for: the `appid` of its bearer token, else its `User-Agent`.
    private func budgetKey(_ request: HTTPServerRequest) -> String {
        if let token = bearerToken(request), case let parts = token.split(separator: "."), parts.count == 3,
            let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
            let appId = claims["appid"] as? String
        {
            return "app:" + appId.lowercased()
        }
        return "agent:" + (request.header("User-Agent") ?? "")
    }
}
