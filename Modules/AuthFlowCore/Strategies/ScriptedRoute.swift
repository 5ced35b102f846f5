/// A sign-in route that is not a series of pages but a fixed exchange of service calls (SOAP, JSON): the
/// legacy SharePoint Online route, ADFS WS-Trust, SharePoint's FBA web service. The machine offers each
/// response to the route first; a route that returns nil leaves the response to the machine's own rules
/// (redirects, target cookies, proof).
protocol ScriptedRoute: Sendable {
    /// A short name for traces.
    var name: String { get }
    /// The first request, or nil to start at the site's sign-in entry and let `next(after:)` take over.
    mutating func start() -> SignInRequest?
    /// The route's move after `response`, or nil to let the machine handle it.
    mutating func next(after response: SignInResponse) -> StrategyDecision?
}

/// Small XML helpers for the SOAP routes (element text by local name, escaping).
enum SOAPText {
    /// The text of the first element with local name `name` (any namespace prefix), still escaped.
    static func element(_ name: String, in xml: String) -> String? {
        let pattern = "<(?:[A-Za-z0-9_]+:)?\(name)(?:\\s[^>]*)?>([^<]*)</(?:[A-Za-z0-9_]+:)?\(name)>"
        guard let range = xml.range(of: pattern, options: .regularExpression) else { return nil }
        let match = xml[range]
        guard let open = match.firstIndex(of: ">"), let close = match.range(of: "</", options: .backwards) else {
            return nil
        }
        return String(match[match.index(after: open)..<close.lowerBound])
    }

    /// The whole first element with local name `name`, markup included (for an assertion to pass on).
    static func wholeElement(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<(?:[A-Za-z0-9_]+:)?\(name)[\\s>]", options: .regularExpression),
            let end = xml.range(
                of: "</(?:[A-Za-z0-9_]+:)?\(name)>", options: .regularExpression, range: start.upperBound..<xml.endIndex
            )
        else { return nil }
        return String(xml[start.lowerBound..<end.upperBound])
    }

    /// The WS-Security header element carrying a user name and password (WS-Trust requests).
    static func usernameTokenSecurity(_ configuration: SignInConfiguration) -> String {
        "<o:Security s:mustUnderstand=\"1\" "
            + "xmlns:o=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\">"
            + "<o:UsernameToken><o:Username>\(escape(configuration.username))</o:Username>"
            + "<o:Password>\(escape(configuration.password.revealedValue()))</o:Password></o:UsernameToken>"
            + "</o:Security>"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
