extension PlainHTTPRule {
    /// The rule for a client that holds a session of the site at `url`: ``never`` for an https site,
    /// ``loopbackOnly`` for an http site on a loopback address, else ``anywhere`` (an http site's cookies already
    /// travel in clear).
    public static func forSession(of url: String) -> PlainHTTPRule {
        guard let parsed = CurlURL(url) else { return .never }
        switch parsed.scheme {
        case "https": return .never
        case "http": return isLoopback(parsed.host ?? "") ? .loopbackOnly : .anywhere
        default: return .never
        }
    }
}
