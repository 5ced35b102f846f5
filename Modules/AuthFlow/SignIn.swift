import Foundation
public import Transport

/// Signs in to a SharePoint site the way a browser does, without a browser: the embedding entry point.
///
/// ```swift
/// let client = try HTTPClient()
/// let outcome = await SignIn(client: client, configuration: SignInConfiguration(
///     siteURL: "https://contoso.sharepoint.com/sites/team", username: "alice@contoso.com",
///     password: Secret(password))).run()
/// if case .signedIn(let session) = outcome { ... }   // the client's jar now holds the session cookies
/// ```
///
/// Drives `SignInMachine` with the client's Transport, one exchange at a time, redirects hop by hop.
/// The client's cookie jar ends up holding the session. A value; `run()` may be called once per sign-in.
public struct SignIn: Sendable {
    /// Diagnostics and limits of one run.
    public struct Options: Sendable {
        /// Receives each step once it is complete, already redacted (for `--trace FILE`).
        public var trace: (@Sendable (SignInTraceStep) -> Void)?
        /// Where to save a redacted copy of a page the engine could not handle: an unknown page, an unknown
        /// interrupt, or the last page of a loop (for `--dump-pages DIR`). The outcome names the file.
        public var dumpPagesDirectory: String?
        /// Largest page the engine reads (default 8 MiB): a bigger answer stops the sign-in.
        public var maxPageBytes: Int
        /// Timeouts of each exchange.
        public var timeouts: HTTPTimeouts
        /// Where one-time codes come from (nil: none, a code page then ends the sign-in with exit 4). Codes it
        /// gives are removed by value from every trace, record, dump and message.
        public var oneTimeCode: OneTimeCodeSource?
        /// The browser headers added to every request (`Accept`, `Accept-Language`, `Referer`, `Origin`).
        public var browser: BrowserHeaders
        /// Receives what the person must know or do while the sign-in waits on them ("Approve the sign-in on your
        /// phone: enter 42"); nil drops it. Called on the sign-in's task, never with a secret.
        public var notice: (@Sendable (String) -> Void)?
        /// The longest the whole sign-in may take (default 120 s; nil: no limit). Each exchange gets what is left
        /// as its total limit, so a server trickling its pages cannot hold the sign-in open.
        public var deadline: Duration?
        /// Whether a `Negotiate` challenge may be answered with the user's Kerberos ticket when they have a
        /// credential cache (``KerberosCredentialCache``; default true). False leaves the choice to the
        /// configuration's ``SignInConfiguration/hasKerberosTicket``.
        public var usesKerberosCredentialCache = true
        /// Where the configuration's passkey (``SignInConfiguration/passkey``) is kept: its raised counter is saved
        /// there before each assertion goes (nil: not saved, for a passkey the embedder keeps itself).
        public var passkeyFile: PasskeyFile?

        /// Options for one sign-in; every one has a default.
        public init(
            trace: (@Sendable (SignInTraceStep) -> Void)? = nil, dumpPagesDirectory: String? = nil,
            maxPageBytes: Int = 8 << 20, timeouts: HTTPTimeouts = HTTPTimeouts(), deadline: Duration? = .seconds(120),
            browser: BrowserHeaders = BrowserHeaders(), oneTimeCode: OneTimeCodeSource? = nil,
            notice: (@Sendable (String) -> Void)? = nil
        ) {
            self.notice = notice
            self.browser = browser
            self.oneTimeCode = oneTimeCode
            self.trace = trace
            self.dumpPagesDirectory = dumpPagesDirectory
            self.maxPageBytes = maxPageBytes
            self.timeouts = timeouts
            self.deadline = deadline
        }
    }

    /// The client the exchanges go through; its cookie jar receives the session.
    public let client: HTTPClient
    /// What to sign in to, as whom, and under which policy.
    public let configuration: SignInConfiguration
    /// How to run it: trace, dumps, limits, code source, deadline.
    public let options: Options

    /// A sign-in of `configuration` through `client`; ``run()`` performs it.
    public init(client: HTTPClient, configuration: SignInConfiguration, options: Options = Options()) {
        self.client = client
        self.configuration = configuration
        self.options = options
    }

