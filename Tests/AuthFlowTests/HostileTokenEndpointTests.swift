import AuthFlow
import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

/// A token endpoint that answers what a broken or hostile server would: tokens with line breaks, tokens of
/// megabytes, absurd lifetimes and intervals. Each answer must end the sign-in with a clear token-endpoint error,
/// or be clamped to something a later command accepts, and no wait may outlast the device code (a wait that did
/// would stop at the suites' time limit, failing the test, instead of hanging it).
@Suite struct HostileTokenEndpointTests {
    /// A loopback tenant on plain http (allowed for loopback here) whose device-code and token answers are given.
    final class Tenant: Sendable {
        let server: HTTPServer
        /// The paths asked for, in order.
        final class Paths: Sendable {
            let all = Mutex<[String]>([])
        }
        let paths = Paths()

        init(deviceCode: String, token: @escaping @Sendable (Int) -> (status: Int, body: String)) throws {
            let polls = Mutex(0)
            let paths = self.paths
            server = try HTTPServer { request in
                paths.all.withLock { $0.append(request.path) }
                let json = [("Content-Type", "application/json")]
                if request.path.hasSuffix("/devicecode") {
                    return HTTPServerResponse(status: 200, headers: json, body: .bytes(Array(deviceCode.utf8)))
                }
                let poll = polls.withLock { count in
                    count += 1
                    return count
                }
                let answer = token(poll)
                return HTTPServerResponse(status: answer.status, headers: json, body: .bytes(Array(answer.body.utf8)))
            }
        }

        func signIn(policy: SignInPolicy = SignInPolicy(allowHTTPLoopback: true)) throws -> DeviceCodeSignIn {
            DeviceCodeSignIn(
                client: try HTTPClient(), siteURL: "https://contoso.sharepoint.com/sites/a", appId: "app",
                tenant: "tenant.example", authorityHost: server.baseURL, policy: policy, slowDownIncrement: 5
            ) { _ in }
        }

        var tokenPolls: Int { paths.all.withLock { $0.filter { $0.hasSuffix("/token") }.count } }
    }

    static func deviceCode(expiresIn: String = "900", interval: String = "1") -> String {
        #"{"device_code":"dc","user_code":"ABC-DEF","verification_uri":"https://example.test/devicelogin","expires_in":"#
            + expiresIn + #","interval":"# + interval + "}"
    }

    static func token(_ access: String, expiresIn: String = "3600") -> String {
        // The token as a JSON string: control characters escaped as JSON allows (\r, \n, \u0000).
        var escaped = "\""
        let plain = access.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }
        for scalar in plain ? [] : Array(access.unicodeScalars) {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\r": escaped += "\\r"
            case "\n": escaped += "\\n"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        escaped += (plain ? access : "") + "\""
        return #"{"token_type":"Bearer","access_token":"# + escaped + #","expires_in":"#
            + expiresIn + #","refresh_token":"rt"}"#
    }

    @Test(
        "a token with a line break is refused before any header carries it",
        arguments: ["a\r\nX-Injected: 1", "a\nb", "a\u{0}b"])
    func tokenWithLineBreak(access: String) async throws {
        let tenant = try Tenant(deviceCode: Self.deviceCode()) { _ in (200, Self.token(access)) }
        await #expect {
            try await tenant.signIn().run()
        } throws: { error in
            guard let error = error as? TokenError, error.reason == .unexpectedResponse else { return false }
            return error.description.contains("access_token holds a line break")
                && !error.description.contains("X-Injected") && error.description.contains("unusable")
        }
        await tenant.server.stop()
    }

    @Test("a 16 MB token is the token endpoint's unusable answer, not libcurl's option number")
    func giantToken() async throws {
        let giant = String(repeating: "A", count: 16 << 20)
        let tenant = try Tenant(deviceCode: Self.deviceCode()) { _ in (200, Self.token(giant)) }
        await #expect {
            try await tenant.signIn().run()
        } throws: { error in
            let text = "\(error)"
            return (error as? TokenError)?.reason == .unexpectedResponse && text.contains("more than a request header")
                && !text.contains("libcurl") && text.count < 400
        }
        await tenant.server.stop()
    }

    @Test("an expires_in of Int64.max (or 1e300) is clamped to a day, not saved as forever; a negative one to none")
    func absurdLifetimes() async throws {
        for (lifetime, expected) in [
            ("9223372036854775807", 86_400.0), ("1e300", 86_400), ("-5", 0), ("\"7200\"", 7200),
        ] {
            let tenant = try Tenant(deviceCode: Self.deviceCode()) { _ in (200, Self.token("tok", expiresIn: lifetime))
            }
            let session = try await tenant.signIn().run()
            let tokens = try #require(session.tokens)
            #expect(abs(tokens.expiresAt.timeIntervalSince(tokens.obtainedAt) - expected) < 1, "expires_in \(lifetime)")
            await tenant.server.stop()
        }
    }

    @Test(
        "constant slow_down stops polling at the code's expiry, with codeExpired", .timeLimit(.minutes(1)))
    func constantSlowDown() async throws {
        let tenant = try Tenant(deviceCode: Self.deviceCode(expiresIn: "3", interval: "1")) { _ in
            (400, #"{"error":"slow_down"}"#)
        }
        await #expect {
            try await tenant.signIn().run()
        } throws: { error in (error as? TokenError)?.reason == .codeExpired }
        // Polls at 1 s, then (6 s asked) at the expiry, 3 s (on a busy machine the first answer may arrive after it):
        // one or two, where an unbounded loop polls on for ever.
        #expect((1...2).contains(tenant.tokenPolls), "\(tenant.tokenPolls) polls")
        await tenant.server.stop()
    }

    @Test("an interval of 100000 s still ends at the code's expiry", .timeLimit(.minutes(1)))
    func hugeInterval() async throws {
        let tenant = try Tenant(deviceCode: Self.deviceCode(expiresIn: "2", interval: "100000")) { _ in
            (400, #"{"error":"authorization_pending"}"#)
        }
        await #expect {
            try await tenant.signIn().run()
        } throws: { error in (error as? TokenError)?.reason == .codeExpired }
        #expect(tenant.tokenPolls == 1, "one poll, at the expiry")
        await tenant.server.stop()
    }

    @Test("a plain-http token endpoint is refused in the token endpoint's words, not the sign-in form's")
    func plainHTTPAuthority() async throws {
        let tenant = try Tenant(deviceCode: Self.deviceCode()) { _ in (200, Self.token("tok")) }
        // The server listens on loopback; the host name is not an address, so plain http is refused before asking.
        let signIn = DeviceCodeSignIn(
            client: try HTTPClient(), siteURL: "https://contoso.sharepoint.com", appId: "app", tenant: "t",
            authorityHost: "http://login.example.test", policy: SignInPolicy()
        ) { _ in }
        await #expect {
            try await signIn.run()
        } throws: { error in
            let text = "\(error)"
            return (error as? TokenError)?.reason == .insecureAuthority && text.contains("token endpoint")
                && !text.contains("sign-in form") && text.contains("https")
        }
        #expect(tenant.paths.all.withLock { $0.isEmpty })
        await tenant.server.stop()
    }
}
