import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import Transport

@Suite struct RedirectTests {
    /// `/r<status>` answers that status pointing (relatively) at `/target`; `/target` echoes method and body.
    static func redirectServer(_ recorder: Recorder) throws -> HTTPServer {
        try HTTPServer { request in
            recorder.record(request)
            if request.path.hasPrefix("/r"), let status = Int(request.path.dropFirst(2)) {
                return HTTPServerResponse(
                    status: status, contentType: "text/plain", text: "moved", headers: [("Location", "target?x=1")])
            }
            if request.path == "/deep/a/b" {
                return HTTPServerResponse(status: 302, headers: [("Location", "../c")])
            }
            if request.path == "/nolocation" {
                return HTTPServerResponse(status: 300, contentType: "text/plain", text: "choose")
            }
            if request.path == "/loop" {
                return HTTPServerResponse(status: 302, headers: [("Location", "/loop")])
            }
            let text = "\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))"
            return HTTPServerResponse(status: 200, contentType: "text/plain", text: text)
        }
    }

    @Test func manualReturnsTheRedirectWithAnAbsoluteLocation() async throws {
        let recorder = Recorder()
        let server = try Self.redirectServer(recorder)
        defer { server.stop() }
        let client = try makeClient()
        let response = try await client.execute(HTTPRequest(url: server.baseURL + "/r302"))
        #expect(response.status == 302)
        #expect(response.redirectLocation == server.baseURL + "/target?x=1")
        #expect(response.text == "moved")
        #expect(recorder.count == 1)
    }

    @Test(arguments: [
        (301, "POST", "GET", ""), (302, "POST", "GET", ""), (303, "POST", "GET", ""), (307, "POST", "POST", "a=1"),
        (308, "POST", "POST", "a=1"), (303, "PUT", "GET", ""), (301, "PUT", "PUT", "a=1"),
        (302, "DELETE", "DELETE", "a=1"),
    ])
    func followAppliesBrowserMethodRules(status: Int, method: String, expectedMethod: String, expectedBody: String)
        async throws
    {
        let recorder = Recorder()
        let server = try Self.redirectServer(recorder)
        defer { server.stop() }
        let client = try makeClient()
        let response = try await client.execute(
            HTTPRequest(
                method: method, url: server.baseURL + "/r\(status)", body: .form([("a", "1")]),
                redirects: .follow(max: 5)))
        #expect(response.status == 200)
        #expect(response.text == "\(expectedMethod) /target \(expectedBody)")
        #expect(response.url == server.baseURL + "/target?x=1")
        #expect(response.urlChain == [server.baseURL + "/r\(status)", server.baseURL + "/target?x=1"])
        #expect(recorder.requests.map(\.method) == [method, expectedMethod])
        if expectedMethod == "GET" {
            #expect(recorder.requests.last?.header("Content-Type") == nil)
        }
    }

    @Test func relativeLocationWithDotsIsResolved() async throws {
        let recorder = Recorder()
        let server = try Self.redirectServer(recorder)
        defer { server.stop() }
        let client = try makeClient()
        let manual = try await client.execute(HTTPRequest(url: server.baseURL + "/deep/a/b"))
        #expect(manual.redirectLocation == server.baseURL + "/deep/c")
        let followed = try await client.execute(
            HTTPRequest(url: server.baseURL + "/deep/a/b", redirects: .follow(max: 3)))
        #expect(followed.text == "GET /deep/c ")
    }

    @Test func followedRedirectBodiesNeverReachTheDestination() async throws {
        let recorder = Recorder()
        let server = try Self.redirectServer(recorder)
        defer { server.stop() }
        let client = try makeClient()
        let path = URL(fileURLWithPath: try temporaryDirectory("transport")).appendingPathComponent("body.txt").path
        let response = try await client.execute(
            HTTPRequest(url: server.baseURL + "/r302", redirects: .follow(max: 2), responseBody: .file(path: path)))
        #expect(response.status == 200)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "GET /target ")
        let head = try await client.execute(
            HTTPRequest(method: "HEAD", url: server.baseURL + "/r303", redirects: .follow(max: 2)))
        #expect(head.status == 200)
        #expect(recorder.requests.suffix(2).map(\.method) == ["HEAD", "HEAD"])
        let choice = try await client.execute(
            HTTPRequest(url: server.baseURL + "/nolocation", redirects: .follow(max: 2)))
        #expect(choice.status == 300 && choice.text == "choose" && choice.redirectLocation == nil)
    }

    @Test func loopHitsTheHopLimit() async throws {
        let recorder = Recorder()
        let server = try Self.redirectServer(recorder)
        defer { server.stop() }
        let client = try makeClient()
        let error = await transportError {
            _ = try await client.execute(HTTPRequest(url: server.baseURL + "/loop", redirects: .follow(max: 4)))
        }
        #expect(error?.kind == .redirectLimit)
        #expect(recorder.count == 5)
    }