    /// Runs the sign-in to its end and returns how it ended.
    public func run() async -> SignInOutcome {
        var configuration = configuration
        if options.usesKerberosCredentialCache && !configuration.hasKerberosTicket {
            configuration.hasKerberosTicket = KerberosCredentialCache.isPresent()
        }
        var options = options
        if configuration.passkey != nil && options.browser.userAgent == nil {
            options.browser.userAgent = BrowserHeaders.webAuthnCapableUserAgent
        }
        var machine = SignInMachine(configuration)
        var action = machine.start()
        var lastResponse: SignInResponse?
        /// The last response with a body: the page a loop last showed, when its final hop was a bare redirect.
        var lastPage: SignInResponse?
        var emitted = 0
        /// The one-time codes given so far: secrets like the password.
        var codes: [Secret] = []
        defer {
            let scrubber = secretScrubber(codes)
            for step in machine.trace.dropFirst(emitted) { options.trace?(step.scrubbed(by: scrubber)) }
        }
        let started = ContinuousClock.now
        loop: while true {
            let request: SignInRequest
            switch action {
            case .finish: break loop
            case .needCode(let asked):
                let code = await options.oneTimeCode?(asked)
                if let code { codes.append(code) }
                action = machine.provide(code: code)
                continue loop
            case .send(let next): request = next
            }
            if let notice = request.notice { options.notice?(notice) }
            if let delay = request.delay, delay > .zero {
                let left = options.deadline.map { $0 - (ContinuousClock.now - started) } ?? delay
                try? await Task.sleep(for: min(delay, max(left, .zero)))
            }
            if let used = request.passkeyUsed, let file = options.passkeyFile {
                do {
                    try file.recordUse(used)
                } catch {
                    // The assertion is not sent: a count that may not have been saved is never used.
                    return .interactionRequired(.passkey, pageId: nil, message: error.description)
                }
            }
            var exchange = httpRequest(for: request, browser: options.browser)
            if let deadline = options.deadline {
                let left = deadline - (ContinuousClock.now - started)
                guard left > .zero else {
                    return .transport(
                        TransportError(
                            kind: .timeout, detail: "", url: request.url,
                            message: "the sign-in took longer than \(deadline.components.seconds) s and was stopped"))
                }
                exchange.timeouts.total = min(exchange.timeouts.total ?? left, left)
            }
            let response: HTTPResponse
            do {
                response = try await client.execute(exchange)
            } catch {
                return SignInOutcome.transport(error).scrubbed(by: secretScrubber(codes))
            }
            let observed = SignInResponse(
                url: request.url, status: response.status, headers: response.headers.fields,
                location: response.redirectLocation, body: response.body, siteCookies: siteCookies())
            lastResponse = observed
            if !observed.body.isEmpty { lastPage = observed }
            action = machine.receive(observed)
            // Every step but the one just sent is complete: hand those to the trace now.
            let complete = max(emitted, machine.trace.count - (isSend(action) ? 1 : 0))
            if complete > emitted {
                let scrubber = secretScrubber(codes)
                for step in machine.trace[emitted..<complete] { options.trace?(step.scrubbed(by: scrubber)) }
            }
            emitted = complete
        }
        guard case .finish(let finished) = action else { return .loop(url: configuration.siteURL, steps: 0) }
        // A server may echo the password or a cookie into its page, and so into the outcome's message.
        let scrubber = secretScrubber(codes)
        var outcome = finished.scrubbed(by: scrubber)
        if case .signedIn(var session) = outcome, configuration.staySignedIn {
            session.identityProviderCookies = identityProviderCookies(besides: session)
            outcome = .signedIn(session)
        }
        guard let directory = options.dumpPagesDirectory, let lastResponse else { return outcome }
        switch outcome {
        case .unknownPage(let kind, let url, nil, let hints):
            return .unknownPage(
                kind: kind, url: url, dumpPath: dump(lastResponse, into: directory, scrubber: scrubber), hints: hints)
        case .interactionRequired(let kind, let pageId, let message, nil, let hints)
        where kind == .unknownInterrupt || kind.stops:
            // An unknown interrupt, or a page that stopped the sign-in: the page is what a report needs.
            return .interactionRequired(
                kind, pageId: pageId, message: message,
                dumpPath: dump(lastResponse, into: directory, scrubber: scrubber), hints: hints)
        case .loop(let url, let steps, nil):
            return .loop(
                url: url, steps: steps, dumpPath: dump(lastPage ?? lastResponse, into: directory, scrubber: scrubber))
        default:
            return outcome
        }
    }

