import AuthFlow
import Foundation
import HTTPServer
import Testing
import Transport

/// Sign-ins to a web application over loopback HTTP, as real applications behave (issue #37): the sign-in form
/// sent with status 401, a wrong password answered with 401 and the form, a decoy password input on the user-name
/// step, a second-factor checkpoint the target redirects to, and a target page whose words say "error".
@Suite struct WebApplicationSignInTests {
    static let password = HostilePageTests.password

    /// How the application behaves.
    struct Behaviour: Sendable {
        /// The status of every sign-in page (401 for the applications that send their form with it).
        var formStatus = 200
        /// The first step asks for the user name only and carries a decoy password input.
        var usernameFirstWithDecoy = false
        /// A right password leads to a second-factor checkpoint instead of the target.
        var checkpoint = false
        /// Every visitor gets the session cookie before signing in (`app_session=anon`), and the target answers a
        /// visitor not signed in with 401 and the sign-in form itself, no redirect.
        var anonymousSession = false
    }

    /// An application on 127.0.0.1: `/app/items` is the target (its page lists items, one called "Error log"); a
    /// visitor without a session is sent to `/login?next=/app/items`.
    static func application(_ behaviour: Behaviour, log: HostilePageTests.RequestLog) throws -> HTTPServer {
        try HTTPServer(address: "127.0.0.1") { request in
            log.add(request)
            let session = request.cookies["app_session"]
            func form(error: String? = nil, step: String = "/login") -> HTTPServerResponse {
                let message = error.map { #"<div class="alert" role="alert">\#($0)</div>"# } ?? ""
                let template = #"<div class="alert" style="display:none">Invalid username or password.</div>"#
                let fields =
                    behaviour.usernameFirstWithDecoy && step == "/login"
                    ? #"<label for=u>Email</label><input id=u type=email name=login>"#
                        + #"<input type=password name=password tabindex="-1" aria-hidden="true" class=trap>"#
                    : #"<label for=u>Username</label><input id=u name=login>"#
                        + #"<label for=p>Password</label><input id=p type=password name=password>"#
                return HTTPServerResponse(
                    status: error == nil ? behaviour.formStatus : 401, contentType: "text/html; charset=utf-8",
                    text: "<html><head><title>Sign in</title></head><body><h1>Sign in</h1>\(template)\(message)"
                        + #"<form method="post" action="\#(step)">\#(fields)<button type=submit>Sign in</button>"#
                        + "</form></body></html>")
            }
            switch (request.method, request.path) {
            case ("GET", "/app/items"):
                if session == "alice" {
                    return HTTPServerResponse(
                        status: 200, contentType: "text/html; charset=utf-8",
                        text: "<html><head><title>Items</title></head><body><h1>Your items</h1><ul>"
                            + "<li class=error>Error log</li><li>Failed jobs: 0</li></ul></body></html>")
                }
                if session == "pending" {
                    return HTTPServerResponse(status: 302, headers: [("Location", "/checkpoint?next=/app/items")])
                }
                if behaviour.anonymousSession {
                    var page = form()
                    page.status = 401
                    page.headers.append(("Set-Cookie", "app_session=anon; Path=/; HttpOnly"))
                    return page
                }
                return HTTPServerResponse(status: 302, headers: [("Location", "/login?next=/app/items")])
            case ("GET", "/checkpoint"):
                return HTTPServerResponse(
                    status: 200, contentType: "text/html; charset=utf-8",
                    text: #"<html><body><div id="root"></div><script src="https://cdn.example.test/app.js">"#
                        + "</script></body></html>")
            case ("GET", "/login"):
                return form()
            case ("POST", "/login") where behaviour.usernameFirstWithDecoy:
                return request.formValue("login") == "alice" ? form(step: "/password") : form(error: "Unknown user.")
            case ("POST", "/login"), ("POST", "/password"):
                guard request.formValue("password") == password else {
                    return form(error: "Invalid username or password.", step: request.path)
                }
                return HTTPServerResponse(
                    status: 302,
                    headers: [
                        ("Set-Cookie", "app_session=\(behaviour.checkpoint ? "pending" : "alice"); Path=/; HttpOnly"),
                        ("Location", "/app/items"),
                    ])
            default:
                return HTTPServerResponse(status: 404)
            }
        }
    }

    static func signIn(
        _ behaviour: Behaviour, password: String = password, cookies: [String] = [], dumps: String? = nil
    ) async throws -> (SignInOutcome, HostilePageTests.RequestLog) {
        let log = HostilePageTests.RequestLog()
        let server = try application(behaviour, log: log)
        defer { server.stop() }
        let outcome = await SignIn(
            client: try HTTPClient(),
            configuration: .web(
                url: server.baseURL + "/app/items", username: "alice", password: Secret(password), cookies: cookies,
                policy: SignInPolicy(allowHTTPLoopback: true)),
            options: SignIn.Options(dumpPagesDirectory: dumps)
        ).run()
        return (outcome, log)
    }

    @Test(
        "a sign-in form sent with 401 (no scheme) or 403 is a page: it is filled, and the target opens",
        arguments: [401, 403])
    func formWithStatus401SignsIn(status: Int) async throws {
        let (outcome, _) = try await Self.signIn(Behaviour(formStatus: status))
        guard case .signedIn(let session) = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(session.cookies.contains { $0.name == "app_session" && $0.value == "alice" })
    }

    @Test(
        "a target that answers with 401 and its form until signed in: a proof on its cookie reads the form and goes on")
    func targetAnswering401WithItsFormUntilSignedIn() async throws {
        let (outcome, _) = try await Self.signIn(Behaviour(anonymousSession: true), cookies: ["app_session"])
        guard case .signedIn(let session) = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(session.cookies.contains { $0.name == "app_session" && $0.value == "alice" })
    }

    @Test("a wrong password answered with 401 and the form is a wrong password, in the page's own words")
    func wrongPasswordWith401IsInvalidCredentials() async throws {
        for status in [200, 401] {
            let (outcome, _) = try await Self.signIn(Behaviour(formStatus: status), password: "wrong-one")
            guard case .invalidCredentials(let message, _) = outcome else {
                Issue.record("form status \(status): expected invalid credentials, got \(outcome.message)")
                continue
            }
            #expect(message.contains("Invalid username or password"), "\(message)")
        }
    }

    @Test("a sign-in given no password (a Kerberos ticket alone) stops at a password form and posts nothing")
    func noPasswordStopsAtTheForm() async throws {
        let (outcome, log) = try await Self.signIn(Behaviour(), password: "")
        guard case .interactionRequired(.credentialsNeeded, _, let message, _, _) = outcome else {
            Issue.record("expected credentials to be needed, got \(outcome.message)")
            return
        }
        #expect(message?.contains("given none") == true, "\(message ?? "")")
        #expect(!log.all.contains { $0.target.hasPrefix("/login") && !$0.body.isEmpty }, "a form was posted")
    }

    @Test("a decoy password input on the user-name step never gets the password; the real step does")
    func decoyOnTheUsernameStep() async throws {
        let (outcome, log) = try await Self.signIn(Behaviour(usernameFirstWithDecoy: true))
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        let encoded = FormURLEncodingProbe.encode(Self.password)
        let carriers = log.all.filter { $0.body.contains(encoded) || $0.body.contains(Self.password) }
        #expect(carriers.map(\.target) == ["/password"], "the password went to \(carriers.map(\.target))")
    }

    @Test("a target that sends the session to a second-factor checkpoint is no sign-in")
    func checkpointIsNotSignedIn() async throws {
        let (outcome, _) = try await Self.signIn(Behaviour(checkpoint: true))
        if case .signedIn = outcome { Issue.record("signed in, though the session only reaches the checkpoint") }
    }

    @Test("the target's own page is judged by the session, not by the word 'error' on it")
    func targetPageWithErrorWordsSignsIn() async throws {
        let (outcome, _) = try await Self.signIn(Behaviour())
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
    }
}
