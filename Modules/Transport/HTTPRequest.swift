/// One HTTP exchange to perform: method, URL, headers, body and per-request options.
///
/// A plain value: build it, copy it, send it from any task. Printing it (`description`, `dump`) never shows
/// body values, credentials or secret headers.
public struct HTTPRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The request body.
    public enum Body: Sendable {
        /// No body.
        case none
        /// Raw bytes (`Content-Type` defaults to `application/octet-stream`).
        case bytes([UInt8])
        /// Ordered form fields, encoded as `application/x-www-form-urlencoded` (WHATWG: space becomes `+`).
        case form([(name: String, value: String)])
        /// A file streamed from disk with a read callback (never loaded whole into memory).
        case file(path: String)
    }

    /// The HTTP method (`GET`, `POST`, `MERGE`, ...), sent as given.
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Request headers, sent in order.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// Credentials handed to libcurl, or nil.
    public var auth: Authentication?
    /// A TLS client certificate for this request's handshake, or nil. The request then always opens a connection
    /// of its own, and no other request reuses it.
    public var clientCertificate: ClientCertificate?
    /// Timeouts for each transfer of this request.
    public var timeouts: HTTPTimeouts
    /// `.manual` (default) returns a 3xx as is; `.follow(max:)` follows hop by hop with browser rules.
    public var redirects: RedirectPolicy
    /// The retry policy; nil uses the client's.
    public var retry: RetryPolicy?
    /// Where the response body goes.
    public var responseBody: ResponseBodyDestination
    /// Called on the transfer thread as bytes move; keep it short and do not block. Counts are per transfer:
    /// they start again from zero on a retry or a redirect hop.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Called on the transfer thread when the status and headers of an answer have arrived, before its body: for
    /// passing an answer on while it arrives (a proxy, with a ``ResponseBodyDestination/sink(_:)``). Not called for
    /// an informational answer, a redirect that is followed, or the 401 of an NTLM or Negotiate handshake; called
    /// again on each retry. Keep it short and do not block.
    public var responseHead: (@Sendable (HTTPResponseHead) -> Void)?

    /// Creates a request; everything but the URL has a default.
    public init(
        method: String = "GET", url: String, headers: HTTPHeaders = [:], body: Body = .none,
        auth: Authentication? = nil, timeouts: HTTPTimeouts = HTTPTimeouts(), redirects: RedirectPolicy = .manual,
        retry: RetryPolicy? = nil, responseBody: ResponseBodyDestination = .memory(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.auth = auth
        self.timeouts = timeouts
        self.redirects = redirects
        self.retry = retry
        self.responseBody = responseBody
        self.progress = progress
    }

    /// `METHOD URL` (secret query values redacted).
    public var description: String { "\(method) \(TraceRedaction.url(url))" }

    /// `METHOD URL`, the redacted headers and a summary of the body (form field names only).
    public var debugDescription: String {
        "HTTPRequest(\(description), headers: \(headers.debugDescription), body: \(bodySummary)"
            + (auth == nil ? "" : ", auth: <redacted>") + ")"
    }

    /// Method, redacted URL, headers and body summary, for `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method, "url": TraceRedaction.url(url), "headers": headers, "body": bodySummary,
                "auth": auth == nil ? "none" : TraceRedaction.marker,
            ])
    }

    private var bodySummary: String {
        switch body {
        case .none: "none"
        case .bytes(let bytes): "\(bytes.count) bytes"
        case .form(let fields): "form(\(fields.map(\.name).joined(separator: ", ")))"
        case .file(let path): "file(\(path))"
        }
    }

    /// Whether the method is idempotent (GET, HEAD, OPTIONS, PUT, DELETE), so retries are safe.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"].contains(method.uppercased())
    }

    /// Headers that carry credentials: dropped when a redirect leaves the origin, and never sent from https to
    /// http.
    public static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization", "X-RequestDigest"]

    /// Whether the request carries credentials: `auth`, a header of ``credentialHeaders``, or any body.
    public var carriesCredentials: Bool {
        if auth != nil || Self.credentialHeaders.contains(where: headers.contains) { return true }
        if case .none = body { return false }
        return true
    }
}

/// What to do with a 3xx response.
public enum RedirectPolicy: Sendable, Equatable {
    /// Return the 3xx as is; `HTTPResponse.redirectLocation` holds the absolute target.
    case manual
    /// Follow up to `max` hops in Swift with browser rules (303, and POST after 301/302, become GET;
    /// 307/308 keep method and body); more hops throw `.redirectLimit`.
    case follow(max: Int)
}

/// Timeouts of one transfer. nil or zero means no limit.
public struct HTTPTimeouts: Sendable, Equatable {
    /// Limit for the TCP + TLS connection phase.
    public var connect: Duration?
    /// Limit for the whole transfer.
    public var total: Duration?
    /// Abort when fewer than `lowSpeedLimit` bytes per second move for `lowSpeedTime`.
    public var lowSpeedLimit: Int
    /// See `lowSpeedLimit`.
    public var lowSpeedTime: Duration?

    /// Defaults: 15 s to connect, no total limit, abort when the transfer stalls (below 16 bytes/s for 30 s: a
    /// server trickling a page a byte at a time counts as stalled).
    public init(
        connect: Duration? = .seconds(15), total: Duration? = nil, lowSpeedLimit: Int = 16,
        lowSpeedTime: Duration? = .seconds(30)
    ) {
        self.connect = connect
        self.total = total
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
    }
}

