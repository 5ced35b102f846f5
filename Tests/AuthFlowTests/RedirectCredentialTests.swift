import AuthFlow
import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

/// HTTP authentication (NTLM, Basic) must not follow a redirect to another host: a 307/308 repeats the
/// request, but its credentials stay with the host they were meant for unless `--allow-host` names the target.
@Suite struct RedirectCredentialTests {
    /// Authorization headers (nil when absent) each request to the foreign server carried.
    final class AuthorizationLog: Sendable {
        private let seen = Mutex<[String?]>([])
        func add(_ value: String?) { seen.withLock { $0.append(value) } }
        var all: [String?] { seen.withLock { $0 } }
    }

    /// A site on 127.0.0.1 whose Windows sign-in entry answers `status` to `/steal` on 127.0.0.2, which
    /// challenges for NTLM (so a client holding credentials would send them) and records what it got.
    /// `allowForeign` names the foreign server's `HOST:PORT` with `--allow-host`; `allowHostOnly` names its host
    /// alone (which means the default port, so it must not help).
    static func signIn(status: Int, allowForeign: Bool = false, allowHostOnly: Bool = false) async throws -> (
        SignInOutcome, [String?]
    ) {
        let log = AuthorizationLog()
        let foreign = try HTTPServer(address: "127.0.0.2") { request in
            log.add(request.header("Authorization"))
            return HTTPServerResponse(status: 401, headers: [("WWW-Authenticate", "NTLM")])
        }
        defer { foreign.stop() }
        let stealURL = foreign.baseURL + "/steal"
        let allowedHosts: Set<String> =
            allowForeign ? ["127.0.0.2:\(foreign.port)"] : allowHostOnly ? ["127.0.0.2"] : []
        let site = try HTTPServer(address: "127.0.0.1") { _ in
            HTTPServerResponse(status: status, headers: [("Location", stealURL)])
        }
        defer { site.stop() }
        let outcome = await SignIn(
            client: try HTTPClient(),
            configuration: SignInConfiguration(
                siteURL: site.baseURL, username: "CONTOSO\\alice", password: Secret("Hunter2-Pa55!"), flow: .ntlm,
                policy: SignInPolicy(allowedHosts: allowedHosts, allowHTTPLoopback: true))
        ).run()
        return (outcome, log.all)
    }

    @Test(arguments: [307, 308, 302])
    func ntlmCredentialsDoNotFollowARedirectToAnotherHost(status: Int) async throws {
        let (outcome, seen) = try await Self.signIn(status: status)
        #expect(!seen.isEmpty, "the redirect was not followed: \(outcome.message)")
        let carried = seen.compactMap { $0 }.count
        #expect(carried == 0, "the foreign host received \(carried) Authorization headers")
        #expect(
            outcome.hints.contains { if case .allowHost = $0 { true } else { false } }, "\(outcome.hints)")
    }

    /// The same redirect to a host named by `--allow-host` keeps the credentials: the foreign server above
    /// does see them when they are sent, so the test before this one can fail.
    @Test func anAllowedHostStillReceivesThem() async throws {
        let (_, seen) = try await Self.signIn(status: 307, allowForeign: true)
        #expect(seen.contains { $0?.hasPrefix("NTLM ") == true })
    }

    /// The credential rule is per origin: `--allow-host 127.0.0.2` allows that host on its default port only, not
    /// the port the foreign server listens on.
    @Test func aBareAllowedHostDoesNotOpenOtherPorts() async throws {
        let (outcome, seen) = try await Self.signIn(status: 307, allowHostOnly: true)
        #expect(!seen.isEmpty, "the redirect was not followed: \(outcome.message)")
        #expect(seen.compactMap { $0 }.isEmpty, "another port of an allowed host received the credentials")
    }

    /// Without I/O: the request after a 307 to another host has no authentication and is not marked as
    /// carrying credentials; after a 307 on the same host it keeps both.
    @Test func theMachineDropsAuthenticationOnAForeignHop() {
        for (target, keeps) in [("http://127.0.0.2:9/steal", false), ("http://127.0.0.1:8/_windows/next", true)] {
            var machine = SignInMachine(
                SignInConfiguration(
                    siteURL: "http://127.0.0.1:8", username: "alice", password: Secret("pw-123456"), flow: .ntlm,
                    policy: SignInPolicy(allowHTTPLoopback: true)))
            guard case .send(let first) = machine.start() else {
                Issue.record("no first request")
                return
            }
            #expect(first.authentication != nil)
            let action = machine.receive(
                SignInResponse(
                    url: first.url, status: 307, headers: [("Location", target)], location: target, body: [],
                    siteCookies: []))
            guard case .send(let next) = action else {
                Issue.record("expected the redirect to be followed, got \(action)")
                return
            }
            #expect(next.url == target)
            #expect((next.authentication != nil) == keeps, "\(target)")
            #expect(next.carriesCredentials == keeps, "\(target)")
        }
    }
}
