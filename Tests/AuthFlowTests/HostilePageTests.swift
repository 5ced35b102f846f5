import AuthFlow
import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

/// The engine end to end over real loopback HTTP against small hand-written servers: a friendly IdP that
/// signs in, and hostile pages that must stop the sign-in without the password going anywhere wrong.
@Suite struct HostilePageTests {
    static let password = "Hunter2-Pa55!"

    /// Every request any test server saw, so tests can assert where the password went.
    final class RequestLog: Sendable {
        private let entries = Mutex<[(host: String, target: String, body: String)]>([])
        func add(_ request: HTTPServerRequest) {
            let entry = (request.serverAddress, request.target, String(decoding: request.body, as: UTF8.self))
            entries.withLock { $0.append(entry) }
        }
        var all: [(host: String, target: String, body: String)] { entries.withLock { $0 } }
        func hostsThatSawPassword() -> Set<String> {
            let encoded = FormURLEncodingProbe.encode(HostilePageTests.password)
            return Set(
                all.filter {
                    $0.body.contains(encoded) || $0.target.contains(encoded)
                        || $0.body.contains(HostilePageTests.password) || $0.target.contains(HostilePageTests.password)
                }
                .map(\.host))
        }
    }

    /// A site on 127.0.0.1 whose sign-in entry redirects to `idpPage` on 127.0.0.2; `/_trust/` sets FedAuth.
    struct World {
        let site: HTTPServer
        let idp: HTTPServer
        let log: RequestLog
        func stop() {
            site.stop()
            idp.stop()
        }
    }

