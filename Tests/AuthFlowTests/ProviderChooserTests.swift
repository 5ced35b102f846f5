import AuthFlow
import Foundation
import HTTPServer
import Testing
import Transport

/// `--flow auto` at SharePoint's provider chooser (`/_login/default.aspx`) takes what the farm offers:
/// Forms, else Windows (with a user name and password), else the only trusted provider.
@Suite struct ProviderChooserTests {
    typealias Hostile = HostilePageTests

    static let returnQuery = "ReturnUrl=%2f_layouts%2f15%2fAuthenticate.aspx%3fSource%3d%252F&Source=%2F"
    static let selector = "ctl00$PlaceHolderMain$ClaimsLogonSelector"

    /// The chooser as SharePoint serves it, with `options` (value, label) after `<Select>`.
    static func chooser(_ options: [(String, String)]) -> HTTPServerResponse {
        let list = options.map { #"<option value="\#($0.0)">\#($0.1)</option>"# }.joined()
        return Hostile.page(
            """
            <html><head><title>Sign In</title></head><body>
            <form method="post" action="/_login/default.aspx?\(returnQuery)" id="aspnetForm">
            <input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="" />
            <input type="hidden" name="__EVENTARGUMENT" id="__EVENTARGUMENT" value="" />
            <input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="/wEPDwUKMTQ2OTkzNDMyMWRk" />
            <p>Select the credentials you want to use to log on to this SharePoint site:</p>
            <select name="\(selector)" id="ctl00_PlaceHolderMain_ClaimsLogonSelector"
              onchange="javascript:setTimeout('__doPostBack(\\'\(selector)\\',\\'\\')', 0)">
            <option selected="selected" value="">&lt;Select&gt;</option>\(list)</select>
            </form></body></html>
            """)
    }

    /// The user name in an NTLM Type 3 message (`Authorization: NTLM …`), or nil for another message.
    static func ntlmUser(_ header: String?) -> String? {
        guard let header, header.hasPrefix("NTLM "), let data = Data(base64Encoded: String(header.dropFirst(5))),
            data.count >= 44, data[8] == 3
        else { return nil }
        let bytes = [UInt8](data)
        let length = Int(bytes[36]) | Int(bytes[37]) << 8
        let offset = Int(bytes[40]) | Int(bytes[41]) << 8 | Int(bytes[42]) << 16 | Int(bytes[43]) << 24
        guard offset + length <= bytes.count else { return nil }
        let units = stride(from: offset, to: offset + length - 1, by: 2).map {
            UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// A minimal NTLM Type 2 challenge (no target information): enough for libcurl to answer with Type 3.
    static let ntlmChallenge: String = {
        var message = Array("NTLMSSP".utf8) + [0, 2, 0, 0, 0]
        message += [0, 0, 0, 0, 32, 0, 0, 0]  // empty target name at offset 32
        message += [0x01, 0x02, 0, 0]  // Unicode | NTLM
        message += [1, 2, 3, 4, 5, 6, 7, 8]  // the server challenge
        return "NTLM " + Data(message).base64EncodedString()
    }()

    /// A site on 127.0.0.1 whose chooser offers `options`; Windows leads to `/_windows/default.aspx`, which
    /// runs an NTLM handshake and sets FedAuth for alice's Type 3; any other choice leads to the IdP on
    /// 127.0.0.2, whose login form posts a token back to `/_trust/`.
    static func run(options: [(String, String)], user: String = "CONTOSO\\alice") async throws -> (
        SignInOutcome, Hostile.RequestLog
    ) {
        let log = Hostile.RequestLog()
        let siteURL = TextBox()
        let idp = try HTTPServer(address: "127.0.0.2") { request in
            log.add(request)
            if request.method == "POST", request.formValue("Password") == Hostile.password {
                return RefreshTests.tokenPage(siteURL.value)
            }
            return Hostile.page(Hostile.loginForm(action: "/login"))
        }
        defer { idp.stop() }
        let idpURL = idp.baseURL
        let site = try HTTPServer(address: "127.0.0.1") { request in
            log.add(request)
            let authorization = request.header("Authorization")
            switch request.path {
            case "/_layouts/15/Authenticate.aspx":
                return HTTPServerResponse(status: 302, headers: [("Location", "/_login/default.aspx?" + returnQuery)])
            case "/_login/default.aspx":
                guard request.method == "POST", request.formValue("__EVENTTARGET") == selector else {
                    return chooser(options)
                }
                let choice = request.formValue(selector) ?? ""
                let next = choice == "Windows" ? "/_windows/default.aspx?" + returnQuery : idpURL + "/login"
                return HTTPServerResponse(status: 302, headers: [("Location", next)])
            case "/_windows/default.aspx":
                let user = ntlmUser(authorization)
                if user?.lowercased().hasSuffix("alice") == true {
                    return HTTPServerResponse(
                        status: 302,
                        headers: [("Set-Cookie", "FedAuth=signed-in-alice; Path=/; HttpOnly"), ("Location", "/")])
                }
                // A Type 1 gets the challenge; no header, or a refused Type 3, gets a fresh "NTLM".
                let challenge = authorization?.hasPrefix("NTLM ") == true && user == nil ? ntlmChallenge : "NTLM"
                return HTTPServerResponse(status: 401, headers: [("WWW-Authenticate", challenge)])
            case "/_trust/":
                guard request.formValue("wresult") == "token-for-alice" else { return HTTPServerResponse(status: 403) }
                return HTTPServerResponse(
                    status: 302,
                    headers: [("Set-Cookie", "FedAuth=signed-in-alice; Path=/; HttpOnly"), ("Location", "/")])
            case "/_api/web/currentuser":
                guard request.cookies["FedAuth"] == "signed-in-alice" else { return HTTPServerResponse(status: 403) }
                return HTTPServerResponse(
                    status: 200, contentType: "application/json", text: #"{"Title":"Alice Example"}"#)
            default:
                return HTTPServerResponse(status: 404)
            }
        }
        defer { site.stop() }
        siteURL.value = site.baseURL
        let outcome = await SignIn(
            client: try HTTPClient(),
            configuration: SignInConfiguration(
                siteURL: site.baseURL, username: user, password: Secret(Hostile.password), flow: .auto,
                policy: SignInPolicy(allowHTTPLoopback: true))
        ).run()
        return (outcome, log)
    }

    /// Windows and a trusted provider, no Forms: `auto` chooses Windows and signs in with NTLM; the password
    /// itself goes nowhere (NTLM proves it), and the trusted provider is never asked.
    @Test func windowsIsChosenOverATrustedProvider() async throws {
        let (outcome, log) = try await Self.run(options: [("Windows", "Windows Authentication"), ("ADFS", "ADFS")])
        guard case .signedIn(let session) = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(session.flow == "ntlm")
        #expect(log.hostsThatSawPassword().isEmpty)
        #expect(!log.all.contains { $0.host == "127.0.0.2" })
        #expect(log.all.contains { $0.target.hasPrefix("/_windows/") })
    }

    /// Windows chosen by `auto` and refused (the site answers the Type 3 with another 401): the outcome is
    /// invalid credentials, as with `--flow ntlm`, not a challenge the engine did not know how to answer.
    @Test func aRefusedWindowsChoiceIsInvalidCredentials() async throws {
        let (outcome, _) = try await Self.run(
            options: [("Windows", "Windows Authentication"), ("ADFS", "ADFS")], user: "CONTOSO\\mallory")
        guard case .invalidCredentials(let message, _) = outcome else {
            Issue.record("expected invalid credentials, got \(outcome.message)")
            return
        }
        // It names what was tried, and the way out when the account is not a Windows one.
        #expect(message.contains("ntlm") && message.contains("the adfs or forms flow"), "\(message)")
    }

    /// Only a trusted provider: `auto` chooses it and signs in with its login form.
    @Test func theOnlyTrustedProviderIsChosen() async throws {
        let (outcome, log) = try await Self.run(options: [("ADFS", "ADFS")])
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(log.hostsThatSawPassword() == ["127.0.0.2"])
    }

    /// A trusted provider whose name says "Windows" is a trusted provider, not the built-in Windows choice: no
    /// NTLM is tried, and its own sign-in page gets the password.
    @Test func aTrustedProviderNamedWindowsIsNotWindows() async throws {
        let (outcome, log) = try await Self.run(options: [("Contoso Windows SSO", "Contoso Windows SSO")])
        guard case .signedIn(let session) = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        #expect(session.flow == "adfs", "a renewal must go to the trusted provider, not to /_windows/")
        #expect(!log.all.contains { $0.target.hasPrefix("/_windows/") })
        #expect(log.hostsThatSawPassword() == ["127.0.0.2"])
    }

    /// Forms, when offered, stays the choice (the password goes into SharePoint's own form).
    @Test func formsStaysFirst() async throws {
        let (_, log) = try await Self.run(options: [("Windows", "Windows Authentication"), ("Forms", "Forms")])
        #expect(log.all.contains { $0.body.contains("ClaimsLogonSelector=Forms") })
        #expect(!log.all.contains { $0.target.hasPrefix("/_windows/") })
    }

    /// Two trusted providers and nothing else: no guess; the outcome names both.
    @Test func severalTrustedProvidersAreNotGuessed() async throws {
        let (outcome, log) = try await Self.run(options: [("ADFS", "Contoso ADFS"), ("Okta", "Fabrikam Okta")])
        guard case .interactionRequired(_, _, let message, _, _) = outcome else {
            Issue.record("expected interaction required, got \(outcome.message)")
            return
        }
        #expect(message?.contains("Contoso ADFS") == true && message?.contains("Fabrikam Okta") == true)
        #expect(log.hostsThatSawPassword().isEmpty)
    }
}
