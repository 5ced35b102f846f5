import Foundation
import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

/// The sign-in read as a story: what the target already had when the password went, which cookies it gets now
/// (its own host's and a parent domain's), and what a proof that was only a guess should give back. The machine is
/// driven with the answers a browser would get, the jar's view of the target included.
@Suite struct SignInStoryTests {
    /// A web-target sign-in of `target` and the answers given so far.
    struct Story {
        var machine: SignInMachine
        var action: SignInAction

        init(target: String, policy: SignInPolicy = SignInPolicy()) {
            machine = SignInMachine(
                .web(url: target, username: "alice", password: Secret("correct horse 42"), policy: policy))
            action = machine.start()
        }

        /// The request the machine asked for last.
        var request: SignInRequest? {
            if case .send(let request) = action { return request }
            return nil
        }

        /// Answers the last request.
        mutating func answer(
            status: Int = 200, location: String? = nil, page: String = "", cookies: [Cookie] = [],
            setCookie: String? = nil
        ) {
            let url = request?.url ?? ""
            var headers: [(name: String, value: String)] = [("Content-Type", "text/html; charset=utf-8")]
            if let location { headers.append(("Location", location)) }
            if let setCookie { headers.append(("Set-Cookie", setCookie)) }
            action = machine.receive(
                SignInResponse(
                    url: url, status: status, headers: headers, location: location, body: Array(page.utf8),
                    siteCookies: cookies))
        }
    }

    static func cookie(_ name: String, _ value: String, domain: String, hostOnly: Bool = true) -> Cookie {
        Cookie(name: name, value: value, domain: domain, hostOnly: hostOnly, path: "/", secure: true)
    }

    static let loginForm =
        #"<form method="post" action="/login"><input name="user"><input type="password" name="password">"#
        + #"<button>Sign in</button></form>"#

    @Test("a portal beside the target sets the session for the parent domain: the target's page is the proof")
    func parentDomainCookieFromASiblingPortal() throws {
        var story = Story(target: "https://app.example.org/")
        story.answer(status: 302, location: "https://auth.example.org/?url=aHR0cHM6Ly9hcHAuZXhhbXBsZS5vcmcv")
        story.answer(page: Self.loginForm)
        let credentials = try #require(story.request)
        #expect(credentials.purpose == .credentials && credentials.url == "https://auth.example.org/login")
        // The portal sets its cookie for Domain=example.org and sends the browser back.
        let sso = Self.cookie("portal", "s3ss10n-value", domain: "example.org", hostOnly: false)
        story.answer(
            status: 302, location: "https://app.example.org/", cookies: [sso],
            setCookie: "portal=s3ss10n-value; Domain=example.org; Path=/; Secure")
        #expect(story.request?.url == "https://app.example.org/")
        story.answer(page: "<html><title>App</title><h1>Welcome, alice</h1></html>", cookies: [sso])
        guard case .finish(.signedIn(let session)) = story.action else {
            Issue.record("expected a signed-in session, got \(story.action)")
            return
        }
        #expect(session.cookies.map(\.name) == ["portal"])
        #expect(session.targetCookies == ["portal"])
    }

    @Test("a cookie the target set before the password went is no session: the code page after it is read")
    func cookieFromBeforeThePasswordIsNoProof() throws {
        var story = Story(target: "https://app.example.org/account/")
        let framework = Self.cookie("sessionid", "anonymous-1", domain: "app.example.org")
        story.answer(status: 302, location: "https://app.example.org/login?next=/account/")
        story.answer(page: Self.loginForm, cookies: [framework], setCookie: "sessionid=anonymous-1; Path=/")
        #expect(story.request?.purpose == .credentials)
        // The same cookie, untouched, and a one-time-code page.
        story.answer(
            page: #"<form method="post" action="/login/code"><input name="otp" autocomplete="one-time-code"></form>"#,
            cookies: [framework])
        guard case .needCode(let asked) = story.action else {
            Issue.record("expected the code page to be answered, got \(story.action)")
            return
        }
        #expect(asked.fieldName == "otp")
    }