/// When and how often to retry a failed exchange.
///
/// Retried, with capped exponential backoff and jitter (a random wait between half and all of the capped delay):
/// - a connection that could not be made (refused, unreachable), and the statuses in `statuses` (429 and 503 by
///   default: the server says it did nothing), for idempotent methods, and for the others too when
///   `retryNonIdempotent`;
/// - a connection that broke (reset, closed early, a body cut short), a timeout, and the statuses in
///   `transientStatuses` (502 and 504: a gateway that failed or gave up), for idempotent methods only, since a
///   request that reached the server may have been carried out. A GET streamed to a file that broke after part of
///   the body arrived is resumed where it stopped (``HTTPClient/execute(_:)`` says when).
///
/// `Retry-After` (seconds or HTTP date) is honoured up to `maxRetryAfter`. A 500 is an answer, not a failure to
/// reach the server (SharePoint sends it for a query it cannot run), so it is not retried unless listed.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in total, including the first (1 = never retry).
    public var maxAttempts: Int
    /// Backoff before the second attempt; doubled each time.
    public var baseDelay: Duration
    /// Backoff ceiling.
    public var maxDelay: Duration
    /// A longer `Retry-After` is not waited for: the response is returned instead.
    public var maxRetryAfter: Duration
    /// Statuses that are retried (the server did nothing: throttled, or unavailable).
    public var statuses: Set<Int>
    /// Statuses that are retried for idempotent methods only: the server may have carried the request out.
    public var transientStatuses: Set<Int>
    /// Also retry POST, PATCH, MERGE and other non-idempotent methods on a refused connection and on `statuses`.
    public var retryNonIdempotent: Bool
    /// Attempts in total when no connection could be made (refused, unreachable), never more than
    /// ``maxAttempts``. A server that refuses connections rarely starts accepting them within seconds, so a client
    /// that waits for throttling (many attempts) can still give up quickly on a server that is down.
    public var maxConnectAttempts: Int

    /// Defaults: 3 attempts (3 also when the connection fails), 0.5 s doubling to 8 s, `Retry-After` up to 60 s,
    /// statuses 429 and 503, and 502 and 504 for idempotent methods.
    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(8),
        maxRetryAfter: Duration = .seconds(60), statuses: Set<Int> = [429, 503],
        transientStatuses: Set<Int> = [502, 504], retryNonIdempotent: Bool = false, maxConnectAttempts: Int = 3
    ) {
        self.maxConnectAttempts = maxConnectAttempts
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.statuses = statuses
        self.transientStatuses = transientStatuses
        self.retryNonIdempotent = retryNonIdempotent
    }

    /// Never retry.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The backoff before attempt `attempt + 1` (attempt counts from 1), with jitter.
    func backoff(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 20)
        let ceiling = min(baseDelay * (1 << exponent), maxDelay)
        let ms = ceiling.milliseconds
        return ms <= 0 ? .zero : .milliseconds(Int.random(in: (ms / 2)...ms))
    }
}

/// The status and headers of an answer whose body is still on its way (``HTTPRequest/responseHead``).
public struct HTTPResponseHead: Sendable {
    /// The HTTP status.
    public let status: Int
    /// The headers, in the order sent.
    public let headers: HTTPHeaders

    /// A head.
    public init(status: Int, headers: HTTPHeaders) {
        self.status = status
        self.headers = headers
    }
}

/// Where a response body goes.
public enum ResponseBodyDestination: Sendable {
    /// Kept in memory up to `limit` bytes (nil: the client's `maxBodySize`); beyond it the transfer is
    /// aborted at once with `.tooLarge`.
    case memory(limit: Int? = nil)
    /// Written to a file (created or truncated, mode 0600 for new files); `HTTPResponse.body` stays empty. A GET
    /// whose connection broke part way is resumed into the same file when the server allows it (``DownloadResume``),
    /// else the file is emptied and the retry starts afresh.
    case file(path: String)
    /// Written to a file the caller has open for writing (and closes once the request returns), through a
    /// duplicate of `descriptor`: emptied at the start of every attempt, so a retry starts the file afresh (or,
    /// for a GET resumed as ``file(path:)`` says, cut back to the bytes that arrived whole). `name` names it in error
    /// messages. `HTTPResponse.body` stays empty. For writing below a folder held open (`openat`), where a path could
    /// lead through a symbolic link.
    case descriptor(Int32, name: String)
    /// Handed chunk by chunk to a closure on the transfer thread (keep it short); a throw aborts with `.io`.
    /// After a retry the closure sees the new attempt's bytes from the start.
    case sink(@Sendable ([UInt8]) throws -> Void)
}

/// Byte counts of one running transfer, as libcurl reports them (totals are 0 when unknown).
public struct TransferProgress: Sendable, Equatable {
    /// Body bytes uploaded so far.
    public var bytesSent: Int64
    /// Body bytes to upload in total, or 0.
    public var totalBytesToSend: Int64
    /// Body bytes downloaded so far.
    public var bytesReceived: Int64
    /// Body bytes expected in total (`Content-Length`), or 0.
    public var totalBytesToReceive: Int64

    /// Creates a progress value.
    public init(bytesSent: Int64, totalBytesToSend: Int64, bytesReceived: Int64, totalBytesToReceive: Int64) {
        self.bytesSent = bytesSent
        self.totalBytesToSend = totalBytesToSend
        self.bytesReceived = bytesReceived
        self.totalBytesToReceive = totalBytesToReceive
    }
}

/// The `application/x-www-form-urlencoded` serializer of the WHATWG URL standard.
public enum FormEncoder {
    /// `name=value&...` with bytes outside `*-._0-9A-Za-z` percent-encoded and space as `+`.
    public static func encode(_ fields: [(name: String, value: String)]) -> String {
        fields.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
    }

    /// One name or value, encoded.
    public static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