    private func isSend(_ action: SignInAction) -> Bool {
        if case .send = action { return true }
        return false
    }

    private func httpRequest(for request: SignInRequest, browser: BrowserHeaders) -> HTTPRequest {
        var headers = HTTPHeaders(request.headers)
        for (name, value) in browser.headers(
            method: request.method, url: request.url, referrer: request.referrer, existing: request.headers.map(\.name))
        {
            headers.add(name, value)
        }
        let body: HTTPRequest.Body
        if let form = request.form, request.method.uppercased() == "POST" {
            // A GET form's fields are already in its URL's query (the HTML module's submission rules).
            body = .form(form)
        } else if let raw = request.rawBody {
            headers.set("Content-Type", raw.contentType)
            body = .bytes(raw.bytes)
        } else {
            body = .none
        }
        var exchange = HTTPRequest(
            method: request.method, url: request.url, headers: headers, body: body, auth: request.authentication,
            timeouts: options.timeouts, redirects: .manual, responseBody: .memory(limit: options.maxPageBytes))
        exchange.clientCertificate = request.clientCertificate
        return exchange
    }

    /// The secrets of this sign-in known now, to be removed by value from whatever it reports: the password, the
    /// one-time codes given, and every cookie value in the client's jar.
    private func secretScrubber(_ codes: [Secret] = []) -> SecretScrubber {
        var scrubber = SecretScrubber(
            secrets: [configuration.password] + (configuration.accessPass.map { [$0] } ?? []) + codes)
        let cookies = (try? client.cookies.all()) ?? []
        scrubber.add(cookies.map(\.value), minimumLength: SecretScrubber.cookieMinimumLength)
        return scrubber
    }

    /// The cookies the jar would send to the site's URL now.
    /// The jar's cookies that are not the site's (or the web target's host's): the identity providers' own.
    private func identityProviderCookies(besides session: Session) -> [Cookie] {
        let host = URLParts(configuration.target.proofURL ?? configuration.siteURL)?.host
        return ((try? client.cookies.all()) ?? []).filter { cookie in
            cookie.domain != host && !(host?.hasSuffix("." + cookie.domain) ?? false)
                && !session.cookies.contains { $0.name == cookie.name && $0.domain == cookie.domain }
        }
    }

    private func siteCookies() -> [Cookie] {
        let url = configuration.target.proofURL ?? configuration.siteURL + "/"
        return (try? client.cookies.cookies(for: url)) ?? []
    }

    /// Saves a redacted copy of a page in a new file (`spconnect-SECONDS-HOST.html`, then `-2`, `-3`, ... when
    /// that name is taken: an earlier dump is never overwritten); returns its path, or nil when it could not be
    /// written.
    private func dump(_ response: SignInResponse, into directory: String, scrubber: SecretScrubber) -> String? {
        let host = URLParts(response.url)?.host ?? "page"
        let stamp = Int(Date().timeIntervalSince1970)
        let text =
            "<!-- spconnect dump of \(Redaction.url(response.url)) (HTTP \(response.status)), secrets redacted -->\n"
            + scrubber.scrub(Redaction.page(String(decoding: response.body, as: UTF8.self)))
        do {
            try makePrivateDirectory(directory)
        } catch {
            return nil
        }
        for attempt in 1...100 {
            let path = directory + "/spconnect-\(stamp)-\(host)" + (attempt == 1 ? "" : "-\(attempt)") + ".html"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                return nil
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            do {
                try handle.write(contentsOf: Data(text.utf8))
                return path
            } catch {
                return nil
            }
        }
        return nil
    }

    /// Creates `directory` readable by its owner only (0700; its missing parents get the default mode), so
    /// the dumps in it are not listed to others. A directory that already exists is left as it is.
    private func makePrivateDirectory(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue {
            return
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != directory {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: directory])
        }
    }
}