    @Test("a wrong password with a cookie from before: the form's own message, not a proof's notice")
    func wrongPasswordWithAnEarlierCookie() throws {
        var story = Story(target: "https://app.example.org/account/")
        let framework = Self.cookie("sessionid", "anonymous-1", domain: "app.example.org")
        story.answer(status: 302, location: "https://app.example.org/login?next=/account/")
        story.answer(page: Self.loginForm, cookies: [framework], setCookie: "sessionid=anonymous-1; Path=/")
        story.answer(
            page: #"<p class="alert alert-danger" role="alert">Invalid password.</p>"# + Self.loginForm,
            cookies: [framework])
        guard case .finish(.invalidCredentials(let message, _)) = story.action else {
            Issue.record("expected invalid credentials, got \(story.action)")
            return
        }
        #expect(message == "Invalid password.")
    }

    @Test("a proof that lands on the sign-in page sends the engine back to the page it had received")
    func proofOnASignInPageGoesBackToThePageReceived() throws {
        var story = Story(target: "https://app.example.org/account/")
        story.answer(status: 302, location: "https://app.example.org/login?next=/account/")
        story.answer(
            page: Self.loginForm, cookies: [Self.cookie("sessionid", "anonymous-1", domain: "app.example.org")])
        // The framework rotates its cookie at the password step and asks for a code: the cookie looks new.
        let rotated = Self.cookie("sessionid", "half-signed-in-2", domain: "app.example.org")
        let codePage =
            #"<form method="post" action="/login/code"><input name="otp" autocomplete="one-time-code"></form>"#
        story.answer(page: codePage, cookies: [rotated])
        #expect(story.request?.purpose == .proof, "the changed cookie is worth a proof")
        story.answer(status: 302, location: "https://app.example.org/login?next=/account/", cookies: [rotated])
        #expect(story.request?.purpose == .proof)
        story.answer(
            page: #"<div class="alert alert-info">You must sign in to see this page.</div>"# + Self.loginForm,
            cookies: [rotated])
        guard case .needCode(let asked) = story.action else {
            Issue.record("expected the code page the proof interrupted, got \(story.action)")
            return
        }
        #expect(asked.fieldName == "otp")
    }

