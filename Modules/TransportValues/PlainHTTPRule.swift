/// Where a client may send requests over plain http. Credentials and session cookies travel in clear over
/// http, so a client that holds a session made over https never uses it.
public enum PlainHTTPRule: Sendable, Equatable {
    /// Any http URL (a general-purpose client, no session of its own).
    case anywhere
    /// http only to loopback addresses (a session made over http to a local simulator or tunnel).
    case loopbackOnly
    /// Never: every request, redirect hop and next link must use https.
    case never

    /// Whether a plain-http request to `host` is allowed.
    public func allows(host: String?) -> Bool {
        switch self {
        case .anywhere: return true
        case .loopbackOnly: return host.map(Self.isLoopback) ?? false
        case .never: return false
        }
    }

    /// 127.0.0.0/8 (written as four decimal octets), `::1` (with or without brackets) or `localhost`.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
