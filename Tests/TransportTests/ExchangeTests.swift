import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

@testable import Transport

@Suite struct ExchangeTests {
    @Test func basicAuthIsCheckedByTheServer() async throws {
        let expected = "Basic " + Data("alice:pa ss:wörd".utf8).base64EncodedString()
        let server = try HTTPServer { request in
            request.header("Authorization") == expected
                ? HTTPServerResponse(status: 200, contentType: "text/plain", text: "welcome")
                : HTTPServerResponse(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"t\"")])
        }
        defer { server.stop() }
        let client = try makeClient()
        let good = try await client.execute(
            HTTPRequest(url: server.baseURL + "/", auth: .basic(user: "alice", password: Secret("pa ss:wörd"))))
        #expect(good.status == 200 && good.text == "welcome")
        let bad = try await client.execute(
            HTTPRequest(url: server.baseURL + "/", auth: .basic(user: "alice", password: Secret("nope"))))
        #expect(bad.status == 401)
    }

    @Test func methodsHeadersAndBodiesArriveAsSent() async throws {
        let recorder = Recorder()
        let server = try HTTPServer { request in
            recorder.record(request)
            return HTTPServerResponse(
                status: 201, contentType: "text/plain", text: "ok", headers: [("X-Multi", "1"), ("x-multi", "2")])
        }
        defer { server.stop() }
        let client = try makeClient()
        let response = try await client.execute(
            HTTPRequest(
                method: "MERGE", url: server.baseURL + "/item",
                headers: ["X-HTTP-Method": "MERGE", "IF-MATCH": "*", "X-Empty": ""],
                body: .form([("a b", "x&y=z/ü*"), ("pw", "")])))
        #expect(response.status == 201)
        #expect(response.headers.values(for: "X-MULTI") == ["1", "2"])
        #expect(response.httpVersion == "HTTP/1.1")
        #expect(response.attempts == 1)
        #expect(response.timings.total >= response.timings.connect)
        let seen = try #require(recorder.requests.first)
        #expect(seen.method == "MERGE")
        #expect(String(decoding: seen.body, as: UTF8.self) == "a+b=x%26y%3Dz%2F%C3%BC*&pw=")
        #expect(seen.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(seen.header("If-Match") == "*")
        #expect(seen.header("X-Empty") == "")
        #expect(seen.header("Expect") == nil)

        _ = try await client.execute(HTTPRequest(method: "DELETE", url: server.baseURL + "/item"))
        _ = try await client.execute(HTTPRequest(method: "HEAD", url: server.baseURL + "/item"))
        _ = try await client.execute(HTTPRequest(method: "POST", url: server.baseURL + "/empty"))
        #expect(recorder.requests.last?.header("Content-Length") == "0")
        _ = try await client.execute(HTTPRequest(url: server.baseURL + "/query", body: .bytes([1, 2, 3])))
        #expect(recorder.requests.dropFirst().map(\.method) == ["DELETE", "HEAD", "POST", "GET"])
        #expect(recorder.requests.last?.body == [1, 2, 3])
        #expect(recorder.requests.last?.header("Content-Type") == "application/octet-stream")
        let headWithBody = await transportError {
            _ = try await client.execute(HTTPRequest(method: "HEAD", url: server.baseURL, body: .bytes([1])))
        }
        #expect(headWithBody?.kind == .invalidRequest)
    }

    @Test func fileUploadAndFileDownloadStream() async throws {
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let server = try HTTPServer { request in
            HTTPServerResponse(status: 200, body: .bytes(request.body))
        }
        defer { server.stop() }
        let directory = URL(fileURLWithPath: try temporaryDirectory("transport"))
        let source = directory.appendingPathComponent("up.bin").path
        let target = directory.appendingPathComponent("down.bin").path
        try Data(payload).write(to: URL(fileURLWithPath: source))
        let client = try makeClient()
        let response = try await client.execute(
            HTTPRequest(
                method: "PUT", url: server.baseURL + "/f", body: .file(path: source), responseBody: .file(path: target))
        )
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.bytesSent == Int64(payload.count))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data(payload))
        let missing = await transportError {
            _ = try await client.execute(HTTPRequest(method: "PUT", url: server.baseURL, body: .file(path: "/no/such")))
        }
        #expect(missing?.kind == .io)
    }

    @Test func retriesHonourRetryAfterAndCountOnTheServer() async throws {
        let recorder = Recorder()
        let server = try HTTPServer { request in
            recorder.record(request)
            let seen = recorder.requests.filter { $0.path == request.path }.count
            if request.path == "/always" || seen == 1 {
                return HTTPServerResponse(status: 503, headers: [("Retry-After", "1")])
            }
            if request.path == "/busy" && seen < 3 {
                return HTTPServerResponse(status: 429, headers: [("Retry-After", "0")])
            }
            return HTTPServerResponse(status: 200, contentType: "text/plain", text: "fine")
        }
        defer { server.stop() }
        let client = try makeClient { $0.retry = RetryPolicy(maxAttempts: 3) }
        let start = ContinuousClock.now
        let response = try await client.execute(HTTPRequest(url: server.baseURL + "/flaky"))
        let elapsed = ContinuousClock.now - start
        #expect(response.status == 200 && response.attempts == 2)
        #expect(recorder.requests.filter { $0.path == "/flaky" }.count == 2)
        #expect(elapsed >= .milliseconds(950))

        let busy = try await client.execute(HTTPRequest(method: "PUT", url: server.baseURL + "/busy"))
        #expect(busy.status == 200 && busy.attempts == 3)
        #expect(recorder.requests.filter { $0.path == "/busy" }.map(\.method) == ["PUT", "PUT", "PUT"])

        let post = try await client.execute(HTTPRequest(method: "POST", url: server.baseURL + "/always"))
        #expect(post.status == 503 && post.attempts == 1)
        #expect(recorder.requests.filter { $0.path == "/always" }.count == 1)

        let patient = try await client.execute(
            HTTPRequest(
                method: "POST", url: server.baseURL + "/always",
                retry: RetryPolicy(maxAttempts: 2, retryNonIdempotent: true)))
        #expect(patient.status == 503 && patient.attempts == 2)
        #expect(recorder.requests.filter { $0.path == "/always" }.count == 3)
    }

    /// A throttled request counts against the caller, so `Retry-After: 0` still waits the back-off.
    @Test func aZeroRetryAfterStillWaitsTheBackoff() async throws {
        let seen = Collected<Int>()
        let server = try HTTPServer { _ in
            seen.append(1)
            return HTTPServerResponse(status: 429, headers: [("Retry-After", "0")])
        }
        defer { server.stop() }
        let client = try makeClient { $0.retry = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(600)) }
        let start = ContinuousClock.now
        let response = try await client.execute(HTTPRequest(url: server.baseURL + "/"))
        #expect(response.status == 429 && response.attempts == 2)
        #expect(ContinuousClock.now - start >= .milliseconds(300), "at least half the 600 ms back-off (jitter)")
    }

    @Test func connectFailuresAreRetriedThenReported() async throws {
        let refusing = try RefusingPort()
        let url = refusing.baseURL + "/"
        let records = Collected<TraceRecord>()
        let client = try makeClient {
            $0.retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10))
            $0.trace = { records.append($0) }
        }
        let error = await transportError { _ = try await client.execute(HTTPRequest(url: url)) }
        #expect(error?.kind == .connect)
        #expect(error?.description.contains("127.0.0.1") == true)
        #expect(records.values.map(\.attempt) == [1, 2, 3])
        withExtendedLifetime(refusing) {}
    }

    @Test func retryAfterParsesSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(HTTPClient.retryAfter("7", now: now) == .seconds(7))
        #expect(HTTPClient.retryAfter("Wed, 21 Oct 2015 07:28:05 GMT", now: now) == .seconds(5))
        #expect(HTTPClient.retryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == .zero)
        #expect(HTTPClient.retryAfter("soon", now: now) == nil)
        #expect(HTTPClient.retryAfter(nil, now: now) == nil)
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .milliseconds(300))
        #expect(policy.backoff(afterAttempt: 1) <= .milliseconds(100))
        #expect(policy.backoff(afterAttempt: 10) <= .milliseconds(300))
        #expect(policy.backoff(afterAttempt: 10) >= .milliseconds(150))
    }

    @Test func stalledServerHitsTheTimeout() async throws {
        let release = Flag()
        let server = try HTTPServer { _ in
            HTTPServerResponse(
                status: 200,
                body: .stream(length: 2) {
                    stall(until: release)
                    return .end
                })
        }
        defer {
            release.set()
            server.stop()
        }
        let client = try makeClient()
        let error = await transportError {
            _ = try await client.execute(
                HTTPRequest(url: server.baseURL + "/", timeouts: HTTPTimeouts(total: .milliseconds(300))))
        }
        #expect(error?.kind == .timeout)
        #expect(error?.description.contains("timed out") == true)
    }

    @Test func oversizedBodyIsAbortedEarly() async throws {
        // Early by construction, not by counting under load: past its first two 16 KiB chunks the server holds the
        // rest of the body back until the test ends. A client that aborts at its cap fails with tooLarge at once; one
        // that read on to the end would sit there until its own 20 s timeout and fail with timeout instead.
        let release = Flag()
        let server = try HTTPServer { request in
            let counter = ChunkCounter()
            let heldBack = request.path != "/fast"
            return HTTPServerResponse(
                status: 200,
                body: .stream(length: request.path == "/declared" ? 40 * 16 * 1024 : nil) {
                    let index = counter.next()
                    guard index < 40 else { return .end }
                    if heldBack && index >= 2 { stall(until: release) }
                    // One chunk fills libmicrohttpd's 16 KiB buffer, so each is sent as it is made.
                    return .data([UInt8](repeating: 0x41, count: 16 * 1024))
                })
        }
        defer {
            release.set()
            server.stop()
        }
        let client = try makeClient()
        for path in ["/streamed", "/declared"] {
            let error = await transportError {
                _ = try await client.execute(
                    HTTPRequest(
                        url: server.baseURL + path, timeouts: HTTPTimeouts(total: .seconds(20)),
                        responseBody: .memory(limit: 2500)))
            }
            #expect(error?.kind == .tooLarge, "\(path): \(String(describing: error))")
        }
        let whole = try await client.execute(
            HTTPRequest(url: server.baseURL + "/fast", responseBody: .memory(limit: 40 * 16 * 1024)))
        #expect(whole.body.count == 40 * 16 * 1024)
        let defaultCap = try makeClient { $0.maxBodySize = 100_000 }
        let capped = await transportError {
            _ = try await defaultCap.execute(HTTPRequest(url: server.baseURL + "/fast"))
        }
        #expect(capped?.kind == .tooLarge)
    }

    @Test func fiftyConcurrentTransfersWhileBothCoresAreBusy() async throws {
        let inFlight = PeakCounter()
        let server = try HTTPServer { request in
            inFlight.enter()
            Thread.sleep(forTimeInterval: 0.3)
            inFlight.leave()
            return HTTPServerResponse(status: 200, contentType: "text/plain", text: request.path)
        }
        defer { server.stop() }
        let stop = Flag()
        let spinners = (0..<2).map { _ in
            Thread {
                var x = 0
                while !stop.isSet { x &+= 1 }
            }
        }
        spinners.forEach { $0.start() }
        defer { stop.set() }
        let client = try makeClient()
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<50 {
                group.addTask { try await client.execute(HTTPRequest(url: server.baseURL + "/\(index)")).text }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(bodies == Set((0..<50).map { "/\($0)" }))
        // Blocking transfers on the 2-thread cooperative pool could never have more than 2 in flight.
        #expect(inFlight.peak > 2)
    }

    @Test func progressIsMonotonicForUploadAndDownload() async throws {
        let server = try HTTPServer { request in
            let counter = ChunkCounter()
            return HTTPServerResponse(
                status: 200,
                body: .stream(length: 50_000) {
                    guard counter.next() < 10 else { return .end }
                    Thread.sleep(forTimeInterval: 0.01)
                    return .data([UInt8](repeating: 0x42, count: 5000))
                })
        }
        defer { server.stop() }
        let events = Collected<TransferProgress>()
        let client = try makeClient()
        let response = try await client.execute(
            HTTPRequest(
                method: "POST", url: server.baseURL + "/", body: .bytes([UInt8](repeating: 1, count: 100_000)),
                progress: { events.append($0) }))
        #expect(response.body.count == 50_000)
        let values = events.values
        #expect(values.count >= 2)
        for (previous, next) in zip(values, values.dropFirst()) {
            #expect(next.bytesReceived >= previous.bytesReceived)
            #expect(next.bytesSent >= previous.bytesSent)
        }
        #expect(values.last?.bytesReceived == 50_000)
        #expect(values.last?.totalBytesToReceive == 50_000)
        #expect(values.last?.bytesSent == 100_000)
    }

    @Test func traceRedactsPasswordsAuthorizationAndCookies() async throws {
        let server = try HTTPServer { _ in
            HTTPServerResponse(
                status: 200, contentType: "text/plain", text: "ok",
                headers: [("Set-Cookie", "srv=ServerCookieValue42; Path=/")])
        }
        defer { server.stop() }
        let records = Collected<TraceRecord>()
        let client = try makeClient { $0.trace = { records.append($0) } }
        try client.cookies.add(Cookie(name: "sess", value: "JarCookieValue17", domain: "127.0.0.1"))
        let request = HTTPRequest(
            method: "POST", url: server.baseURL + "/login",
            headers: ["X-Visible": "shown"],
            body: .form([("username", "alice"), ("passwd", "FormPassword99")]),
            auth: .basic(user: "alice", password: Secret("BasicPassword55")))
        _ = try await client.execute(request)
        _ = try await client.execute(HTTPRequest(url: server.baseURL + "/next?access_token=QueryToken31&page=2"))
        let all = records.values.flatMap(\.allStrings)
        #expect(records.values.count == 2)
        let basic = Data("alice:BasicPassword55".utf8).base64EncodedString()
        for secret in [
            "FormPassword99", "BasicPassword55", basic, "JarCookieValue17", "ServerCookieValue42", "QueryToken31",
        ] {
            #expect(!all.contains { $0.contains(secret) }, "trace leaks \(secret)")
        }
        let first = try #require(records.values.first)
        // The redacted headers are there, so the check above is meaningful.
        #expect(first.requestHeaders.contains { $0.name == "Authorization" && $0.value == "Basic <redacted>" })
        #expect(first.requestHeaders.contains { $0.name == "Cookie" && $0.value == "sess=<redacted>" })
        #expect(first.requestHeaders.contains { $0.name == "X-Visible" && $0.value == "shown" })
        #expect(first.responseHeaders.contains { $0.name == "Set-Cookie" && $0.value == "srv=<redacted>" })
        #expect(first.formFieldNames == ["username", "passwd"])
        #expect(first.status == 200)
        #expect(records.values.last?.requestHeaders.contains { $0.value.contains("srv=<redacted>") } == true)
        #expect(records.values.last?.url.hasSuffix("/next?access_token=<redacted>&page=2") == true)

        // Printing the request, its headers or a cookie never shows the secrets either.
        var bearer = request
        bearer.headers.add("Authorization", "RawToken77")
        bearer.headers.add("Cookie", "a=CookieHeader88")
        var dumped = ""
        dump(bearer, to: &dumped)
        var dumpedCookie = ""
        dump(try client.cookies.all(), to: &dumpedCookie)
        let printed = [
            String(describing: bearer), String(reflecting: bearer), dumped, bearer.headers.description,
            String(reflecting: bearer.headers), dumpedCookie, String(reflecting: try client.cookies.all()),
        ]
        for secret in ["FormPassword99", "BasicPassword55", "RawToken77", "CookieHeader88", "JarCookieValue17"] {
            #expect(!printed.contains { $0.contains(secret) }, "printing leaks \(secret)")
        }
        #expect(dumped.contains("passwd") && dumpedCookie.contains("sess"))
        #expect(Secret("x").description == "<redacted>" && "\(Secret("x"))" == "<redacted>")
        #expect(!String(reflecting: Authentication.basic(user: "u", password: Secret("hidden"))).contains("hidden"))
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let release = Flag()
        let arrived = Flag()
        let served = Flag()
        let server = try HTTPServer { _ in
            arrived.set()
            stall(until: release)
            served.set()
            return HTTPServerResponse(status: 200)
        }
        defer {
            release.set()
            server.stop()
        }
        let client = try makeClient()
        let task = Task { try await client.execute(HTTPRequest(url: server.baseURL + "/slow")) }
        while !arrived.isSet { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        let result = await task.result
        // The handler is still stalled (it answers only when released or after 60 s): cancellation did not
        // wait for the server.
        #expect(!served.isSet)
        guard case .failure(let error) = result else {
            Issue.record("expected cancellation")
            return
        }
        #expect((error as? TransportError)?.kind == .cancelled)
        // The client still works afterwards.
        let quick = try HTTPServer { _ in HTTPServerResponse(status: 204) }
        defer { quick.stop() }
        #expect(try await client.execute(HTTPRequest(url: quick.baseURL)).status == 204)
        // A task cancelled before it starts never reaches the server.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.execute(HTTPRequest(url: server.baseURL + "/never"))
        }
        #expect(((try? await early.value) == nil))
    }

    @Test func tlsIsVerifiedByDefaultAndTrustsAGivenCA() async throws {
        let certificate = try await TestCertificate.make()
        let server = try HTTPServer(tls: (certificate.certificatePEM, certificate.keyPEM)) { _ in
            HTTPServerResponse(status: 200, contentType: "text/plain", text: "secure")
        }
        defer { server.stop() }
        let strict = try makeClient()
        let error = await transportError { _ = try await strict.execute(HTTPRequest(url: server.baseURL + "/")) }
        #expect(error?.kind == .tls)
        #expect(error?.description.contains("Pass a CA file") == true)
        #expect(error?.detail.isEmpty == false)
        let trusting = try makeClient { $0.caFile = certificate.certificatePath }
        let response = try await trusting.execute(HTTPRequest(url: server.baseURL + "/"))
        #expect(response.text == "secure")
        #expect(response.timings.tls > .zero)
        let insecure = try makeClient { $0.insecureSkipTLSVerification = true }
        #expect(try await insecure.execute(HTTPRequest(url: server.baseURL + "/")).status == 200)
    }

    @Test func invalidRequestsAreRefusedBeforeAnyIO() async throws {
        let client = try makeClient()
        let scheme = await transportError { _ = try await client.execute(HTTPRequest(url: "ftp://example.test/")) }
        #expect(scheme?.kind == .invalidRequest)
        let method = await transportError {
            _ = try await client.execute(HTTPRequest(method: "GET /x", url: "http://127.0.0.1:1/"))
        }
        #expect(method?.kind == .invalidRequest)
    }

    /// Requests to loopback never go through a proxy, from the configuration or the environment: credentials
    /// allowed over plain http only because they stay on this machine must not reach a proxy.
    @Test func loopbackBypassesEveryProxy() async throws {
        let (proxy, proxyRecorder) = try recordingServer { _ in "via proxy" }
        defer { proxy.stop() }
        let target = try HTTPServer(address: "127.0.0.3") { _ in
            HTTPServerResponse(status: 200, contentType: "text/plain", text: "direct")
        }
        defer { target.stop() }
        let client = try makeClient { $0.proxy = proxy.baseURL }
        let response = try await client.execute(
            HTTPRequest(method: "POST", url: target.baseURL + "/login", body: .form([("passwd", "s3cret")])))
        #expect(response.text == "direct")
        #expect(proxyRecorder.count == 0)

        #expect(HTTPClient.noProxyList(configured: nil, environment: [:]) == "localhost,127.0.0.1,127.0.0.0/8,::1")
        #expect(
            HTTPClient.noProxyList(configured: nil, environment: ["no_proxy": ".corp.example,"])
                == ".corp.example,localhost,127.0.0.1,127.0.0.0/8,::1")
        #expect(
            HTTPClient.noProxyList(configured: "intranet", environment: ["NO_PROXY": "x"])
                == "intranet,localhost,127.0.0.1,127.0.0.0/8,::1")
        #expect(HTTPClient.noProxyList(configured: nil, environment: ["NO_PROXY": "*"]) == "*")
    }

    @Test func bearerTokenProxyAndSinkDestination() async throws {
        let (server, recorder) = try recordingServer { "from \($0.target)" }
        defer { server.stop() }
        let client = try makeClient { $0.proxy = server.baseURL }
        let chunks = Collected<[UInt8]>()
        let response = try await client.execute(
            HTTPRequest(
                url: "http://intranet.example.invalid/sites/a", auth: .bearer(Secret("tok-123")),
                responseBody: .sink { chunks.append($0) }))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(
            String(decoding: chunks.values.flatMap { $0 }, as: UTF8.self)
                == "from http://intranet.example.invalid/sites/a")
        let seen = try #require(recorder.requests.first)
        #expect(seen.header("Authorization") == "Bearer tok-123")
        #expect(seen.header("Host") == "intranet.example.invalid")

        struct Refused: Error {}
        let failing = await transportError {
            _ = try await client.execute(
                HTTPRequest(url: "http://intranet.example.invalid/", responseBody: .sink { _ in throw Refused() }))
        }
        #expect(failing?.kind == .io)
    }

    @Test func headersAreOrderedMultiValuedAndCaseInsensitive() {
        var headers: HTTPHeaders = ["Accept": "a", "X-One": "1"]
        headers.add("x-one", "2")
        #expect(headers["X-ONE"] == "1")
        #expect(headers.values(for: "x-one") == ["1", "2"])
        headers.set("X-One", "3")
        #expect(headers.values(for: "x-one") == ["3"])
        #expect(headers.map(\.name) == ["Accept", "X-One"])
        headers.remove("accept")
        #expect(!headers.contains("Accept"))
        #expect(LibraryInfo.curlVersion.first?.isNumber == true)
        #expect(FormEncoder.encode([("a b", "~!'()"), ("", "")]) == "a+b=%7E%21%27%28%29&=")
        #expect(
            TraceRedaction.url("https://u:p@h.test/a?x=1&Password=p&SAMLResponse=s&code=c#frag")
                == "https://<redacted>@h.test/a?x=1&Password=<redacted>&SAMLResponse=<redacted>&code=<redacted>#<redacted>"
        )
        #expect(TraceRedaction.url("http://h.test/p@q?flowToken=f") == "http://h.test/p@q?flowToken=<redacted>")
    }
}

/// Blocks a server handler until the test releases it (every test does, in a `defer`, so `stop()` does not
/// wait), or for 60 s at most. The bound is far above any step of a test on a loaded machine: with 5 s, a full
/// parallel run on two busy cores once saw the handler give up before the client had been cancelled.
func stall(until release: Flag) {
    for _ in 0..<3_000 where !release.isSet { Thread.sleep(forTimeInterval: 0.02) }
}

/// The most handlers running at once.
final class PeakCounter: Sendable {
    /// How many run now, and the most that ran at once.
    /// A pthread mutex: ThreadSanitizer does not see Synchronization's `Mutex` (futexes) and took the counts for a race.
    private let counts = PosixMutex((current: 0, highest: 0))
    func enter() {
        counts.withLock {
            $0.current += 1
            $0.highest = max($0.highest, $0.current)
        }
    }
    func leave() { counts.withLock { $0.current -= 1 } }
    var peak: Int { counts.withLock { $0.highest } }
}