    /// An https identity provider answering for a plain-http service provider on loopback (`--allow-http-loopback`).
    static func httpTargetStory(identityProvider: String) -> Story {
        var story = Story(target: "http://127.0.0.5:8080/app/", policy: SignInPolicy(allowHTTPLoopback: true))
        story.answer(status: 302, location: identityProvider + "/sso?SAMLRequest=x")
        story.answer(page: Self.loginForm)
        story.answer(
            page: #"<form method="post" action="http://127.0.0.5:8080/mellon/postResponse">"#
                + #"<input type="hidden" name="SAMLResponse" value="PHNhbWw+"><input type="hidden" name="RelayState" "#
                + #"value="/app/"></form><script>document.forms[0].submit()</script>"#)
        return story
    }

    @Test("an https identity provider may hand the answer back to the http loopback target the user named")
    func backToTheNamedHTTPTarget() throws {
        var story = Self.httpTargetStory(identityProvider: "https://127.0.0.6:8443")
        let post = try #require(story.request, "\(story.action)")
        #expect(post.purpose == .autoPost && post.url == "http://127.0.0.5:8080/mellon/postResponse")
        let session = Self.cookie("mellon-cookie", "c00kie-value", domain: "127.0.0.5")
        story.answer(status: 303, location: "http://127.0.0.5:8080/app/", cookies: [session])
        story.answer(page: "<title>Mellon app</title><p>Mellon-protected page</p>", cookies: [session])
        guard case .finish(.signedIn(let signedIn)) = story.action else {
            Issue.record("expected a signed-in session, got \(story.action)")
            return
        }
        #expect(signedIn.cookies.map(\.name) == ["mellon-cookie"])
    }

    @Test("not when the target's host answered over https in this sign-in: its cookies would go in clear")
    func notToAHostThatAnsweredOverHTTPS() {
        let story = Self.httpTargetStory(identityProvider: "https://127.0.0.5:8443")
        guard case .finish(.policyRefused(.downgrade)) = story.action else {
            Issue.record("expected a downgrade refusal, got \(story.action)")
            return
        }
    }

    @Test("not to another http origin, and never with the password")
    func notElsewhereNorWithThePassword() {
        var story = Story(target: "http://127.0.0.5:8080/app/", policy: SignInPolicy(allowHTTPLoopback: true))
        story.answer(status: 302, location: "https://127.0.0.6:8443/sso")
        story.answer(status: 302, location: "http://127.0.0.7:8080/elsewhere")
        guard case .finish(.policyRefused(.downgrade)) = story.action else {
            Issue.record("expected a downgrade refusal, got \(story.action)")
            return
        }
        var withPassword = Story(target: "http://127.0.0.5:8080/app/", policy: SignInPolicy(allowHTTPLoopback: true))
        withPassword.answer(status: 302, location: "https://127.0.0.6:8443/sso")
        withPassword.answer(
            page: Self.loginForm.replacingOccurrences(of: "/login", with: "http://127.0.0.5:8080/login"))
        guard case .finish(.policyRefused(.downgrade)) = withPassword.action else {
            Issue.record("expected a downgrade refusal, got \(withPassword.action)")
            return
        }
    }

    // MARK: What changed on the page after the password

    /// A sign-in of an https web target that has reached its identity provider's form (`firstPage`) and sent the
    /// password; `after` is the page that came back.
    static func afterPassword(firstPage: String, after: String) -> SignInAction {
        var story = Story(target: "https://app.example.org/")
        story.answer(status: 302, location: "https://idp.example.org/login")
        story.answer(page: firstPage)
        guard story.request?.purpose == .credentials else { return story.action }
        story.answer(page: after)
        return story.action
    }

    static let notice = #"<div class="alert alert-info" role="alert">Sign in to continue to Expenses.</div>"#

    @Test("the message that appeared after the password is quoted, not the notice that stood above the form")
    func theNewMessageNotTheStandingNotice() {
        let action = Self.afterPassword(
            firstPage: Self.notice + Self.loginForm,
            after: Self.notice + Self.loginForm + #"<div class="alert alert-danger">Invalid password.</div>"#)
        guard case .finish(.invalidCredentials(let message, _)) = action else {
            Issue.record("expected invalid credentials, got \(action)")
            return
        }
        #expect(message == "Invalid password.")
    }

    @Test("of two boxes that appeared after the password, the one shown as an error is quoted, not the notice")
    func theErrorBeforeANewNotice() {
        let action = Self.afterPassword(
            firstPage: Self.loginForm,
            after: #"<div class="alert alert-info">You have 2 attempts left.</div>"#
                + #"<div class="alert alert-danger">The password is incorrect.</div>"# + Self.loginForm)
        guard case .finish(.invalidCredentials(let message, _)) = action else {
            Issue.record("expected invalid credentials, got \(action)")
            return
        }
        #expect(message == "The password is incorrect.")
    }

    @Test("errors in a one-word error list are read")
    func errorsInAnErrorList() {
        let action = Self.afterPassword(
            firstPage: Self.loginForm,
            after: #"<ul class="errorlist nonfield"><li>Please enter a correct username and password.</li></ul>"#
                + Self.loginForm)
        guard case .finish(.invalidCredentials(let message, _)) = action else {
            Issue.record("expected invalid credentials, got \(action)")
            return
        }
        #expect(message == "Please enter a correct username and password.")
    }

    @Test("an exception page after the password (with a form to report it) is the identity provider stopping: exit 4")
    func anExceptionPageIsNoWrongPassword() {
        let action = Self.afterPassword(
            firstPage: Self.loginForm,
            after: "<h1>Unhandled exception</h1><p>An unhandled exception was thrown while signing you in.</p>"
                + #"<form method="post" action="/report"><input type="email" name="email">"#
                + #"<textarea name="text"></textarea><button>Send error report</button></form>"#)
        guard case .finish(.interactionRequired(.identityProviderError, _, let message, _, _)) = action else {
            Issue.record("expected the identity provider to stop the sign-in, got \(action)")
            return
        }
        #expect(message?.contains("An unhandled exception was thrown") == true, "\(message ?? "")")
    }

    @Test("an error page without a form that says the credentials are wrong is a rejection: exit 3")
    func anErrorPageSayingTheCredentialsAreWrong() {
        for text in ["Incorrect username or password.", "Invalid credentials", "Nieprawidłowe hasło."] {
            let action = Self.afterPassword(firstPage: Self.loginForm, after: "<h1>Error</h1><p>\(text)</p>")
            guard case .finish(.invalidCredentials(let message, _)) = action else {
                Issue.record("\(text): expected invalid credentials, got \(action)")
                continue
            }
            #expect(message == text)
        }
    }

    @Test("a password-type field on the page after the password, with no user field, is a code page")
    func aPasswordTypeFieldAfterThePasswordIsACode() {
        let action = Self.afterPassword(
            firstPage: Self.loginForm,
            after: #"<form method="post" action="/login/token"><input type="password" name="response">"#
                + "<button>Submit</button></form>")
        guard case .needCode(let asked) = action else {
            Issue.record("expected the page to be answered with a code, got \(action)")
            return
        }
        #expect(asked.fieldName == "response")
        // The password form itself back, with no user field asked again, is a refusal.
        let passwordStep =
            #"<form method="post" action="/login"><input type="password" name="password"><button>Go</button></form>"#
        let back = Self.afterPassword(
            firstPage: #"<form method="post" action="/login"><input type="hidden" name="username" value="alice">"#
                + #"<input type="password" name="password"></form>"#,
            after: #"<p class="error">Wrong password.</p>"# + passwordStep)
        guard case .finish(.invalidCredentials(let message, _)) = back else {
            Issue.record("expected invalid credentials, got \(back)")
            return
        }
        #expect(message == "Wrong password.")
    }

    // MARK: What the review of these rules found

    @Test("identifier-first: a notice on the password step after the user name is no refusal; the password goes")
    func aNoticeOnThePasswordStepAfterTheUserName() throws {
        var story = Story(target: "https://app.example.org/")
        story.answer(status: 302, location: "https://idp.example.org/login")
        story.answer(page: #"<form method="post" action="/login/user"><input name="username"></form>"#)
        #expect(story.request?.purpose == .username)
        story.answer(
            page: #"<div class="alert alert-info" role="alert">Signing in as alice</div>"#
                + #"<form method="post" action="/login/pw"><input type="password" name="pw"></form>"#)
        let sent = try #require(story.request, "\(story.action)")
        #expect(sent.purpose == .credentials && sent.url == "https://idp.example.org/login/pw")
    }

    @Test("a wrong password's form back at another path, same field: a refusal, never a code")
    func theSamePasswordFieldAtAnotherPath() {
        var story = Story(target: "https://app.example.org/")
        story.answer(status: 302, location: "https://idp.example.org/login")
        story.answer(page: Self.loginForm)
        story.answer(
            page: #"<p class="error">Wrong password.</p><form method="post" action="/login;jsessionid=AB12">"#
                + #"<input type="password" name="password"></form>"#)
        guard case .finish(.invalidCredentials(let message, _)) = story.action else {
            Issue.record("expected invalid credentials, got \(story.action)")
            return
        }
        #expect(message == "Wrong password.")
    }

    @Test("errors that are not about what was typed stay the identity provider's (exit 4)")
    func errorsNotAboutTheCredentials() {
        for text in ["Invalid CSRF token, please log in again.", "Account locked after too many invalid attempts."] {
            let action = Self.afterPassword(firstPage: Self.loginForm, after: "<h1>Error</h1><p>\(text)</p>")
            guard case .finish(.interactionRequired(.identityProviderError, _, let message, _, _)) = action else {
                Issue.record("\(text): expected the identity provider to stop, got \(action)")
                continue
            }
            #expect(message == text)
        }
    }

    @Test("a cookie the password step set is still the session after the code, unchanged by it")
    func aCookieSetAtThePasswordStepIsProvenAfterTheCode() throws {
        var story = Story(target: "https://app.example.org/account/")
        story.answer(status: 302, location: "https://app.example.org/login")
        story.answer(
            page: Self.loginForm, cookies: [Self.cookie("sessionid", "anonymous-1", domain: "app.example.org")])
        let signedIn = Self.cookie("sessionid", "half-signed-in-2", domain: "app.example.org")
        let codePage =
            #"<form method="post" action="/login/code"><input name="otp" autocomplete="one-time-code"></form>"#
        story.answer(page: codePage, cookies: [signedIn])
        // The proof is tried, finds the sign-in page, and the engine goes back to the code page.
        story.answer(status: 302, location: "https://app.example.org/login", cookies: [signedIn])
        story.answer(page: Self.loginForm, cookies: [signedIn])
        guard case .needCode = story.action else {
            Issue.record("expected the code page, got \(story.action)")
            return
        }
        story.action = story.machine.provide(code: Secret("123456"))
        #expect(story.request?.purpose == .oneTimeCode)
        story.answer(status: 302, location: "https://app.example.org/account/", cookies: [signedIn])
        #expect(story.request?.url == "https://app.example.org/account/", "\(story.action)")
        story.answer(page: "<h1>Your account</h1>", cookies: [signedIn])
        guard case .finish(.signedIn(let session)) = story.action else {
            Issue.record("expected a signed-in session, got \(story.action)")
            return
        }
        #expect(session.cookies.map(\.name) == ["sessionid"])
    }
}
