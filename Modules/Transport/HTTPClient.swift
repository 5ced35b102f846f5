internal import CCurl
internal import CCurlShims
import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

/// An HTTP session over libcurl: one cookie jar, DNS cache and TLS session cache (one `CURLSH`), and one
/// dedicated transfer thread (one `CURLM`) that runs every exchange, so callers never block the cooperative
/// pool.
///
/// Ownership: the client owns its share, its multi thread and its `cookies`; when the last reference goes, the
/// thread stops. A running `execute` keeps the client alive.
/// Thread-safety: all methods may be called concurrently from any task.
public final class HTTPClient: Sendable {
    /// Session-wide settings. A plain value.
    public struct Configuration: Sendable {
        /// `User-Agent` sent unless the request sets its own.
        public var userAgent: String?
        /// A PEM bundle of trusted CA certificates (instead of the system store).
        public var caFile: String?
        /// A directory of hashed CA certificates (`c_rehash` layout).
        public var caDirectory: String?
        /// Accept any TLS certificate and host name. For one-off debugging only.
        public var insecureSkipTLSVerification: Bool
        /// A proxy URL (`http://host:3128`); nil lets libcurl read `http_proxy`/`https_proxy`/`no_proxy`.
        public var proxy: String?
        /// Hosts that bypass the proxy (libcurl's `NOPROXY` syntax); nil uses `no_proxy` from the environment.
        /// Loopback addresses (`localhost`, `127.0.0.0/8`, `::1`) bypass it in every case.
        public var noProxy: String?
        /// Fixed name resolutions in curl's `HOST:PORT:ADDRESS` form (like `curl --resolve`).
        public var resolve: [String]
        /// Retry policy for requests that do not set their own.
        public var retry: RetryPolicy
        /// Body size cap for `.memory()` destinations without their own limit (default 64 MiB).
        public var maxBodySize: Int
        /// Receives one redacted record per transfer (retries and redirect hops included), on the task that
        /// made the request, before `execute` returns or throws; nil records nothing.
        public var trace: (@Sendable (TraceRecord) -> Void)?
        /// Where plain http may be used (default: anywhere). A client carrying a session made over https sets
        /// ``PlainHTTPRule/never``, so no request, redirect hop or next link sends its cookies in clear, whether or
        /// not the server marked them `Secure`.
        public var plainHTTP: PlainHTTPRule
        /// A pause shared with other clients (other processes too): each request waits for it, and a throttled
        /// answer this client will retry extends it (``SharedBackoff``). Nil: this client backs off alone.
        public var sharedBackoff: SharedBackoff?
        /// A request budget shared with other clients (other processes too), spent at the pace the server allows
        /// once it has stated it (``SharedRateBudget``). Nil: requests go as soon as they are made.
        public var rateBudget: SharedRateBudget?
        /// What a request costs against ``rateBudget``, in the server's units (SharePoint's resource units); nil:
        /// one unit each.
        public var requestCost: (@Sendable (HTTPRequest) -> Int)?

        /// The defaults: system CAs, verification on, proxies from the environment, 3 attempts, 64 MiB cap.
        public init(
            userAgent: String? = "SPConnect", caFile: String? = nil, caDirectory: String? = nil,
            insecureSkipTLSVerification: Bool = false, proxy: String? = nil, noProxy: String? = nil,
            resolve: [String] = [], retry: RetryPolicy = RetryPolicy(), maxBodySize: Int = 64 << 20,
            trace: (@Sendable (TraceRecord) -> Void)? = nil, plainHTTP: PlainHTTPRule = .anywhere
        ) {
            self.userAgent = userAgent
            self.caFile = caFile
            self.caDirectory = caDirectory
            self.insecureSkipTLSVerification = insecureSkipTLSVerification
            self.proxy = proxy
            self.noProxy = noProxy
            self.resolve = resolve
            self.retry = retry
            self.maxBodySize = maxBodySize
            self.trace = trace
            self.plainHTTP = plainHTTP
        }
    }

    /// The settings this client was made with.
    public let configuration: Configuration
    /// The session's cookies (libcurl's engine, shared by every request of this client).
    public let cookies: CookieJar
    private let share: CurlShare
    private let loop: MultiLoop
    /// The `NOPROXY` list of every transfer, worked out once (``noProxyList(configured:environment:)``).
    let noProxy: String

