import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import Transport

/// A client holding a session made over https never sends a request to plain http: not a redirect hop, not a URL
/// given directly, whether or not the server marked its cookies `Secure` (SharePoint behind TLS offload does not).
@Suite struct PlainHTTPRuleTests {
    @Test func anHTTPSSessionRefusesEveryPlainHTTPHopAndSendsNothing() async throws {
        let (plain, plainRecorder) = try recordingServer { _ in "plain" }
        defer { plain.stop() }
        let certificate = try await TestCertificate.make()
        let secure = try HTTPServer(tls: (certificate.certificatePEM, certificate.keyPEM)) { request in
            if request.path == "/login" {
                // Not Secure, not HttpOnly: the jar would send it anywhere on this host name.
                return HTTPServerResponse(status: 200, headers: [("Set-Cookie", "FedAuth=session-value; Path=/")])
            }
            return HTTPServerResponse(status: 302, headers: [("Location", plain.baseURL + "/landing")])
        }
        defer { secure.stop() }
        let client = try makeClient {
            $0.caFile = certificate.certificatePath
            $0.plainHTTP = .forSession(of: secure.baseURL)
        }
        #expect(client.configuration.plainHTTP == .never)
        _ = try await client.execute(HTTPRequest(url: secure.baseURL + "/login"))

        let redirected = await transportError {
            _ = try await client.execute(HTTPRequest(url: secure.baseURL + "/start", redirects: .follow(max: 5)))
        }
        #expect(redirected?.kind == .plainHTTPRefused)
        #expect(redirected?.description.contains("reached from") == true, "\(redirected?.description ?? "")")
        let direct = await transportError {
            _ = try await client.execute(HTTPRequest(url: plain.baseURL + "/next-page"))
        }
        #expect(direct?.kind == .plainHTTPRefused)
        #expect(direct?.description.contains("https") == true)
        #expect(plainRecorder.count == 0, "a request reached the plain-http server")
    }

    @Test func theRuleFollowsTheSessionsOwnScheme() {
        #expect(PlainHTTPRule.forSession(of: "https://contoso.sharepoint.com/sites/a") == .never)
        #expect(PlainHTTPRule.forSession(of: "http://127.0.0.1:8080/sites/a") == .loopbackOnly)
        #expect(PlainHTTPRule.forSession(of: "http://intranet.test/sites/a") == .anywhere)
        #expect(!PlainHTTPRule.loopbackOnly.allows(host: "sp.example"))
        #expect(PlainHTTPRule.loopbackOnly.allows(host: "127.9.0.1"))
        #expect(PlainHTTPRule.loopbackOnly.allows(host: "[::1]"))
        #expect(!PlainHTTPRule.loopbackOnly.allows(host: "127.0.0.1.evil.test"))
        #expect(!PlainHTTPRule.never.allows(host: "127.0.0.1"))
    }

    /// An http session on loopback keeps to loopback: a hop to another (named) host over http is refused.
    @Test func aLoopbackSessionStaysOnLoopback() async throws {
        let client = try makeClient {
            $0.plainHTTP = .loopbackOnly
            $0.resolve = ["sp.example:80:127.0.0.1"]
        }
        let error = await transportError { _ = try await client.execute(HTTPRequest(url: "http://sp.example/x")) }
        #expect(error?.kind == .plainHTTPRefused)
    }
}
