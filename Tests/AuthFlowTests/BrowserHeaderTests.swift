import AuthFlow
import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

/// Servers that refuse requests unlike a browser's: a relying party that answers 401 without `Accept: text/html`,
/// a CSRF check that refuses a post without the right `Referer` and `Origin` (Django's), and what a `Referer` must
/// never carry.
@Suite struct BrowserHeaderTests {
    final class Seen: Sendable {
        let requests = Mutex<[(path: String, referer: String?, origin: String?, accept: String?)]>([])
        func add(_ request: HTTPServerRequest) {
            requests.withLock {
                $0.append((request.path, request.header("Referer"), request.header("Origin"), request.header("Accept")))
            }
        }
    }

    /// A web page on 127.0.0.1 whose login form is on 127.0.0.2; both check what a browser sends.
    @Test func aSignInThroughBrowserChecksSucceedsAndTheRefererKeepsSecretsOut() async throws {
        let seen = Seen()
        let idp = try HTTPServer(address: "127.0.0.2") { request in
            seen.add(request)
            guard (request.header("Accept") ?? "").contains("text/html") else { return HTTPServerResponse(status: 401) }
            if request.method == "POST" {
                let origin = "http://127.0.0.2:\(request.header("Host")?.split(separator: ":").last ?? "")"
                guard request.header("Origin") == origin, request.header("Referer")?.hasPrefix(origin + "/") == true
                else {
                    return HTTPServerResponse(
                        status: 403, contentType: "text/html", text: "<h1>Forbidden</h1><p>Referer checking failed</p>")
                }
                let back = request.formValue("next") ?? ""
                return HTTPServerResponse(
                    status: 302, headers: [("Location", back), ("Set-Cookie", "idp=1; Path=/")])
            }
            return HTTPServerResponse(
                status: 200, contentType: "text/html; charset=utf-8",
                text: """
                    <form method=post action="/login?code=SECRET-CODE"><input name=username autocomplete=username>
                    <input type=password name=password autocomplete=current-password>
                    <input type=hidden name=next value="\(request.queryValue("next") ?? "")"><button>Sign in</button></form>
                    """)
        }
        defer { idp.stop() }
        let idpURL = idp.baseURL
        let site = try HTTPServer(address: "127.0.0.1") { request in
            seen.add(request)
            if request.cookies["session"] == "alice" {
                return HTTPServerResponse(status: 200, contentType: "text/html", text: "<p>Hello, alice</p>")
            }
            if request.path == "/back" {
                return HTTPServerResponse(
                    status: 302, headers: [("Location", "/app"), ("Set-Cookie", "session=alice; Path=/")])
            }
            let back = "http://" + (request.header("Host") ?? "") + "/back"
            return HTTPServerResponse(
                status: 302, headers: [("Location", idpURL + "/login?token=START-TOKEN&next=" + back)])
        }
        defer { site.stop() }
        let outcome = await SignIn(
            client: try HTTPClient(),
            configuration: .web(
                url: site.baseURL + "/app", username: "alice", password: Secret("Hunter2-Pa55!"),
                policy: SignInPolicy(allowHTTPLoopback: true))
        ).run()
        guard case .signedIn(let session) = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(session.cookies.contains { $0.name == "session" })
        #expect(session.targetCookies == ["session"])
        let requests = seen.requests.withLock { $0 }
        #expect(requests.allSatisfy { $0.accept?.contains("text/html") == true })
        // The login page's URL carries a token: a Referer from it is cut to the origin.
        let post = try #require(requests.first { $0.path == "/login" && $0.origin != nil })
        #expect(post.referer == post.origin! + "/", "\(post.referer ?? "nil")")
        #expect(
            !requests.contains { ($0.referer ?? "").contains("SECRET") || ($0.referer ?? "").contains("START-TOKEN") })
    }

    @Test func theRefererPolicyIsStrictOriginWhenCrossOrigin() {
        let browser = BrowserHeaders()
        func referer(_ from: String, _ to: String, _ method: String = "GET") -> [String: String] {
            Dictionary(
                browser.headers(method: method, url: to, referrer: from, existing: []).map { ($0.0, $0.1) },
                uniquingKeysWith: { first, _ in first })
        }
        #expect(referer("https://a.test/x/y?q=1#f", "https://a.test/z")["Referer"] == "https://a.test/x/y?q=1")
        #expect(referer("https://a.test/x/y?q=1", "https://b.test/z")["Referer"] == "https://a.test/")
        #expect(referer("https://a.test:8443/x", "https://b.test/z", "POST")["Origin"] == "https://a.test:8443")
        #expect(referer("https://a.test/x", "http://a.test/z")["Referer"] == nil)
        #expect(referer("https://a.test/cb?code=abc", "https://a.test/z")["Referer"] == "https://a.test/")
        #expect(referer("https://a.test/x", "https://a.test/z")["Origin"] == nil, "a GET sends no Origin")
        let quiet = BrowserHeaders(acceptLanguage: nil, sendsReferrer: false)
        #expect(
            quiet.headers(method: "POST", url: "https://a.test/", referrer: "https://a.test/x", existing: [])
                .map(\.0) == ["Accept"])
    }
}
