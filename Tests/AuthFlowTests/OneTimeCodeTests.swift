import AuthFlow
import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

/// A generic identity provider with a second page for a one-time code: the code comes from the driver's source,
/// is filled into the field the reader found, and a refused code is asked for again; no code source ends with an
/// interaction that says how to give one. Codes never appear in the trace.
@Suite struct OneTimeCodeTests {
    static let password = "Hunter2-Pa55!"
    static let goodCode = "246810"

    /// A web page on 127.0.0.1 whose sign-in on 127.0.0.2 asks for the password, then for a code.
    final class Codes: Sendable {
        let seen = Mutex<[String]>([])
        func add(_ code: String) { seen.withLock { $0.append(code) } }
        var all: [String] { seen.withLock { $0 } }
    }

    struct World {
        let site: HTTPServer
        let idp: HTTPServer
        let received = Codes()

        init() throws {
            let codes = received
            let idp = try HTTPServer(address: "127.0.0.2") { request in
                func page(_ body: String) -> HTTPServerResponse {
                    HTTPServerResponse(status: 200, contentType: "text/html; charset=utf-8", text: body)
                }
                let back = request.formValue("next") ?? request.queryValue("next") ?? ""
                switch (request.method, request.path) {
                case ("POST", "/password") where request.formValue("password") == OneTimeCodeTests.password:
                    return page(OneTimeCodeTests.codePage(next: back, refused: false))
                case ("POST", "/code"):
                    let code = request.formValue("otp") ?? ""
                    codes.add(code)
                    guard code == OneTimeCodeTests.goodCode else {
                        return page(OneTimeCodeTests.codePage(next: back, refused: true))
                    }
                    return HTTPServerResponse(status: 302, headers: [("Location", back)])
                default:
                    return page(
                        """
                        <form method=post action=/password><input name=username autocomplete=username>
                        <input type=password name=password><input type=hidden name=next value="\(back)">
                        <button>Sign in</button></form>
                        """)
                }
            }
            self.idp = idp
            let idpURL = idp.baseURL
            site = try HTTPServer(address: "127.0.0.1") { request in
                if request.cookies["session"] == "ok" {
                    return HTTPServerResponse(status: 200, contentType: "text/html", text: "<p>Welcome</p>")
                }
                let here = "http://" + (request.header("Host") ?? "")
                if request.path == "/back" {
                    return HTTPServerResponse(
                        status: 302, headers: [("Location", "/app"), ("Set-Cookie", "session=ok")])
                }
                return HTTPServerResponse(status: 302, headers: [("Location", idpURL + "/?next=" + here + "/back")])
            }
        }

        /// The codes the identity provider received, in order.
        var codes: [String] { received.all }

        func stop() {
            site.stop()
            idp.stop()
        }

        func signIn(codes source: OneTimeCodeSource?) async throws -> (SignInOutcome, [SignInTraceStep]) {
            let trace = Mutex<[SignInTraceStep]>([])
            let outcome = await SignIn(
                client: try HTTPClient(),
                configuration: .web(
                    url: site.baseURL + "/app", username: "alice", password: Secret(OneTimeCodeTests.password),
                    policy: SignInPolicy(allowedHosts: [], allowHTTPLoopback: true)),
                options: SignIn.Options(trace: { step in trace.withLock { $0.append(step) } }, oneTimeCode: source)
            ).run()
            return (outcome, trace.withLock { $0 })
        }
    }

    static func codePage(next: String, refused: Bool) -> String {
        """
        <h1>Two-step verification</h1>
        \(refused ? "<p class=error id=otp-error>That code is not right.</p>" : "")
        <form method=post action=/code><label for=otp>Verification code</label>
        <input id=otp name=otp inputmode=numeric maxlength=6 \(refused ? "aria-invalid=true" : "")>
        <input type=hidden name=next value="\(next)"><button>Verify</button></form>
        """
    }

    @Test func aCodeFromTheSourceSignsIn() async throws {
        let world = try World()
        defer { world.stop() }
        let asked = Mutex<[OneTimeCodeRequest]>([])
        let (outcome, trace) = try await world.signIn { request in
            asked.withLock { $0.append(request) }
            return Secret(Self.goodCode)
        }
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(world.codes == [Self.goodCode])
        let request = try #require(asked.withLock { $0 }.first)
        #expect(request.fieldName == "otp" && request.attempt == 1 && request.label?.contains("Verification") == true)
        let text = trace.map(\.jsonLine).joined(separator: "\n")
        #expect(!text.contains(Self.goodCode) && !text.contains(Self.password))
        #expect(trace.contains { $0.pageKind == "one-time-code" })
    }

    @Test func aRefusedCodeIsAskedForAgain() async throws {
        let world = try World()
        defer { world.stop() }
        let answers = Mutex(["111111", Self.goodCode])
        let (outcome, _) = try await world.signIn { _ in
            answers.withLock { $0.isEmpty ? nil : Secret($0.removeFirst()) }
        }
        guard case .signedIn = outcome else {
            Issue.record("expected a session after the second code, got \(outcome.message)")
            return
        }
        #expect(world.codes == ["111111", Self.goodCode])
    }

    @Test func codesRefusedTooOftenAreInvalidCredentialsAndNoSourceIsAnInteraction() async throws {
        let world = try World()
        defer { world.stop() }
        let (refused, _) = try await world.signIn { _ in Secret("000000") }
        guard case .invalidCredentials(let message, _) = refused else {
            Issue.record("expected the codes to be refused, got \(refused.message)")
            return
        }
        #expect(message.contains("refused 3 times"), "\(message)")
        #expect(!refused.message.contains("000000"))

        let (none, _) = try await world.signIn(codes: nil)
        guard case .interactionRequired(.mfa, _, let why, _, _) = none else {
            Issue.record("expected an interaction, got \(none.message)")
            return
        }
        #expect(why?.contains("no code source was given") == true, "\(why ?? "")")
        #expect(none.hints == [.giveOneTimeCodeSource], "\(none.hints)")
    }
}
