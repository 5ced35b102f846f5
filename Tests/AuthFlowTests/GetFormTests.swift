import AuthFlow
import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

/// GET forms go out as a browser sends them: the fields in the query, no body. A user name alone may go
/// that way (a username-first step); a password never does (see `HostilePageTests`).
@Suite struct GetFormTests {
    /// What the identity provider saw at `/next`, the target of the GET form.
    final class Seen: Sendable {
        private let requests = Mutex<[HTTPServerRequest]>([])
        func add(_ request: HTTPServerRequest) { requests.withLock { $0.append(request) } }
        var all: [HTTPServerRequest] { requests.withLock { $0 } }
    }

    /// An identity provider on 127.0.0.2 that serves `first` at `/login`, records what reaches `/next` and
    /// answers it with a POST password form whose post is answered with the site's token.
    static func world(first: String, seen: Seen) throws -> HostilePageTests.World {
        try HostilePageTests.world { request, siteURL in
            switch (request.method, request.path) {
            case ("GET", "/login"):
                return HostilePageTests.page(first)
            case ("GET", "/hop"):
                // A 307 keeps the method: the user-name step is repeated at /next.
                return HTTPServerResponse(
                    status: 307, headers: [("Location", "/next" + request.target.dropFirst("/hop".count))])
            case (_, "/next"):
                seen.add(request)
                return HostilePageTests.page(HostilePageTests.loginForm(action: "/password"))
            case ("POST", "/password") where request.formValue("Password") == HostilePageTests.password:
                return HostilePageTests.page(
                    """
                    <html><body onload="document.forms[0].submit()"><form method="POST" action="\(siteURL)/_trust/">
                    <input type="hidden" name="wa" value="wsignin1.0">
                    <input type="hidden" name="wresult" value="token-for-alice"></form></body></html>
                    """)
            default:
                return HTTPServerResponse(status: 404)
            }
        }
    }

    /// The one request that reached `/next`, checked to be a GET with no body, after a sign-in that worked.
    static func getStep(first: String) async throws -> HTTPServerRequest? {
        let seen = Seen()
        let world = try world(first: first, seen: seen)
        defer { world.stop() }
        let (outcome, _) = try await HostilePageTests.signIn(world)
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return nil
        }
        let encoded = FormURLEncodingProbe.encode(HostilePageTests.password)
        let password = HostilePageTests.password
        #expect(!world.log.all.contains { $0.target.contains(encoded) || $0.target.contains(password) })
        #expect(seen.all.count == 1)
        guard let step = seen.all.first else { return nil }
        #expect(step.method == "GET")
        #expect(step.body.isEmpty, "a GET went out with a body: \(String(decoding: step.body, as: UTF8.self))")
        #expect(step.header("Content-Type") == nil)
        return step
    }

    @Test func aSelfSubmittingGetFormSendsItsFieldsInTheQueryAndNoBody() async throws {
        let step = try await Self.getStep(
            first: """
                <html><body onload="document.forms[0].submit()"><form method="get" action="/next">
                <input type="hidden" name="step" value="2"><input type="hidden" name="lang" value="en"></form></body></html>
                """)
        #expect(step?.queryValue("step") == "2")
        #expect(step?.queryValue("lang") == "en")
    }

    /// A user-name step of a GET form, sent directly (`/next`) or repeated by a 307 (`/hop` → `/next`): the
    /// fields in the query, no body; it carries no password, so the repeat is not refused either.
    @Test(arguments: ["/next", "/hop"])
    func aUsernameStepOfAGetFormSendsItsFieldsInTheQueryAndNoBody(action: String) async throws {
        let step = try await Self.getStep(
            first: """
                <html><head><title>Sign in</title></head><body>
                <form method="get" action="\(action)"><input type="email" name="loginfmt">
                <input type="hidden" name="ctx" value="step-1"><input type="submit" value="Next"></form></body></html>
                """)
        #expect(step?.queryValue("loginfmt") == "alice@contoso.test")
        #expect(step?.queryValue("ctx") == "step-1")
    }
}
