/// The one error type of the Transport module: what failed, libcurl's own words, and where.
///
/// A plain immutable value: safe to share across threads.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// The broad class of failure; switch on it to decide what to do.
    public enum Kind: String, Sendable, Hashable {
        /// The host name could not be resolved.
        case dns
        /// No TCP connection could be made (refused, unreachable).
        case connect
        /// The TLS handshake or certificate check failed.
        case tls
        /// A connect, total or low-speed timeout was hit.
        case timeout
        /// The response body passed the configured size cap.
        case tooLarge
        /// The response headers passed libcurl's or the client's size limit.
        case headersTooLarge
        /// The calling task was cancelled.
        case cancelled
        /// More redirects than `RedirectPolicy.follow(max:)` allows.
        case redirectLimit
        /// A redirect from https to http while the request carried credentials.
        case insecureRedirect
        /// A request, redirect hop or next link to plain http that the client's ``PlainHTTPRule`` forbids: the
        /// session was made over https, so its cookies and credentials must not travel in clear. Nothing was sent.
        case plainHTTPRefused
        /// The connection broke mid-exchange (reset, empty reply, short body).
        case network
        /// The server spoke something that is not valid HTTP, or a proxy failed.
        case `protocol`
        /// Reading the upload file or writing the download destination failed.
        case io
        /// The request itself is unusable (bad URL, unsupported scheme, bad option).
        case invalidRequest
    }

    /// What failed.
    public let kind: Kind
    /// libcurl's own text (its error buffer, or `curl_easy_strerror`), or other low-level detail.
    public let detail: String
    /// The URL of the exchange that failed, when there was one (secret query values and userinfo redacted,
    /// so errors can be logged as they are).
    public let url: String?
    /// A short human sentence about the failure, without advice.
    public let message: String

    /// Creates an error. `message` is the short summary; `description` adds advice from `kind`.
    public init(kind: Kind, detail: String, url: String?, message: String) {
        self.kind = kind
        self.detail = detail
        self.url = url.map { TraceRedaction.url($0) }
        self.message = message
    }

    /// A sentence a user can act on: the summary, libcurl's detail, and what to try next.
    public var description: String {
        var text = message
        if !detail.isEmpty && detail != message { text += " (\(detail))" }
        text += "."
        switch kind {
        case .dns: text += " Check the host name, your DNS settings, or the proxy."
        case .connect: text += " Check that the server is up and reachable, or set a proxy."
        case .tls: text += " Pass a CA file, or --insecure for one run."
        case .timeout: text += " The server is slow or unreachable; retry later or raise the timeout."
        case .tooLarge: text += " Stream the body to a file instead, or raise the size limit."
        case .headersTooLarge: text += " Nothing was read from it; check the URL, or ask the site's administrator."
        case .cancelled: break
        case .redirectLimit: text += " The server is probably redirecting in a loop."
        case .insecureRedirect: text += " Refusing to send credentials over plain http; use an https URL."
        case .plainHTTPRefused:
            text += " The session was made over https and its cookies are never sent in clear; use the https address."
        case .network: text += " The connection broke; retrying may help."
        case .protocol: text += " The server or proxy sent an unexpected reply."
        case .io: text += " Check the file path, permissions and free space."
        case .invalidRequest: text += " Check the URL and options."
        }
        return text
    }
}

extension TransportError {
    static func cancelled(_ url: String?) -> TransportError {
        TransportError(kind: .cancelled, detail: "", url: url, message: "the request was cancelled")
    }

    static func invalid(_ message: String, url: String?) -> TransportError {
        TransportError(kind: .invalidRequest, detail: "", url: url, message: message)
    }
}
