import AuthFlow
import Foundation
import HTTPServer
import Testing
import Transport

/// Entra's converged pages over real loopback HTTP: a small server serves `$Config` pages shaped like spsim's
/// and login.microsoftonline.com's, so the engine meets cases the simulator does not model (the federated
/// identity provider on a host of its own, error pages, rare codes).
@Suite struct EntraServedPageTests {
    /// A converged page carrying `config` as its `$Config`.
    static func converged(_ config: [String: Any]) -> HTTPServerResponse {
        let json = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HostilePageTests.page(
            """
            <!DOCTYPE html><html><head><title>Sign in to your account</title>
            <script type="text/javascript">//<![CDATA[
            $Config=\(String(decoding: json, as: UTF8.self));
            //]]></script></head><body></body></html>
            """)
    }

    /// The converged sign-in page, without `urlGetCredentialType` unless `credentialType` names one.
    static func signInPage(credentialType: String? = nil) -> [String: Any] {
        var page: [String: Any] = [
            "pgid": "ConvergedSignIn", "urlPost": "/tenant/login", "sFT": "flow-token-1", "sFTName": "flowToken",
            "sCtx": "context-1", "canary": "canary-1", "sErrorCode": "50058", "sErrTxt": "",
        ]
        if let credentialType { page["urlGetCredentialType"] = credentialType }
        return page
    }

    /// GetCredentialType answering with an HTML error: the answer cannot be read, so the password goes to Entra's
    /// own `urlPost`, as the page's script would send it (here rejected, to end the run).
    @Test func anUnreadableCredentialTypeAnswerFallsBackToThePasswordPost() async throws {
        let world = try HostilePageTests.world { request, _ in
            if request.path == "/common/GetCredentialType" {
                return HTTPServerResponse(status: 500, contentType: "text/html", text: "<html><body>Oops</body></html>")
            }
            if request.method == "POST" && request.path == "/tenant/login" {
                var page = Self.signInPage()
                page["sErrorCode"] = "50126"
                page["sErrTxt"] = "Your account or password is incorrect."
                return Self.converged(page)
            }
            return Self.converged(Self.signInPage(credentialType: "/common/GetCredentialType"))
        }
        defer { world.stop() }
        let (outcome, _) = try await HostilePageTests.signIn(world)
        guard case .invalidCredentials(_, "50126") = outcome else {
            Issue.record("expected the password post and its rejection, got \(outcome.message)")
            return
        }
        #expect(world.log.all.contains { $0.target == "/tenant/login" })
    }