    /// Creates a session and starts its transfer thread.
    /// - Throws: `TransportError` when libcurl cannot start (out of memory, broken installation).
    public init(configuration: Configuration = Configuration()) throws(TransportError) {
        self.configuration = configuration
        noProxy = Self.noProxyList(configured: configuration.noProxy)
        share = try CurlShare()
        cookies = try CookieJar(share: share)
        loop = try MultiLoop()
    }

    deinit { loop.shutdown() }

    /// Performs `request`: retries as its policy allows, and follows redirects when asked.
    ///
    /// Never blocks the calling thread. Cancelling the task aborts the transfer and throws `.cancelled`.
    /// A non-2xx status is not an error: check `status`.
    public func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var current = request
        var chain = [request.url]
        var hops = 0
        while true {
            try checkPlainHTTP(current.url, first: request.url)
            let response = try await exchange(current, chain: chain)
            guard case .follow(let maxHops) = request.redirects, let location = response.redirectLocation,
                [301, 302, 303, 307, 308].contains(response.status)
            else { return response }
            guard hops < maxHops else {
                throw TransportError(
                    kind: .redirectLimit, detail: "\(hops) redirects followed", url: response.url,
                    message: "too many redirects (more than \(maxHops)) starting at \(TraceRedaction.url(request.url))")
            }
            hops += 1
            current = try Self.redirected(current, status: response.status, to: location)
            chain.append(location)
        }
    }

    /// Throws `.plainHTTPRefused` when ``Configuration/plainHTTP`` forbids sending a request to `url`.
    private func checkPlainHTTP(_ url: String, first: String) throws(TransportError) {
        guard let parsed = CurlURL(url), parsed.scheme == "http", !configuration.plainHTTP.allows(host: parsed.host)
        else { return }
        let hop = url == first ? "" : " (reached from \(TraceRedaction.url(first)))"
        throw TransportError(
            kind: .plainHTTPRefused, detail: "", url: url,
            message: "refusing to send a request to plain http (\(TraceRedaction.url(url)))\(hop)")
    }

    /// Whether two absolute URLs have the same origin: scheme, host and port (the scheme's default when none is
    /// written), as libcurl parses them. Credentials given for one origin stay within it.
    package static func isSameOrigin(_ first: String, _ second: String) -> Bool {
        guard let one = CurlURL(first), let other = CurlURL(second) else { return false }
        return one.origin == other.origin
    }

    /// The request for the next hop, with browser rules; throws for https→http with credentials.
    static func redirected(_ request: HTTPRequest, status: Int, to location: String) throws(TransportError)
        -> HTTPRequest
    {
        let from = CurlURL(request.url)
        guard let to = CurlURL(location), let scheme = to.scheme, scheme == "http" || scheme == "https" else {
            throw .invalid(
                "the redirect target \(TraceRedaction.url(location)) is not an http(s) URL", url: request.url)
        }
        if from?.scheme == "https" && scheme == "http" && request.carriesCredentials {
            throw TransportError(
                kind: .insecureRedirect,
                detail: "\(TraceRedaction.url(request.url)) -> \(TraceRedaction.url(location))",
                url: request.url,
                message: "refusing to follow a redirect from https to http while the request carries credentials")
        }
        var next = request
        next.url = location
        let method = request.method.uppercased()
        if status == 303 && method != "HEAD" || (status == 301 || status == 302) && method == "POST" {
            next.method = "GET"
            next.body = .none
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"] {
                next.headers.remove(name)
            }
        }
        if from?.origin != to.origin {
            // Like curl: credentials are for the origin they were given for. A `Cookie` header set by hand is not
            // the jar's (which libcurl matches per host), so it goes too, with the other secret headers.
            next.auth = nil
            next.clientCertificate = nil
            for name in HTTPRequest.credentialHeaders + ["Origin"] { next.headers.remove(name) }
        }
        return next
    }

    /// One hop, with retries (``RetryPolicy``); a download that broke part way is resumed (``DownloadResume``).
    private func exchange(_ request: HTTPRequest, chain: [String]) async throws(TransportError) -> HTTPResponse {
        let policy = request.retry ?? configuration.retry
        var attempt = 1
        var resume: DownloadResume?
        while true {
            let sent = resume?.request(continuing: request) ?? request
            try await configuration.sharedBackoff?.waitIfPaused(cap: policy.maxRetryAfter, before: request.url)
            let budget = configuration.rateBudget
            let units = try await budget?.waitForSlot(units: configuration.requestCost?(sent) ?? 1, url: sent.url)
            let outcome: TransferOutcome
            do throws(TransportError) {
                outcome = try await perform(sent, resumingAt: resume?.offset)
            } catch {
                if let budget, let units { budget.answered(units: units, headers: HTTPHeaders(), url: sent.url) }
                throw error
            }
            if let budget, let units {
                budget.answered(units: units, headers: HTTPHeaders(outcome.headers), url: sent.url)
            }
            let wait = policy.wait(after: outcome, of: request, attempt: attempt)
            if let wait, [429, 503].contains(outcome.status) { configuration.sharedBackoff?.pause(for: wait) }
            if let trace = configuration.trace {
                trace(Self.traceRecord(sent, attempt: attempt, outcome: outcome, retryIn: wait))
            }
            guard let wait else {
                if let error = outcome.error { throw error }
                return Self.response(outcome, attempt: attempt, chain: chain, completing: resume)
            }
            resume = outcome.error == nil ? nil : DownloadResume.after(outcome, of: request, previous: resume)
            do {
                try await Task.sleep(for: wait)
            } catch {
                throw .cancelled(request.url)
            }
            attempt += 1
        }
    }

    /// `Retry-After` as a wait: delta seconds, or an HTTP date (past dates give zero).
    static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: " "), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(seconds, 0)) }
        let date = curl_getdate(value, nil)
        guard date != -1 else { return nil }
        return .milliseconds(max(Int((TimeInterval(date) - now.timeIntervalSince1970) * 1000), 0))
    }

    /// One transfer; its failure is in the outcome. Throws only when it could not start (a bad request, a file
    /// that cannot be opened, a cancelled task).
    private func perform(_ request: HTTPRequest, resumingAt offset: Int64?) async throws(TransportError)
        -> TransferOutcome
    {
        if Task.isCancelled { throw .cancelled(request.url) }
        let easy = try EasyHandle(share: share)
        easy.url = request.url
        let (sink, upload) = try configure(easy, for: request, resumingAt: offset)
        let transfer = try Transfer(
            easy: easy, url: request.url, sink: sink,
            discardRedirectBodies: request.redirects != .manual, upload: upload, progress: request.progress,
            trace: configuration.trace != nil, resumingAt: offset)
        if let responseHead = request.responseHead {
            transfer.reportHead(to: responseHead, skippingHandshake401: request.auth?.negotiatesIn401 ?? false)
        }
        return await loop.run(transfer)
    }

    /// The response of a transfer that succeeded; a 206 completing a resumed download is given as the answer it
    /// completes (its status and headers describe the whole body).
    private static func response(
        _ outcome: TransferOutcome, attempt: Int, chain: [String], completing resume: DownloadResume?
    ) -> HTTPResponse {
        let completed = outcome.resumed ? resume : nil
        return HTTPResponse(
            status: completed?.status ?? outcome.status, headers: HTTPHeaders(completed?.headers ?? outcome.headers),
            body: outcome.body, url: outcome.effectiveURL,
            redirectLocation: (300..<400).contains(outcome.status) ? outcome.redirectURL : nil,
            httpVersion: outcome.httpVersion, timings: outcome.timings, bytesSent: outcome.bytesSent,
            bytesReceived: outcome.bytesReceived, attempts: attempt, urlChain: chain)
    }

    private static func traceRecord(
        _ request: HTTPRequest, attempt: Int, outcome: TransferOutcome, retryIn: Duration?
    ) -> TraceRecord {
        let sent = outcome.sentHeaderLines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return TraceRedaction.header(
                name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: " "))
        }
        let received = outcome.allResponseHeaders.map { TraceRedaction.header(name: $0.name, value: $0.value) }
        var formNames: [String] = []
        if case .form(let fields) = request.body { formNames = fields.map(\.name) }
        return TraceRecord(
            method: request.method, url: TraceRedaction.url(request.url),
            status: outcome.error == nil ? outcome.status : nil,
            attempt: attempt, requestHeaders: sent, responseHeaders: received, formFieldNames: formNames,
            timings: outcome.timings, bytesSent: outcome.bytesSent, bytesReceived: outcome.bytesReceived,
            error: outcome.error?.description, retryIn: retryIn)
    }
}
