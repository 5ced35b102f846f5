import AuthFlow
import Foundation
import HTTPServer
import Testing
import Transport

/// Refreshes a page asks for: the HTTP `Refresh` header is followed like a meta refresh (and wins over one),
/// a short delay is followed at once, and a long one (a session-timeout page) is not followed at all.
@Suite struct RefreshTests {
    typealias Hostile = HostilePageTests

    /// The identity provider's answer for the credentials: a page that posts the token back to the site.
    static func tokenPage(_ siteURL: String) -> HTTPServerResponse {
        Hostile.page(
            """
            <html><body onload="document.forms[0].submit()"><form method="POST" action="\(siteURL)/_trust/">
            <input type="hidden" name="wa" value="wsignin1.0"><input type="hidden" name="wresult" value="token-for-alice">
            </form></body></html>
            """)
    }

    /// A world whose IdP answers `/login` with `first`, `/form` with a login form posting to `/post`, `/post`
    /// (with the right password) with the token page, and anything else (`/timeout`, `/decoy`) with a
    /// signed-out page.
    static func world(first: @escaping @Sendable (String) -> HTTPServerResponse) throws -> Hostile.World {
        try Hostile.world { request, siteURL in
            switch request.path {
            case "/login": return first(siteURL)
            case "/form": return Hostile.page(Hostile.loginForm(action: "/post"))
            case "/post" where request.formValue("Password") == Hostile.password: return tokenPage(siteURL)
            default: return Hostile.page("<html><body><p>You have been signed out.</p></body></html>")
            }
        }
    }

    static func requested(_ world: Hostile.World, _ path: String) -> Bool {
        world.log.all.contains { $0.host == "127.0.0.2" && $0.target.hasPrefix(path) }
    }

    static func html(_ body: String, headers: [(name: String, value: String)]) -> HTTPServerResponse {
        HTTPServerResponse(status: 200, contentType: "text/html; charset=utf-8", text: body, headers: headers)
    }

    /// `Refresh: 0; url=/form` on an interstitial (with a body, or with none) is followed like a meta refresh.
    @Test(arguments: ["<html><body><p>Redirecting…</p></body></html>", ""])
    func refreshHeaderIsFollowed(body: String) async throws {
        let world = try Self.world { _ in
            if body.isEmpty { return HTTPServerResponse(status: 200, headers: [("Refresh", "0; url=/form")]) }
            return Self.html(body, headers: [("Refresh", "0; url=/form")])
        }
        defer { world.stop() }
        let (outcome, trace) = try await Hostile.signIn(world)
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(trace.contains { $0.decision?.contains("Refresh header") == true })
        #expect(world.log.hostsThatSawPassword() == ["127.0.0.2"])
    }

    /// Header and meta refresh on one page: the header is seen first, as a browser sees it before the
    /// document, and the meta refresh is then ignored.
    @Test func headerWinsOverMetaRefresh() async throws {
        let world = try Self.world { _ in
            Self.html(
                #"<html><head><meta http-equiv="refresh" content="0;url=/decoy"></head><body>…</body></html>"#,
                headers: [("Refresh", "0;URL='/form'")])
        }
        defer { world.stop() }
        let (outcome, _) = try await Hostile.signIn(world)
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(!Self.requested(world, "/decoy"))
    }

    /// A page that refreshes to itself at once ends as a loop, as a meta refresh or a redirect would.
    @Test func refreshHeaderToItselfEndsAsLoop() async throws {
        let world = try Self.world { _ in Self.html("<html><body>…</body></html>", headers: [("Refresh", "0")]) }
        defer { world.stop() }
        let (outcome, _) = try await Hostile.signIn(world)
        guard case .loop = outcome else {
            Issue.record("expected a loop, got \(outcome.message)")
            return
        }
        #expect(world.log.all.count < 12)
    }

    /// An https page's `Refresh` header to plain http is a downgrade, refused even where http to loopback is
    /// allowed (no I/O: there is no https test server).
    @Test func refreshHeaderToPlainHTTPIsADowngrade() {
        let action = DowngradeAndDumpTests.firstMove(
            onHTTPSPage: "https://127.0.0.2:8443/wait",
            extraHeaders: [("Refresh", "0; url=http://127.0.0.2:8080/next")],
            body: "<html><body>Please wait</body></html>")
        guard case .finish(.policyRefused(.downgrade(_, let to))) = action else {
            Issue.record("expected a downgrade refusal, got \(action)")
            return
        }
        #expect(to == "http://127.0.0.2:8080/next")
    }

    /// A short delay (≤ 10 s) is followed at once, without waiting.
    @Test func shortDelayIsFollowed() async throws {
        let world = try Self.world { _ in
            Hostile.page(#"<html><head><meta http-equiv="refresh" content="5; url=/form"></head><body>…</body></html>"#)
        }
        defer { world.stop() }
        let (outcome, _) = try await Hostile.signIn(world)
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
    }

    /// A session-timeout page (`300;url=/timeout`, header or meta) is not followed: a browser would sit
    /// there five minutes; the sign-in ends naming the delay instead of landing on a logout page.
    @Test(arguments: [true, false])
    func longDelayIsNotFollowed(asHeader: Bool) async throws {
        let world = try Self.world { _ in
            asHeader
                ? Self.html("<html><body><p>Your session</p></body></html>", headers: [("Refresh", "300;url=/timeout")])
                : Hostile.page(
                    #"<html><head><meta http-equiv="refresh" content="300;url=/timeout"></head><body>…</body></html>"#)
        }
        defer { world.stop() }
        let (outcome, _) = try await Hostile.signIn(world)
        #expect(!Self.requested(world, "/timeout"))
        guard case .unknownPage(let kind, _, _, _) = outcome else {
            Issue.record("expected an unknown page, got \(outcome.message)")
            return
        }
        #expect(kind.contains("300 s"), "\(kind)")
    }

    /// A login form that also carries a long refresh (header or meta) is the page to act on: the form is
    /// filled and the refresh is never followed.
    @Test(arguments: [true, false])
    func loginFormWithLongRefreshSignsIn(asHeader: Bool) async throws {
        let world = try Self.world { _ in
            let form = Hostile.loginForm(action: "/post")
            return asHeader
                ? Self.html(form, headers: [("Refresh", "300; url=/timeout")])
                : Hostile.page(
                    form.replacingOccurrences(
                        of: "<head>", with: #"<head><meta http-equiv="refresh" content="300;url=/timeout">"#))
        }
        defer { world.stop() }
        let (outcome, _) = try await Hostile.signIn(world)
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(!Self.requested(world, "/timeout"))
    }
}
