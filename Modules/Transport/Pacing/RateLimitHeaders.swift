import Foundation

/// A server's account of the caller's request budget, from the `RateLimit-Limit`, `RateLimit-Remaining` and
/// `RateLimit-Reset` headers (the IETF httpapi draft's fields, which SharePoint Online sends once an app has used
/// 80 % of its one-minute budget). The units are the server's: requests, or SharePoint's resource units.
public struct RateLimitHeaders: Sendable, Equatable {
    /// Units the window allows.
    public let limit: Int
    /// Units left in the current window.
    public let remaining: Int
    /// Seconds until the current window ends and `limit` units are allowed again.
    public let resetSeconds: Int
    /// The window's length in seconds when the server names it (the draft's `RateLimit-Policy: 1250;w=60`); nil:
    /// SharePoint Online's minute.
    public let windowSeconds: Int?

    /// The three values; negative ones are read as zero.
    public init(limit: Int, remaining: Int, resetSeconds: Int, windowSeconds: Int? = nil) {
        self.limit = max(0, limit)
        self.remaining = max(0, remaining)
        self.resetSeconds = max(0, resetSeconds)
        self.windowSeconds = windowSeconds.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The budget `headers` state, nil unless all three fields are there as whole numbers and the limit is
    /// above zero. `RateLimit-Reset` is the draft's delta-seconds; a larger number than a day is taken as a date
    /// by servers that send one, which this reader does not follow (nil).
    public init?(_ headers: HTTPHeaders) {
        func number(_ name: String) -> Int? {
            guard let text = headers[name] else { return nil }
            // The draft allows parameters after the value (`100;w=60`); the number is before them.
            let value = text.split(separator: ";", maxSplits: 1).first.map(String.init) ?? text
            return Int(value.trimmingCharacters(in: .whitespaces))
        }
        guard let limit = number("RateLimit-Limit"), let remaining = number("RateLimit-Remaining"),
            let reset = number("RateLimit-Reset"), limit > 0, reset <= 86_400
        else { return nil }
        // `RateLimit-Policy: 1250;w=60`: the first policy's window.
        let policy = headers["RateLimit-Policy"]?.split(separator: ",").first ?? ""
        let window = policy.split(separator: ";").dropFirst().lazy
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("w=") }
            .flatMap { Int($0.dropFirst(2)) }
        self.init(limit: limit, remaining: remaining, resetSeconds: reset, windowSeconds: window)
    }
}