    static func world(idpPage: @escaping @Sendable (HTTPServerRequest, String) -> HTTPServerResponse) throws -> World {
        let log = RequestLog()
        let siteURL = TextBox()
        let idp = try HTTPServer(address: "127.0.0.2") { request in
            log.add(request)
            return idpPage(request, siteURL.value)
        }
        let idpURL = idp.baseURL
        let site = try HTTPServer(address: "127.0.0.1") { request in
            log.add(request)
            switch request.path {
            case "/_layouts/15/Authenticate.aspx":
                return HTTPServerResponse(status: 302, headers: [("Location", idpURL + "/login")])
            case "/_trust/":
                guard request.formValue("wresult") == "token-for-alice" else {
                    return HTTPServerResponse(status: 403, contentType: "text/plain", text: "no token")
                }
                return HTTPServerResponse(
                    status: 302,
                    headers: [("Set-Cookie", "FedAuth=signed-in-alice; Path=/; HttpOnly"), ("Location", "/")])
            case "/_api/web/currentuser":
                guard request.cookies["FedAuth"] == "signed-in-alice" else {
                    return HTTPServerResponse(status: 403, headers: [("X-Forms_Based_Auth_Required", "yes")])
                }
                return HTTPServerResponse(
                    status: 200, contentType: "application/json", text: #"{"Title":"Alice Example"}"#)
            default:
                return HTTPServerResponse(status: 404)
            }
        }
        siteURL.value = site.baseURL
        return World(site: site, idp: idp, log: log)
    }

    static func signIn(_ world: World, allowHTTPLoopback: Bool = true, maxPageBytes: Int = 8 << 20) async throws
        -> (SignInOutcome, [SignInTraceStep])
    {
        let client = try HTTPClient()
        let steps = StepRecorder()
        let outcome = await SignIn(
            client: client,
            configuration: SignInConfiguration(
                siteURL: world.site.baseURL, username: "alice@contoso.test", password: Secret(password),
                policy: SignInPolicy(allowHTTPLoopback: allowHTTPLoopback)),
            options: SignIn.Options(trace: steps.add, maxPageBytes: maxPageBytes)
        ).run()
        return (outcome, steps.all)
    }

    static func page(_ html: String) -> HTTPServerResponse {
        HTTPServerResponse(status: 200, contentType: "text/html; charset=utf-8", text: html)
    }

    static func loginForm(action: String, method: String = "post") -> String {
        """
        <html><head><title>Sign in</title></head><body>
        <form method="\(method)" action="\(action)">
          <input type="email" name="UserName"><input type="password" name="Password">
          <input type="hidden" name="AuthMethod" value="FormsAuthentication">
          <input type="submit" value="Sign in">
        </form></body></html>
        """
    }

    @Test func friendlyIdentityProviderSignsInAndTheTraceHoldsNoSecret() async throws {
        let world = try Self.world { request, siteURL in
            if request.method == "POST", request.formValue("Password") == Self.password,
                request.formValue("UserName") == "alice@contoso.test"
            {
                return Self.page(
                    """
                    <html><body onload="document.forms[0].submit()"><form method="POST" action="\(siteURL)/_trust/">
                    <input type="hidden" name="wa" value="wsignin1.0">
                    <input type="hidden" name="wresult" value="token-for-alice">
                    <noscript><input type="submit" value="Submit"></noscript></form></body></html>
                    """)
            }
            return Self.page(Self.loginForm(action: "/login"))
        }
        defer { world.stop() }
        let (outcome, trace) = try await Self.signIn(world)
        guard case .signedIn(let session) = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(session.displayName == "Alice Example")
        #expect(session.cookies.contains { $0.name == "FedAuth" })
        #expect(world.log.hostsThatSawPassword() == ["127.0.0.2"])
        let traceText = trace.map(\.jsonLine).joined(separator: "\n")
        #expect(!traceText.contains(Self.password))
        #expect(!traceText.contains("token-for-alice"))
        #expect(!traceText.contains("signed-in-alice"))
        #expect(trace.contains { $0.pageKind == "credential-form" })
        #expect(trace.contains { $0.cookiesSet == ["FedAuth"] })
    }

    @Test func withoutLoopbackPermissionPlainHTTPIsRefused() async throws {
        let world = try Self.world { _, _ in Self.page(Self.loginForm(action: "/login")) }
        defer { world.stop() }
        let (outcome, _) = try await Self.signIn(world, allowHTTPLoopback: false)
        guard case .policyRefused(.plainHTTP) = outcome else {
            Issue.record("expected plain-http refusal, got \(outcome.message)")
            return
        }
        #expect(world.log.hostsThatSawPassword().isEmpty)
    }

    @Test func passwordNeverGoesToAForeignHost() async throws {
        let collector = RequestLog()
        let foreign = try HTTPServer(address: "127.0.0.3") { request in
            collector.add(request)
            return HTTPServerResponse(status: 200)
        }
        defer { foreign.stop() }
        let world = try Self.world { _, _ in Self.page(Self.loginForm(action: foreign.baseURL + "/collect")) }
        defer { world.stop() }
        let (outcome, _) = try await Self.signIn(world)
        guard case .policyRefused(.foreignHost) = outcome else {
            Issue.record("expected foreign-host refusal, got \(outcome.message)")
            return
        }
        #expect(collector.all.isEmpty)
        #expect(world.log.hostsThatSawPassword().isEmpty)
    }

    @Test func getFormAndJavascriptActionAreRefused() async throws {
        let getWorld = try Self.world { _, _ in Self.page(Self.loginForm(action: "/login", method: "get")) }
        defer { getWorld.stop() }
        let (getOutcome, _) = try await Self.signIn(getWorld)
        guard case .policyRefused(.passwordInURL) = getOutcome else {
            Issue.record("expected GET refusal, got \(getOutcome.message)")
            return
        }
        #expect(getWorld.log.hostsThatSawPassword().isEmpty)

        let scriptWorld = try Self.world { _, _ in Self.page(Self.loginForm(action: "javascript:send()")) }
        defer { scriptWorld.stop() }
        let (scriptOutcome, _) = try await Self.signIn(scriptWorld)
        guard case .policyRefused(.notHTTP) = scriptOutcome else {
            Issue.record("expected javascript: refusal, got \(scriptOutcome.message)")
            return
        }
        #expect(scriptWorld.log.hostsThatSawPassword().isEmpty)
    }

    @Test func redirectLoopEndsAsLoop() async throws {
        let world = try Self.world { request, _ in
            HTTPServerResponse(status: 302, headers: [("Location", request.path == "/a" ? "/b" : "/a")])
        }
        defer { world.stop() }
        let (outcome, _) = try await Self.signIn(world)
        guard case .loop = outcome else {
            Issue.record("expected a loop, got \(outcome.message)")
            return
        }
        #expect(world.log.all.count < 12)
    }

    @Test func hugePageIsRefusedWithoutReadingItAll() async throws {
        let world = try Self.world { _, _ in
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
            let sent = CountBox()
            return HTTPServerResponse(
                status: 200, headers: [("Content-Type", "text/html")],
                body: .stream(length: 50 << 20) { sent.next() < 50 ? .data(chunk) : .end })
        }
        defer { world.stop() }
        let (outcome, _) = try await Self.signIn(world, maxPageBytes: 4 << 20)
        guard case .transport(let error) = outcome else {
            Issue.record("expected a size refusal, got \(outcome.message)")
            return
        }
        #expect(error.kind == .tooLarge)
    }
}

/// A string shared between a test and its server.
final class TextBox: Sendable {
    private let text = Mutex("")
    var value: String {
        get { text.withLock { $0 } }
        set { text.withLock { $0 = newValue } }
    }
}

/// A counter shared by one streamed body's producer.
final class CountBox: Sendable {
    private let count = Mutex(0)
    func next() -> Int {
        count.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}

/// The form encoding of a value, to find a password in a request body.
enum FormURLEncodingProbe {
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "*-._")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(
            of: "%20", with: "+")
    }
}