    /// JSON reached through a redirect to another origin is not GetCredentialType's answer: its
    /// `FederationRedirectUrl` is not followed.
    @Test func anAnswerFromAnotherOriginIsNotFollowed() async throws {
        let elsewhere = HostilePageTests.RequestLog()
        let other = try HTTPServer(address: "127.0.0.3") { request in
            elsewhere.add(request)
            return HTTPServerResponse(
                status: 200, contentType: "application/json",
                text: #"{"Credentials":{"FederationRedirectUrl":"http://127.0.0.3/evil"}}"#)
        }
        defer { other.stop() }
        let otherURL = other.baseURL
        let world = try HostilePageTests.world { request, _ in
            if request.path == "/common/GetCredentialType" {
                return HTTPServerResponse(status: 302, headers: [("Location", otherURL + "/answer")])
            }
            return Self.converged(Self.signInPage(credentialType: "/common/GetCredentialType"))
        }
        defer { world.stop() }
        let (outcome, _) = try await HostilePageTests.signIn(world)
        if case .signedIn = outcome { Issue.record("signed in through a foreign answer") }
        #expect(!elsewhere.all.contains { $0.target.hasPrefix("/evil") })
        #expect(elsewhere.hostsThatSawPassword().isEmpty && world.log.hostsThatSawPassword().isEmpty)
    }

    /// A federated account whose identity provider lives on a third host (127.0.0.3), as a company's ADFS does:
    /// Entra (127.0.0.2) names it in GetCredentialType's answer; the password goes there and nowhere else, and
    /// the user name and flow token go only to Entra.
    @Test func federationLeadsToTheOrganisationsOwnHostAndOnlyThereGoesThePassword() async throws {
        let adfsLog = HostilePageTests.RequestLog()
        let adfs = try HTTPServer(address: "127.0.0.3") { request in
            adfsLog.add(request)
            if request.method == "POST", request.formValue("UserName") == "alice@contoso.test",
                request.formValue("Password") == HostilePageTests.password
            {
                return HostilePageTests.page(
                    """
                    <html><body onload="document.forms[0].submit()">
                    <form method="POST" action="\(request.queryValue("wreply") ?? "")">
                    <input type="hidden" name="wa" value="wsignin1.0">
                    <input type="hidden" name="wresult" value="token-for-alice">
                    <noscript><input type="submit" value="Submit"></noscript></form></body></html>
                    """)
            }
            return HostilePageTests.page(HostilePageTests.loginForm(action: request.target))
        }
        defer { adfs.stop() }
        let adfsURL = adfs.baseURL
        let world = try HostilePageTests.world { request, siteURL in
            if request.method == "POST" && request.path == "/common/GetCredentialType" {
                let reply = FormURLEncodingProbe.encode(siteURL + "/_trust/")
                return HTTPServerResponse(
                    status: 200, contentType: "application/json; charset=utf-8",
                    text: #"{"IfExistsResult":0,"Credentials":{"PrefCredential":4,"FederationRedirectUrl":"\#(adfsURL)"#
                        + #"/adfs/ls/?wa=wsignin1.0&wreply=\#(reply)"},"EstsProperties":{"DomainType":4}}"#)
            }
            return Self.converged(Self.signInPage(credentialType: "/common/GetCredentialType?mkt=en-US"))
        }
        defer { world.stop() }
        let (outcome, trace) = try await HostilePageTests.signIn(world)
        guard case .signedIn(let session) = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(session.flow == "entra")
        #expect(world.log.hostsThatSawPassword().isEmpty)
        #expect(adfsLog.hostsThatSawPassword() == ["127.0.0.3"])
        // The GetCredentialType question carried the user name and flow token to Entra only.
        let question = try #require(world.log.all.first { $0.target.hasPrefix("/common/GetCredentialType") })
        #expect(question.host == "127.0.0.2")
        #expect(question.body.contains(#""username":"alice@contoso.test""#) && question.body.contains("flow-token-1"))
        #expect(!adfsLog.all.contains { $0.body.contains("flow-token-1") || $0.target.contains("flow-token-1") })
        #expect(trace.contains { URLComponents(string: $0.url)?.host == "127.0.0.3" && $0.method == "POST" })
        #expect(!trace.map(\.jsonLine).joined().contains("flow-token-1"))
    }

    /// Without `urlGetCredentialType` the password goes to Entra, which refuses it for a federated account.
    @Test func aFederatedAccountIsNotToldItsPasswordIsWrong() async throws {
        let world = try HostilePageTests.world { request, _ in
            guard request.method == "POST" && request.path == "/tenant/login" else {
                return Self.converged(Self.signInPage())
            }
            var page = Self.signInPage()
            page["sErrorCode"] = "50107"
            page["sErrTxt"] = "AADSTS50107: The requested federation realm object does not exist."
            return Self.converged(page)
        }
        defer { world.stop() }
        let (outcome, _) = try await HostilePageTests.signIn(world)
        guard case .interactionRequired(.federatedSignIn, _, let message, _, _) = outcome else {
            Issue.record("expected a federated-account outcome, got \(outcome.message)")
            return
        }
        #expect(message?.contains("AADSTS50107") == true)
        #expect(outcome.message.contains("not a wrong password"))
    }
}

extension EntraServedPageTests {
    /// A world whose Entra-like host shows `first` at `/login` and answers the password post with `answer`.
    static func world(first: [String: Any] = signInPage(), answer: [String: Any]) throws -> HostilePageTests.World {
        let (firstPage, answerPage) = (converged(first), converged(answer))
        return try HostilePageTests.world { request, _ in
            request.method == "POST" && request.path == "/tenant/login" ? answerPage : firstPage
        }
    }

    static let expiredFlowToken = "AADSTS50089: Authentication failed due to flow token expired. Please sign in again."

    /// `ConvergedError` pages have no `urlPost`: their code and text must still reach the outcome, whether the
    /// page comes first or answers the password, and whether it spells the code as `sErrorCode` or `iErrorCode`.
    @Test(arguments: [true, false], [true, false])
    func errorPagesWithoutURLPostKeepTheirCodeAndText(afterPassword: Bool, integerCodeOnly: Bool) async throws {
        let errorPage: [String: Any] =
            integerCodeOnly
            ? ["pgid": "ConvergedError", "iErrorCode": 50089, "strServiceExceptionMessage": Self.expiredFlowToken]
            : ["pgid": "ConvergedError", "sErrorCode": "50089", "iErrorCode": 50089, "sErrTxt": Self.expiredFlowToken]
        let world =
            afterPassword ? try Self.world(answer: errorPage) : try Self.world(first: errorPage, answer: [:])
        defer { world.stop() }
        let (outcome, trace) = try await HostilePageTests.signIn(world)
        #expect(outcome.message.contains(Self.expiredFlowToken.dropLast()), "\(outcome.message)")
        #expect(outcome.message.contains("50089"))
        #expect(trace.last?.decision == "entra: stop")
        // An expired flow is not a wrong password.
        guard case .interactionRequired(.identityProviderError, "ConvergedError", _, _, _) = outcome else {
            Issue.record("expected an identity-provider error, got \(outcome.message)")
            return
        }
    }

    @Test func anMFAErrorPageWithoutURLPostIsAnMFAInterrupt() async throws {
        let world = try Self.world(
            first: [
                "pgid": "ConvergedError", "sErrorCode": "50076",
                "sErrTxt": "AADSTS50076: you must use multi-factor authentication to access this resource.",
            ], answer: [:])
        defer { world.stop() }
        let (outcome, _) = try await HostilePageTests.signIn(world)
        guard case .interactionRequired(.mfa, "ConvergedError", let message, _, _) = outcome else {
            Issue.record("expected MFA, got \(outcome.message)")
            return
        }
        #expect(message?.contains("AADSTS50076") == true)
    }
}

extension EntraServedPageTests {
    static func errorPage(_ code: String, _ text: String) -> [String: Any] {
        var page = signInPage()
        page["sErrorCode"] = code
        page["sErrTxt"] = text
        return page
    }

    /// After the password, only the credential codes mean a wrong password; any other code is named as the
    /// identity provider's error, with its code, and the user is not sent to check the password.
    @Test(arguments: [
        ("50020", "AADSTS50020: User account from identity provider does not exist in tenant."),
        ("50105", "AADSTS50105: The signed in user is not assigned to a role for the application."),
        ("50011", "AADSTS50011: The redirect URI specified in the request does not match."),
        ("99999", "Something unexpected happened."),
    ])
    func rejectionsThatAreNotAboutThePasswordNameTheirCode(code: String, text: String) async throws {
        let world = try Self.world(answer: Self.errorPage(code, text))
        defer { world.stop() }
        let (outcome, _) = try await HostilePageTests.signIn(world)
        guard case .interactionRequired(.identityProviderError, "ConvergedSignIn", let message, _, _) = outcome else {
            Issue.record("\(code): expected an identity-provider error, got \(outcome.message)")
            return
        }
        #expect(message?.contains(code) == true)
        #expect(message?.contains(text.dropLast()) == true)
        #expect(outcome.message.contains(code))
        #expect(outcome.message.contains("not about the password"))
        #expect(!outcome.message.contains("Check the user name and password"))
    }

    @Test(arguments: ["50126", "50053", "50057"])
    func credentialCodesAreStillAWrongPassword(code: String) async throws {
        let world = try Self.world(
            answer: Self.errorPage(code, "Your account or password is incorrect. <a href=\"#\">Reset it now.</a>"))
        defer { world.stop() }
        let (outcome, _) = try await HostilePageTests.signIn(world)
        guard case .invalidCredentials(let message, code) = outcome else {
            Issue.record("expected invalidCredentials with code \(code), got \(outcome.message)")
            return
        }
        #expect(message == "Your account or password is incorrect. Reset it now.")
    }
}

extension EntraServedPageTests {
    /// The GetCredentialType question carries the user name and flow token, so it goes only where a password
    /// could: a page naming one on another host is not asked, and the sign-in goes on with `urlPost`.
    @Test func aCredentialTypeAddressOnAnotherHostIsNotAsked() async throws {
        let foreignLog = HostilePageTests.RequestLog()
        let foreign = try HTTPServer(address: "127.0.0.3") { request in
            foreignLog.add(request)
            return HTTPServerResponse(status: 200, contentType: "application/json", text: "{}")
        }
        defer { foreign.stop() }
        let world = try Self.world(
            first: Self.signInPage(credentialType: foreign.baseURL + "/common/GetCredentialType"),
            answer: Self.errorPage("50126", "Your account or password is incorrect."))
        defer { world.stop() }
        let (outcome, _) = try await HostilePageTests.signIn(world)
        guard case .invalidCredentials(_, "50126") = outcome else {
            Issue.record("expected the password post's answer, got \(outcome.message)")
            return
        }
        #expect(foreignLog.all.isEmpty)
        #expect(world.log.all.contains { $0.target == "/tenant/login" })
    }
}