    @Test func httpsToHttpWithCredentialsIsRefusedWithoutIsAllowed() async throws {
        let (plain, plainRecorder) = try recordingServer { _ in "plain" }
        defer { plain.stop() }
        let certificate = try await TestCertificate.make()
        let secure = try HTTPServer(tls: (certificate.certificatePEM, certificate.keyPEM)) { _ in
            HTTPServerResponse(status: 302, headers: [("Location", plain.baseURL + "/landing")])
        }
        defer { secure.stop() }
        let client = try makeClient { $0.caFile = certificate.certificatePath }

        let withAuth = await transportError {
            _ = try await client.execute(
                HTTPRequest(
                    url: secure.baseURL + "/start", auth: .basic(user: "u", password: Secret("pw")),
                    redirects: .follow(max: 5)))
        }
        #expect(withAuth?.kind == .insecureRedirect)
        let withHeader = await transportError {
            _ = try await client.execute(
                HTTPRequest(
                    url: secure.baseURL + "/start", headers: ["Authorization": "Bearer t"], redirects: .follow(max: 5)))
        }
        #expect(withHeader?.kind == .insecureRedirect)
        #expect(plainRecorder.count == 0)

        let anonymous = try await client.execute(
            HTTPRequest(url: secure.baseURL + "/start", redirects: .follow(max: 5)))
        #expect(anonymous.text == "plain")
        #expect(plainRecorder.count == 1)
    }

    /// A hop to another host carries no credential header given by hand (the jar's cookies are libcurl's to match).
    @Test func crossOriginRedirectDropsEveryCredentialHeader() async throws {
        let (elsewhere, elsewhereRecorder) = try recordingServer(address: "127.0.0.2") { _ in "elsewhere" }
        defer { elsewhere.stop() }
        let startRecorder = Recorder()
        let start = try HTTPServer { request in
            startRecorder.record(request)
            return HTTPServerResponse(status: 302, headers: [("Location", elsewhere.baseURL + "/landing")])
        }
        defer { start.stop() }
        let client = try makeClient()
        let secrets: HTTPHeaders = [
            "Cookie": "FedAuth=secret-cookie", "X-RequestDigest": "0xDIGEST,1", "Proxy-Authorization": "Basic cHJveHk=",
            "Authorization": "Bearer t", "Accept": "text/plain",
        ]
        let response = try await client.execute(
            HTTPRequest(url: start.baseURL + "/go", headers: secrets, redirects: .follow(max: 3)))
        #expect(response.text == "elsewhere")
        let first = try #require(startRecorder.requests.first)
        #expect(first.header("Cookie") == "FedAuth=secret-cookie" && first.header("X-RequestDigest") == "0xDIGEST,1")
        let landed = try #require(elsewhereRecorder.requests.first)
        for name in ["Cookie", "X-RequestDigest", "Proxy-Authorization", "Authorization"] {
            #expect(landed.header(name) == nil, "\(name) followed the redirect to another host")
        }
        #expect(landed.header("Accept") == "text/plain")
    }

    @Test func credentialHeadersCountAsCredentialsForTheDowngradeRule() throws {
        for name in ["Cookie", "X-RequestDigest", "Proxy-Authorization", "Authorization"] {
            let request = HTTPRequest(url: "https://a.example/x", headers: [name: "v"])
            #expect(request.carriesCredentials, "\(name)")
            #expect(throws: TransportError.self) {
                try HTTPClient.redirected(request, status: 302, to: "http://a.example/")
            }
        }
        #expect(!HTTPRequest(url: "https://a.example/x", headers: ["Accept": "*/*"]).carriesCredentials)
    }

    @Test func originsCompareSchemeHostAndPort() {
        #expect(HTTPClient.isSameOrigin("https://A.example/x", "https://a.example:443/y?z"))
        #expect(!HTTPClient.isSameOrigin("https://a.example/", "https://a.example:8443/"))
        #expect(!HTTPClient.isSameOrigin("https://a.example/", "http://a.example/"))
        #expect(!HTTPClient.isSameOrigin("https://a.example/", "https://b.example/"))
        #expect(!HTTPClient.isSameOrigin("not a url", "https://a.example/"))
    }

    @Test func crossOriginHopDropsCredentials() throws {
        let request = HTTPRequest(
            url: "https://a.example/x", headers: ["Authorization": "Bearer t", "Accept": "*/*"],
            auth: .basic(user: "u", password: Secret("p")))
        let sameOrigin = try HTTPClient.redirected(request, status: 302, to: "https://a.example/y")
        #expect(sameOrigin.auth != nil && sameOrigin.headers["authorization"] == "Bearer t")
        let otherOrigin = try HTTPClient.redirected(request, status: 302, to: "https://b.example/y")
        #expect(otherOrigin.auth == nil && otherOrigin.headers["Authorization"] == nil)
        #expect(otherOrigin.headers["accept"] == "*/*")
    }
}
