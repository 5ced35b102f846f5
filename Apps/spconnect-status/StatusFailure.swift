import SharePoint
import Transport

/// A request that could not be answered, in the user's words: the HTTP status, what failed (the page's heading),
/// what to do (the sentence below it) and, on a second line, the server's own code (`HTTP 404 · -1,
/// System.ArgumentException`) or the kind of network failure. None of it is raw REST text: no server message, no
/// `_api` URL, no markup.
struct StatusFailure: Error, Sendable, Equatable {
    var status: Int
    /// What failed: "There is no list named “Tasks”".
    var title: String
    /// What to do about it.
    var message: String
    /// The server's code or the network failure's kind, shown small on a second line; nil when there is none.
    var detail: String?
    /// A page of the app to go to instead (the list of a library that is not a picture library), or nil.
    var onward: Onward?

    /// A link from an error page to a page of the app.
    struct Onward: Sendable, Equatable {
        var label: String
        /// The app-relative path, already percent-encoded (the access token is added when linking).
        var path: String
    }

    init(status: Int, title: String, message: String, detail: String? = nil, onward: Onward? = nil) {
        self.status = status
        self.title = title
        self.message = message
        self.detail = detail
        self.onward = onward
    }

    /// A SharePoint failure while doing `what` ("read the list “Tasks”"): 404 for what does not exist, 503 for a
    /// session that ended or a busy server, 403 for no permission, 502 otherwise.
    init(_ error: SharePointError, doing what: String, subject: String? = nil) {
        let detail = Self.detail(error)
        switch error.kind {
        case .listNotFound:
            self.init(
                status: 404, title: "There is no list named “\(subject ?? "?")”",
                message: "Check the name on the Lists page: lists are found by their title.", detail: detail)
        case .fileNotFound, .itemNotFound, .notFound:
            self.init(
                status: 404, title: "Not found: could not \(what)",
                message: "It may have been moved or deleted. Go back to the list and reload it.", detail: detail)
        case .authenticationRequired, .formsAuthRequired:
            self.init(
                status: 503, title: "The session has ended",
                message: "Use “Sign in again” on the Session page, or run spconnect login, then reload.",
                detail: detail)
        case .accessDenied:
            self.init(
                status: 403, title: "Access denied: could not \(what)",
                message: "The signed-in account may not see this. Ask a site owner for access.", detail: detail)
        case .throttled:
            let seconds = error.kind.retryAfter
            self.init(
                status: 503, title: "SharePoint is busy",
                message: "It asked to slow down. Wait \(seconds.map { "\($0) seconds" } ?? "a minute"), then reload.",
                detail: detail)
        case .thresholdExceeded:
            self.init(
                status: 502, title: "The list is too large to \(what) this way",
                message: "SharePoint refuses queries over its list view threshold. Page through it with spconnect.",
                detail: detail)
        case .transport where [.plainHTTPRefused, .insecureRedirect].contains(error.kind.transportKind):
            self.init(
                status: 502, title: "Refused to send the session over plain http",
                message:
                    "SharePoint pointed the app at an http:// address, and a session made over https is never sent"
                    + " in clear. Ask the site's administrator to fix the address.",
                detail: detail)
        case .transport where error.kind.transportKind == .tls:
            self.init(
                status: 502, title: "SharePoint's certificate is not trusted",
                message: "Start the app with --cacert FILE naming your organisation's CA certificates.",
                detail: detail)
        case .transport:
            self.init(
                status: 502, title: "SharePoint cannot be reached",
                message: "Check the network connection (or VPN) and the site's address, then reload.", detail: detail)
        default:
            self.init(
                status: 502, title: "SharePoint could not \(what)",
                message:
                    "Reload in a moment. If it keeps failing, show the code below to the site's administrator.",
                detail: detail)
        }
    }

    /// The second line: `HTTP 404 · -1, System.ArgumentException` for a server answer, the kind of failure
    /// (`no connection: Couldn't connect to server`) when there was none.
    static func detail(_ error: SharePointError) -> String? {
        if let kind = error.kind.transportKind { return "No answer: " + transportPhrase(kind) }
        guard error.status > 0 else { return nil }
        return "HTTP \(error.status)" + (error.rawCode.map { " · " + $0 } ?? "")
    }

    /// A few words for each kind of network failure.
    static func transportPhrase(_ kind: TransportError.Kind) -> String {
        switch kind {
        case .dns: return "the host name was not found"
        case .connect: return "the connection was refused or failed"
        case .tls: return "the TLS handshake failed"
        case .timeout: return "timed out"
        case .network: return "the connection broke"
        case .plainHTTPRefused: return "plain http refused for an https session"
        case .insecureRedirect: return "a redirect to plain http was refused"
        case .cancelled: return "cancelled"
        case .redirectLimit: return "too many redirects"
        case .tooLarge, .headersTooLarge: return "the answer was too large"
        case .protocol: return "an unexpected reply"
        case .io: return "a local file could not be used"
        case .invalidRequest: return "the address is not valid"
        default: return "the request failed"  // a kind Transport added later
        }
    }

    /// The failure as one sentence, for the session page's state and `/status.json`'s `reason`.
    var sentence: String {
        title + ". " + message
    }
}
