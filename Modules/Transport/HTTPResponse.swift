/// The answer to one `HTTPRequest` (the last hop when redirects were followed).
///
/// A plain immutable value: safe to share across threads.
public struct HTTPResponse: Sendable {
    /// The status code (200, 302, ...).
    public let status: Int
    /// Response headers of the final response, in order.
    public let headers: HTTPHeaders
    /// The body, when the destination was `.memory`; empty otherwise.
    public let body: [UInt8]
    /// The URL this response came from (the last hop).
    public let url: String
    /// For a 3xx with `Location`, the absolute target (resolved against `url`); nil otherwise.
    public let redirectLocation: String?
    /// `HTTP/1.0`, `HTTP/1.1`, `HTTP/2` or `HTTP/3`.
    public let httpVersion: String
    /// Phase timings of the last transfer.
    public let timings: Timings
    /// Body bytes uploaded by the last transfer.
    public let bytesSent: Int64
    /// Body bytes downloaded by the last transfer.
    public let bytesReceived: Int64
    /// Transfers made for the last hop (1 when no retry happened).
    public let attempts: Int
    /// Every URL visited, first request first, this response's URL last.
    public let urlChain: [String]

    /// Creates a response value (for fakes in tests of higher layers; the client builds its own).
    public init(
        status: Int, headers: HTTPHeaders = [:], body: [UInt8] = [], url: String, redirectLocation: String? = nil,
        httpVersion: String = "HTTP/1.1", timings: Timings = .zero, bytesSent: Int64 = 0, bytesReceived: Int64 = 0,
        attempts: Int = 1, urlChain: [String]? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.redirectLocation = redirectLocation
        self.httpVersion = httpVersion
        self.timings = timings
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.attempts = attempts
        self.urlChain = urlChain ?? [url]
    }

    /// The body decoded as UTF-8 (invalid bytes become U+FFFD).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Phase timings from libcurl (`CURLINFO_*_TIME_T`), each measured from the start of the transfer.
    public struct Timings: Sendable, Equatable {
        /// Name resolution done.
        public var dns: Duration
        /// TCP connection made.
        public var connect: Duration
        /// TLS handshake done (zero for plain http).
        public var tls: Duration
        /// First response byte received.
        public var firstByte: Duration
        /// Transfer complete.
        public var total: Duration

        /// All zero.
        public static let zero = Timings(dns: .zero, connect: .zero, tls: .zero, firstByte: .zero, total: .zero)
    }
}

/// One trace record per exchange (per transfer, retries included), with secrets redacted.
///
/// Redacted: values of `Cookie`, `Set-Cookie`, `Authorization` and `Proxy-Authorization` (cookie names are
/// kept); values of secret-looking query parameters (pass, pwd, secret, token, wresult, SAMLResponse, canary,
/// flowtoken, code, sig, ...) in the URL and in `Location`; request bodies are never recorded, only form field
/// names.
public struct TraceRecord: Sendable {
    /// The method sent.
    public let method: String
    /// The URL of this exchange.
    public let url: String
    /// The status, or nil when the transfer failed.
    public let status: Int?
    /// The attempt number for this hop (1 for the first).
    public let attempt: Int
    /// Request headers as sent on the wire (libcurl's own, such as `Cookie`, included), redacted.
    public let requestHeaders: [(name: String, value: String)]
    /// Response headers (of every response block, e.g. an NTLM 401 then the 200), redacted.
    public let responseHeaders: [(name: String, value: String)]
    /// Names of form fields sent (values are never recorded).
    public let formFieldNames: [String]
    /// Phase timings.
    public let timings: HTTPResponse.Timings
    /// Body bytes uploaded and downloaded.
    public let bytesSent: Int64
    /// Body bytes downloaded.
    public let bytesReceived: Int64
    /// The error's description when the transfer failed.
    public let error: String?
    /// The wait before the exchange is sent again (throttled, unavailable, or the connection failed or broke), or
    /// nil when this transfer's outcome stands.
    public var retryIn: Duration? = nil

    /// Every string in the record, for audits and tests.
    public var allStrings: [String] {
        var strings = [method, url] + formFieldNames
        for header in requestHeaders + responseHeaders { strings += [header.name, header.value] }
        if let error { strings.append(error) }
        return strings
    }
}
