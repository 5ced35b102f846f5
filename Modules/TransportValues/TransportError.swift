/// The one error type of the Transport module: what failed, libcurl's own words, and where.
///
/// A plain immutable value: safe to share across threads.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// The broad class of failure; compare it (`error.kind == .timeout`) or switch on it, with a `default:`, to
    /// decide what to do.
    ///
    /// An open set of codes: a later version may add one without breaking a client's `switch` (the codes are
    /// private storage behind static members, as async-http-client's `HTTPClientError` keeps them). Two kinds are
    /// equal when their codes are; ``description`` is the code's name (`timeout`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Code: String, Sendable, Hashable {
            case dns, connect, tls, timeout, tooLarge, headersTooLarge, cancelled, redirectLimit, insecureRedirect
            case plainHTTPRefused, network, `protocol`, io, invalidRequest
        }

        fileprivate let code: Code

        private init(_ code: Code) { self.code = code }

        /// The code's name, as the enum case it replaced printed (`timeout`, `plainHTTPRefused`).
        public var description: String { code.rawValue }

        /// The host name could not be resolved.
        public static let dns = Kind(.dns)
        /// No TCP connection could be made (refused, unreachable).
        public static let connect = Kind(.connect)
        /// The TLS handshake or certificate check failed.
        public static let tls = Kind(.tls)
        /// A connect, total or low-speed timeout was hit.
        public static let timeout = Kind(.timeout)
        /// The response body passed the configured size cap.
        public static let tooLarge = Kind(.tooLarge)
        /// The response headers passed libcurl's or the client's size limit.
        public static let headersTooLarge = Kind(.headersTooLarge)
        /// The calling task was cancelled.
        public static let cancelled = Kind(.cancelled)
        /// More redirects than `RedirectPolicy.follow(max:)` allows.
        public static let redirectLimit = Kind(.redirectLimit)
        /// A redirect from https to http while the request carried credentials.
        public static let insecureRedirect = Kind(.insecureRedirect)
        /// A request, redirect hop or next link to plain http that the client's ``PlainHTTPRule`` forbids: the
        /// session was made over https, so its cookies and credentials must not travel in clear. Nothing was sent.
        public static let plainHTTPRefused = Kind(.plainHTTPRefused)
        /// The connection broke mid-exchange (reset, empty reply, short body).
        public static let network = Kind(.network)
        /// The server spoke something that is not valid HTTP, or a proxy failed.
        public static let `protocol` = Kind(.`protocol`)
        /// Reading the upload file or writing the download destination failed.
        public static let io = Kind(.io)
        /// The request itself is unusable (bad URL, unsupported scheme, bad option).
        public static let invalidRequest = Kind(.invalidRequest)
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
        switch kind.code {
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
    package static func cancelled(_ url: String?) -> TransportError {
        TransportError(kind: .cancelled, detail: "", url: url, message: "the request was cancelled")
    }

    package static func invalid(_ message: String, url: String?) -> TransportError {
        TransportError(kind: .invalidRequest, detail: "", url: url, message: message)
    }
}
