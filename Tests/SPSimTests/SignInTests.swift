import AuthFlowCore
import Foundation
import SPSim
import TestSupport
import Testing

@Suite(.childProcesses) struct EntraSignInTests {
    @Test func fullFlowEndsWithFedAuthAndWebJSON() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        let page = try await Drivers.entraSignInPage(simulator, browser)
        #expect(page.pgid == "ConvergedSignIn")
        #expect(page.url.hasPrefix(simulator.identityProviderURL + "/"))
        #expect(
            page.url.hasPrefix(simulator.identityProviderURL + "/\(simulator.tenantId)/oauth2/authorize?client_id="))
        #expect(page.url.contains("response_mode=form_post"))
        #expect(page.config["sFTName"]?.string == "flowToken")
        #expect(page.config["sErrorCode"]?.string == "50058")
        for key in ["sFT", "sCtx", "canary", "sCanaryTokenName", "urlPost", "apiCanary"] {
            #expect(page.config[key]?.string?.isEmpty == false, "missing \(key)")
        }
        let web = try await Drivers.entraSignIn(simulator, Browser())
        #expect(web.status == 200)
        #expect(web.json?["d"]?["__metadata"]?["type"]?.string == "SP.Web")
        #expect(web.header("Content-Type") == "application/json;odata=verbose;charset=utf-8")
    }

    @Test func cookiesAreHostOnlyHttpOnlyWithoutSecureOnHTTP() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        try await Drivers.entraSignIn(simulator, browser)
        let cookies = browser.cookies()
        let fedAuth = try #require(cookies.first { $0.name == "FedAuth" })
        #expect(fedAuth.value.hasPrefix("77u/PD94bWwg"))
        #expect(fedAuth.domain == "127.0.0.1")  // host-only: no leading dot
        #expect(cookies.contains { $0.name == "rtFa" && $0.domain == "127.0.0.1" })
        // The raw Set-Cookie lines: HttpOnly, no Secure, no Domain on plain http + bare IP.
        let log = simulator.requestLog()
        #expect(log.contains { $0.path == "/_forms/default.aspx" && $0.method == "POST" && $0.status == 302 })
        let jar = try String(contentsOfFile: browser.jar, encoding: .utf8)
        #expect(jar.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tFedAuth"))
    }

    @Test func passwordGoesOnlyToTheIdentityProvider() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        try await Drivers.entraSignIn(simulator, Browser())
        let withPassword = simulator.requestLog().filter { $0.formFields.contains { $0.value == "Spring2026!" } }
        #expect(!withPassword.isEmpty)
        #expect(withPassword.allSatisfy { $0.host == "127.0.0.2" && $0.formFields.contains { $0.name == "passwd" } })
    }

    @Test func wrongPasswordShowsTheErrorConfig() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        let page = try await Drivers.entraSignInPage(simulator, browser)
        let error = try await Drivers.entraPostCredentials(browser, page, user: "alice@contoso.test", password: "nope")
        #expect(error.pgid == "ConvergedSignIn")
        #expect(error.config["sErrorCode"]?.string == "50126")
        #expect(error.config["sErrTxt"]?.string?.hasPrefix("Your account or password is incorrect") == true)
        #expect(error.config["sFT"]?.string != page.config["sFT"]?.string)  // flow token rotated
        #expect(browser.cookie("FedAuth") == nil)
    }

    @Test func staleFlowTokenIsRejected() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        var page = try await Drivers.entraSignInPage(simulator, browser)
        page.config["sFT"] = .string("tampered")
        let answer = try await Drivers.entraPostCredentials(
            browser, page, user: "alice@contoso.test", password: "Spring2026!")
        #expect(answer.pgid == "ConvergedError")
        #expect(answer.config["sErrorCode"]?.string == "50089")
    }

    @Test func jsDisabledRefreshIsADeadEndAndLogged() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        let page = try await Drivers.entraSignInPage(simulator, browser)
        let refresh = try #require(
            captures("<noscript>\\s*<meta http-equiv=\"Refresh\" content=\"0; URL=([^\"]+)\"", in: page.answer.body)
                .first?
                .first)
        #expect(refresh == simulator.identityProviderURL + "/jsdisabled")
        #expect(!simulator.requestLog().contains { $0.path == "/jsdisabled" })
        let deadEnd = try await browser.request(refresh)
        #expect(deadEnd.body.contains("JavaScript required"))
        #expect(SimpleForm(html: deadEnd.body) == nil)
        #expect(simulator.requestLog().contains { $0.path == "/jsdisabled" && $0.host == "127.0.0.2" })
    }

    @Test(arguments: [
        ("bob.mfa@contoso.test", "ConvergedTFA"), ("carol.ca@contoso.test", "ConvergedProofUpRedirect"),
        ("dave.expired@contoso.test", "ConvergedChangePassword"),
    ])
    func interruptPages(user: String, pgid: String) async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        let page = try await Drivers.entraSignInPage(simulator, browser)
        let next = try await Drivers.entraPostCredentials(browser, page, user: user, password: "Spring2026!")
        #expect(next.pgid == pgid)
        #expect(next.answer.body.contains("<meta name=\"PageID\" content=\"\(pgid)\" />"))
        if pgid == "ConvergedTFA" {
            #expect(next.config["arrUserProofs"]?.array?.isEmpty == false)
            #expect(next.config["urlBeginAuth"]?.string != nil)
        }
        #expect(browser.cookie("FedAuth") == nil)
    }

    @Test func overTLSCookiesAreSecure() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra, tls: true))
        defer { simulator.stop() }
        #expect(simulator.siteURL.hasPrefix("https://127.0.0.1:"))
        #expect(simulator.identityProviderURL.hasPrefix("https://127.0.0.2:"))
        #expect(simulator.federationURL.hasPrefix("https://127.0.0.3:"))
        let pem = try #require(simulator.certificatePEM)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spsim-ca-\(UUID().uuidString).pem")
        try Data(pem.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let browser = Browser()
        browser.common = ["--cacert", file.path]
        #expect(try await Drivers.entraSignIn(simulator, browser).status == 200)
        // The certificate covers the federated ADFS host too (the relying-party check answers 400).
        #expect(try await browser.request(simulator.federationURL + "/adfs/ls/").status == 400)
        let jar = try String(contentsOfFile: browser.jar, encoding: .utf8)
        #expect(jar.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tTRUE\t0\tFedAuth"))  // secure flag set
    }

    @Test func mfaWithBeginEndAndProcessAuth() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        let page = try await Drivers.entraSignInPage(simulator, browser)
        let tfa = try await Drivers.entraPostCredentials(
            browser, page, user: "bob.mfa@contoso.test", password: "Spring2026!")
        #expect(tfa.pgid == "ConvergedTFA")
        func sas(_ url: String, _ body: [String: String]) async throws -> JSONValue? {
            let data = try JSONSerialization.data(withJSONObject: body)
            return try await browser.request(
                resolve(url, against: tfa.url), headers: ["Content-Type: application/json"], body: [UInt8](data)
            ).json
        }
        let ctx = tfa.config["sCtx"]?.string ?? ""
        let begin = try await sas(
            tfa.config["urlBeginAuth"]?.string ?? "",
            [
                "AuthMethodId": "OneWaySMS", "Method": "BeginAuth", "Ctx": ctx,
                "FlowToken": tfa.config["sFT"]?.string ?? "",
            ])
        #expect(begin?["Success"] == .bool(true))
        let wrong = try await sas(
            tfa.config["urlEndAuth"]?.string ?? "",
            [
                "Method": "EndAuth", "Ctx": ctx, "FlowToken": begin?["FlowToken"]?.string ?? "",
                "AuthMethodId": "OneWaySMS", "AdditionalAuthData": "000000",
            ])
        #expect(wrong?["Success"] == .bool(false) && wrong?["ResultValue"]?.string == "SMSAuthFailedWrongCodeEntered")
        #expect(wrong?["Retry"] == .bool(true))
        let end = try await sas(
            tfa.config["urlEndAuth"]?.string ?? "",
            [
                "Method": "EndAuth", "Ctx": ctx, "FlowToken": wrong?["FlowToken"]?.string ?? "",
                "AuthMethodId": "OneWaySMS", "AdditionalAuthData": "123456",
            ])
        #expect(end?["Success"] == .bool(true))
        let processURL = resolve(tfa.config["urlPost"]?.string ?? "", against: tfa.url)
        let kmsi = try await browser.request(
            processURL,
            form: [
                ("type", "19"), ("request", ctx), ("mfaAuthMethod", "OneWaySMS"),
                ("flowToken", end?["FlowToken"]?.string ?? ""), ("canary", tfa.config["canary"]?.string ?? ""),
            ])
        #expect(entraConfig(kmsi.body)?["pgid"]?.string == "KmsiInterrupt")
    }

    @Test func identityProviderSessionGivesSingleSignOn() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        try await Drivers.entraSignIn(simulator, browser)
        simulator.expireSessions()
        let (answer, _) = try await Drivers.follow(
            browser, simulator.siteURL + "/_layouts/15/authenticate.aspx?Source=/")
        #expect(answer.body.contains("name=\"hiddenform\""))  // straight to form_post, no password
    }
}

@Suite(.childProcesses) struct UnauthenticatedTests {
    @Test func apiWithoutCookieIs403WithFormsHeaders() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let answer = try await Browser().request(
            simulator.siteURL + "/_api/web", headers: ["Accept: application/json;odata=nometadata"])
        #expect(answer.status == 403)
        let required = try #require(answer.header("X-Forms_Based_Auth_Required"))
        #expect(
            required == simulator.siteURL
                + "/_forms/default.aspx?ReturnUrl=/_layouts/15/error.aspx&Source=%2f_api%2fweb")
        #expect(answer.header("X-Forms_Based_Auth_Return_Url") == simulator.siteURL + "/_layouts/15/error.aspx")
        #expect(answer.header("X-MSDAVEXT_Error")?.hasPrefix("917656; Access+denied.") == true)
        #expect(answer.header("X-IDCRL_AUTH_PARAMS_V1")?.contains("BPOSIDCRL") == true)
        #expect(answer.json?["odata.error"]?["code"]?.string == "-2147024891, System.UnauthorizedAccessException")
    }

    @Test func fileWithoutCookieIs403PlainTextAndBrowserPageRedirects() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let file = try await Browser().request(simulator.siteURL + "/Shared%20Documents/Welcome.txt")
        #expect(file.status == 403)
        #expect(file.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(file.bodyBytes.count == 13)
        #expect(file.header("X-Forms_Based_Auth_Required") != nil)
        let page = try await Browser().request(simulator.siteURL + "/", headers: ["Accept: text/html"])
        #expect(page.status == 302)
        #expect(page.header("Location") == "/_layouts/15/Authenticate.aspx?Source=%2F")
    }

    @Test func expiredSessionsGet403() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        #expect(try await Drivers.entraSignIn(simulator, browser).status == 200)
        simulator.expireSessions()
        let answer = try await browser.request(simulator.siteURL + "/_api/web")
        #expect(answer.status == 403)
        #expect(answer.header("X-Forms_Based_Auth_Required") != nil)
    }
}

@Suite(.childProcesses) struct ADFSSignInTests {
    @Test func fullFlow() async throws {
        let simulator = try startSimulator(.adfs)
        defer { simulator.stop() }
        let browser = Browser()
        let (page, url) = try await Drivers.adfsLoginPage(simulator, browser)
        #expect(url.hasPrefix(simulator.identityProviderURL + "/adfs/ls/?wa=wsignin1.0&wtrealm="))
        #expect(simulator.federationURL == simulator.identityProviderURL, "ADFS mode keeps ADFS on 127.0.0.2")
        #expect(page.body.contains("id=\"loginForm\"") && page.body.contains("id=\"options\""))
        #expect(page.body.contains("<span id=\"submitButton\""))
        let web = try await Drivers.adfsSignIn(simulator, browser)
        #expect(web.status == 200)
        #expect(web.json?["d"]?["Title"]?.string == "SPSim Team")
        #expect(browser.cookies().contains { $0.name == "FedAuth" && $0.domain == "127.0.0.1" })
        let user = try await browser.request(
            simulator.siteURL + "/_api/web/currentuser", headers: ["Accept: application/json;odata=nometadata"])
        #expect(user.json?["LoginName"]?.string == "i:05.t|adfs|alice@contoso.test")
    }

    @Test func wrongPasswordShowsErrorText() async throws {
        let simulator = try startSimulator(.adfs)
        defer { simulator.stop() }
        let answer = try await Drivers.adfsSignIn(simulator, Browser(), password: "wrong")
        #expect(answer.status == 200)
        let text = captures("<label id=\"errorText\" for=\"\">([^<]*)</label>", in: answer.body).first?.first
        #expect(text == "Incorrect user ID or password. Type the correct user ID and password, and try again.")
    }

    @Test func mergingTheOptionsFormIsRejected() async throws {
        let simulator = try startSimulator(.adfs)
        defer { simulator.stop() }
        let browser = Browser()
        let (page, url) = try await Drivers.adfsLoginPage(simulator, browser)
        var form = try #require(SimpleForm(html: page.body, selector: "id=\"loginForm\""))
        form.set("UserName", "alice@contoso.test")
        form.set("Password", "Spring2026!")
        form.fields.append(("AuthMethod", ""))  // the hidden input of form#options
        let (answer, _) = try await Drivers.submit(browser, form, pageURL: url)
        #expect(answer.status == 400)
        #expect(answer.body.contains("duplicate post parameter"))
    }
}

@Suite(.childProcesses) struct FBASignInTests {
    @Test func fullFlow() async throws {
        let simulator = try startSimulator(.fba)
        defer { simulator.stop() }
        let browser = Browser()
        let (answer, _) = try await Drivers.fbaSignIn(simulator, browser)
        #expect(answer.status == 302)
        #expect(answer.header("Location") == "/_layouts/15/Authenticate.aspx?Source=%2F")
        let fedAuth = try #require(answer.headers("Set-Cookie").first { $0.hasPrefix("FedAuth=") })
        #expect(fedAuth.contains("expires="))  // on-premises FedAuth is persistent
        let web = try await browser.request(
            simulator.siteURL + "/_api/web", headers: ["Accept: application/json;odata=verbose"])
        #expect(web.status == 200)
    }

    @Test func withoutTheButtonThePageIsRedisplayedWithoutError() async throws {
        let simulator = try startSimulator(.fba)
        defer { simulator.stop() }
        let (answer, _) = try await Drivers.fbaSignIn(simulator, Browser(), clickButton: false)
        #expect(answer.status == 200)
        #expect(answer.body.contains("signInControl"))
        #expect(!answer.body.contains("FailureText"))
    }

    @Test func wrongPasswordShowsFailureText() async throws {
        let simulator = try startSimulator(.fba)
        defer { simulator.stop() }
        let (answer, _) = try await Drivers.fbaSignIn(simulator, Browser(), password: "bad")
        #expect(answer.status == 200)
        #expect(answer.body.contains("The server could not sign you in."))
    }

    @Test func tamperedOrMissingEventValidationIsRejected() async throws {
        let simulator = try startSimulator(.fba)
        defer { simulator.stop() }
        let browser = Browser()
        let (page, url) = try await Drivers.follow(
            browser, simulator.siteURL + "/_layouts/15/authenticate.aspx?Source=/")
        var form = try #require(SimpleForm(html: page.body, selector: "aspnetForm"))
        form.set("ctl00$PlaceHolderMain$signInControl$UserName", "alice")
        form.set("ctl00$PlaceHolderMain$signInControl$password", "Spring2026!")
        form.set("ctl00$PlaceHolderMain$signInControl$login", "Sign In")
        var tampered = form
        tampered.set("__EVENTVALIDATION", "AAAA")
        #expect(try await Drivers.submit(browser, tampered, pageURL: url).answer.status == 500)
        var missing = form
        missing.fields.removeAll { $0.0 == "__EVENTVALIDATION" }
        #expect(try await Drivers.submit(browser, missing, pageURL: url).answer.status == 500)
        #expect(try await Drivers.submit(browser, form, pageURL: url).answer.status == 302)
    }

    @Test func soapLogin() async throws {
        let simulator = try startSimulator(.fba)
        defer { simulator.stop() }
        func login(_ password: String) async throws -> Answer {
            let envelope =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><Login xmlns=\"http://schemas.microsoft.com/sharepoint/soap/\"><username>alice</username><password>\(password)</password></Login></soap:Body></soap:Envelope>"
            return try await Browser().request(
                simulator.siteURL + "/_vti_bin/authentication.asmx",
                headers: [
                    "Content-Type: text/xml; charset=utf-8",
                    "SOAPAction: \"http://schemas.microsoft.com/sharepoint/soap/Login\"",
                ], body: Array(envelope.utf8))
        }
        let good = try await login("Spring2026!")
        #expect(good.body.contains("<ErrorCode>NoError</ErrorCode>"))
        #expect(good.body.contains("<CookieName>FedAuth</CookieName>"))
        #expect(good.headers("Set-Cookie").contains { $0.hasPrefix("FedAuth=") })
        #expect(try await login("bad").body.contains("<ErrorCode>PasswordNotMatch</ErrorCode>"))
    }

    @Test func providerChooserLeadsToForms() async throws {
        let simulator = try startSimulator(.fbaWindows)
        defer { simulator.stop() }
        let browser = Browser()
        let (chooser, url) = try await Drivers.follow(
            browser, simulator.siteURL + "/_layouts/15/authenticate.aspx?Source=/")
        #expect(url.contains("/_login/default.aspx?ReturnUrl="))
        var form = try #require(SimpleForm(html: chooser.body))
        form.set("__EVENTTARGET", "ctl00$PlaceHolderMain$ClaimsLogonSelector")
        form.set("ctl00$PlaceHolderMain$ClaimsLogonSelector", "Forms")
        let (answer, postedTo) = try await Drivers.submit(browser, form, pageURL: url)
        #expect(answer.status == 302)
        let location = try #require(answer.header("Location"))
        #expect(location.hasPrefix("/_forms/default.aspx?ReturnUrl="))
        let page = try await browser.request(resolve(location, against: postedTo))
        #expect(page.body.contains("ctl00$PlaceHolderMain$signInControl$login"))
        let windows = try await browser.request(simulator.siteURL + "/_windows/default.aspx?ReturnUrl=%2f")
        #expect(windows.status == 401 && windows.headers("WWW-Authenticate").contains("NTLM"))
    }
}

@Suite(.childProcesses) struct WindowsAuthenticationTests {
    @Test func ntlmAtWindowsDefaultGivesFedAuth() async throws {
        let simulator = try startSimulator(.fbaWindows)
        defer { simulator.stop() }
        let browser = Browser()
        let url =
            simulator.siteURL + "/_windows/default.aspx?ReturnUrl=%2f_layouts%2f15%2fAuthenticate.aspx%3fSource%3d%252F"
        let signedIn = try await browser.request(url, extra: ["--ntlm", "-u", "CONTOSO\\alice:Spring2026!"])
        #expect(signedIn.status == 302)
        #expect(signedIn.header("Location") == "/_layouts/15/Authenticate.aspx?Source=%2F")
        #expect(browser.cookie("FedAuth") != nil)
        #expect(try await browser.request(simulator.siteURL + "/_api/web").status == 200)  // cookie alone now
        let wrong = try await Browser().request(url, extra: ["--ntlm", "-u", "CONTOSO\\alice:wrong"])
        #expect(wrong.status == 401)
    }

    @Test func restChallengesWhenFormsAreDeclined() async throws {
        let simulator = try startSimulator(.fbaWindows)
        defer { simulator.stop() }
        let declined = "X-FORMS_BASED_AUTH_ACCEPTED: f"
        let challenge = try await Browser().request(simulator.siteURL + "/_api/web", headers: [declined])
        #expect(challenge.status == 401 && challenge.headers("WWW-Authenticate") == ["NTLM", "Negotiate"])
        #expect(try await Browser().request(simulator.siteURL + "/_api/web").status == 403)
        let answer = try await Browser().request(
            simulator.siteURL + "/_api/web/currentuser",
            headers: [declined, "Accept: application/json;odata=nometadata"],
            extra: ["--ntlm", "-u", "alice:Spring2026!"])
        #expect(answer.status == 200)
        #expect(answer.json?["Email"]?.string == "alice@contoso.test")
    }
}

@Suite(.childProcesses) struct OtherModesTests {
    @Test func basicChallengesEveryRequest() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let browser = Browser()
        let challenge = try await browser.request(simulator.siteURL + "/_api/web")
        #expect(challenge.status == 401)
        #expect(challenge.header("WWW-Authenticate")?.hasPrefix("Basic realm=") == true)
        let ok = try await browser.request(
            simulator.siteURL + "/_api/web", headers: ["Accept: application/json;odata=nometadata"],
            extra: ["-u", "alice@contoso.test:Spring2026!"])
        #expect(ok.status == 200 && ok.json?["Title"]?.string == "SPSim Team")
        #expect(browser.cookies().isEmpty)
    }

    @Test func anonymousReadsWithoutSignIn() async throws {
        let simulator = try startSimulator(.anonymous)
        defer { simulator.stop() }
        let answer = try await Browser().request(
            simulator.siteURL + "/_api/web/lists/getbytitle('Tasks')/items?$top=3",
            headers: ["Accept: application/json;odata=nometadata"])
        #expect(answer.status == 200)
        #expect(answer.json?["value"]?.array?.count == 3)
    }

    static func extSTSEnvelope(_ user: String, _ password: String, site: String) -> [UInt8] {
        Array(
            """
            <env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:wsa="http://www.w3.org/2005/08/addressing"><env:Header><wsa:Action env:mustUnderstand="1">http://schemas.xmlsoap.org/ws/2005/02/trust/RST/Issue</wsa:Action><sec:Security env:mustUnderstand="1" xmlns:sec="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><sec:UsernameToken><sec:Username>\(user)</sec:Username><sec:Password>\(password)</sec:Password></sec:UsernameToken></sec:Security></env:Header><env:Body><tr:RequestSecurityToken xmlns:tr="http://schemas.xmlsoap.org/ws/2005/02/trust"><pol:AppliesTo xmlns:pol="http://schemas.xmlsoap.org/ws/2004/09/policy"><wsa:EndpointReference><wsa:Address>\(site)/_forms/default.aspx?wa=wsignin1.0</wsa:Address></wsa:EndpointReference></pol:AppliesTo><tr:KeyType>http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey</tr:KeyType><tr:RequestType>http://schemas.xmlsoap.org/ws/2005/02/trust/Issue</tr:RequestType><tr:TokenType>urn:oasis:names:tc:SAML:1.0:assertion</tr:TokenType></tr:RequestSecurityToken></env:Body></env:Envelope>
            """.utf8)
    }

    @Test func legacySPOTokenToCookies() async throws {
        let simulator = try startSimulator(.legacySPO)
        defer { simulator.stop() }
        let browser = Browser()
        let realm = try await browser.request(
            simulator.identityProviderURL + "/GetUserRealm.srf", form: [("login", "alice@contoso.test")])
        #expect(realm.json?["NameSpaceType"]?.string == "Managed")
        let sts = try await browser.request(
            simulator.identityProviderURL + "/extSTS.srf",
            headers: ["Content-Type: application/soap+xml; charset=utf-8"],
            body: Self.extSTSEnvelope("alice@contoso.test", "Spring2026!", site: simulator.siteURL))
        #expect(sts.status == 200)
        #expect(sts.body.contains("<wst:TokenType>urn:passport:compact</wst:TokenType>"))
        let token = try #require(
            captures("<wsse:BinarySecurityToken Id=\"Compact0\">([^<]+)</wsse:BinarySecurityToken>", in: sts.body)
                .first?
                .first)
        let posted = try await browser.request(
            simulator.siteURL + "/_forms/default.aspx?wa=wsignin1.0",
            headers: ["Content-Type: application/x-www-form-urlencoded"], body: Array(htmlUnescape(token).utf8))
        #expect(posted.status == 302)
        #expect(posted.headers("Set-Cookie").contains { $0.hasPrefix("FedAuth=77u/PD94bWwg") })
        #expect(posted.headers("Set-Cookie").contains { $0.hasPrefix("rtFa=") })
        #expect(try await browser.request(simulator.siteURL + "/_api/web").status == 200)

        let fault = try await Browser().request(
            simulator.identityProviderURL + "/extSTS.srf",
            headers: ["Content-Type: application/soap+xml; charset=utf-8"],
            body: Self.extSTSEnvelope("alice@contoso.test", "bad", site: simulator.siteURL))
        #expect(fault.body.contains("<S:Fault>") && fault.body.contains("AADSTS50126"))
        let tokenless = try await Browser().request(
            simulator.identityProviderURL + "/extSTS.srf",
            headers: ["Content-Type: application/soap+xml; charset=utf-8"],
            body: Self.extSTSEnvelope("carol.ca@contoso.test", "Spring2026!", site: simulator.siteURL))
        #expect(tokenless.status == 200 && !tokenless.body.contains("BinarySecurityToken"))
        #expect(tokenless.body.contains("0x8004882c"))
    }

    @Test func legacyRefusedAnswersWithoutFedAuth() async throws {
        let simulator = try startSimulator(.legacySPO, legacyRefused: true)
        defer { simulator.stop() }
        let browser = Browser()
        let sts = try await browser.request(
            simulator.identityProviderURL + "/extSTS.srf",
            headers: ["Content-Type: application/soap+xml; charset=utf-8"],
            body: Self.extSTSEnvelope("alice@contoso.test", "Spring2026!", site: simulator.siteURL))
        let token = try #require(
            captures("Id=\"Compact0\">([^<]+)<", in: sts.body).first?.first)
        let posted = try await browser.request(
            simulator.siteURL + "/_forms/default.aspx?wa=wsignin1.0", body: Array(htmlUnescape(token).utf8))
        #expect(posted.status == 403)
        #expect(posted.headers("Set-Cookie").isEmpty)
        #expect(posted.body.contains("Legacy authentication (IDCRL) is no longer supported"))
    }
}

@Suite(.childProcesses) struct FederatedTests {
    static let frank = SimulatedUser(
        email: "frank@fabrikam.test", password: "Autumn2026!", displayName: "Frank Federated", federated: true)

    @Test func entraFederationRedirectThroughADFSBackToLoginSrf() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra, users: .defaults + [Self.frank]))
        defer { simulator.stop() }
        let browser = Browser()
        let page = try await Drivers.entraSignInPage(simulator, browser)
        let body = try JSONSerialization.data(withJSONObject: [
            "username": "frank@fabrikam.test", "isOtherIdpSupported": true,
            "originalRequest": page.config["sCtx"]?.string ?? "", "flowToken": page.config["sFT"]?.string ?? "",
        ])
        let credentialType = try await browser.request(
            page.config["urlGetCredentialType"]?.string ?? "", headers: ["Content-Type: application/json"],
            body: [UInt8](body))
        let redirect = try #require(credentialType.json?["Credentials"]?["FederationRedirectUrl"]?.string)
        // The organisation's ADFS is a host of its own (127.0.0.3), not Entra's (127.0.0.2).
        #expect(simulator.federationURL.hasPrefix("http://127.0.0.3:"))
        #expect(redirect.hasPrefix(simulator.federationURL + "/adfs/ls/?"))
        let query = String(redirect.drop { $0 != "?" })
        #expect(try await browser.request(simulator.identityProviderURL + "/adfs/ls/" + query).status == 404)
        // A password posted to Entra directly is refused for a federated user.
        let direct = try await Drivers.entraPostCredentials(
            browser, page, user: "frank@fabrikam.test", password: "Autumn2026!")
        #expect(direct.config["sErrorCode"]?.string == "50107")
        let question = simulator.requestLog().filter { $0.path.lowercased() == "/common/getcredentialtype" }
        #expect(question.map(\.host) == ["127.0.0.2"])
        simulator.clearRequestLog()

        let (adfs, adfsURL) = try await Drivers.follow(browser, redirect)
        var form = try #require(SimpleForm(html: adfs.body, selector: "id=\"loginForm\""))
        #expect(form.fields.first { $0.0 == "UserName" }?.1 == "frank@fabrikam.test")
        form.set("Password", "Autumn2026!")
        let (autoPost, postURL) = try await Drivers.submit(browser, form, pageURL: adfsURL)
        let wsfed = try #require(SimpleForm(html: autoPost.body))
        #expect(wsfed.action == simulator.identityProviderURL + "/login.srf")
        // Through ADFS the password reached only the organisation's host, which served nothing but its page.
        let log = simulator.requestLog()
        #expect(log.filter { $0.formFields.contains { $0.value == "Autumn2026!" } }.map(\.host) == ["127.0.0.3"])
        #expect(log.filter { $0.host == "127.0.0.3" }.allSatisfy { $0.path.lowercased() == "/adfs/ls/" })
        let (kmsi, kmsiPageURL) = try await Drivers.submit(browser, wsfed, pageURL: postURL)
        let config = try #require(entraConfig(kmsi.body))
        #expect(config["pgid"]?.string == "KmsiInterrupt")
        let kmsiURL = resolve(config["urlPost"]?.string ?? "", against: kmsiPageURL)
        let working = try await browser.request(
            kmsiURL,
            form: [
                ("LoginOptions", "3"), ("type", "28"), ("ctx", config["sCtx"]?.string ?? ""),
                ("flowToken", config["sFT"]?.string ?? ""), ("canary", config["canary"]?.string ?? ""),
            ])
        let formPost = try #require(SimpleForm(html: working.body))
        #expect(try await Drivers.submit(browser, formPost, pageURL: kmsiURL).answer.status == 302)
        let user = try await browser.request(
            simulator.siteURL + "/_api/web/currentuser", headers: ["Accept: application/json;odata=nometadata"])
        #expect(user.json?["Email"]?.string == "frank@fabrikam.test")
    }

    @Test func legacyFederatedRealmUsernameMixedThenExtSTS() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .legacySPO, users: .defaults + [Self.frank]))
        defer { simulator.stop() }
        let browser = Browser()
        let realm = try await browser.request(
            simulator.identityProviderURL + "/GetUserRealm.srf?xml=1", form: [("login", "frank@fabrikam.test")])
        #expect(realm.body.contains("<NameSpaceType>Federated</NameSpaceType>"))
        let sts = try #require(captures("<STSAuthURL>([^<]+)</STSAuthURL>", in: realm.body).first?.first)
        // Only `entra` mode gives ADFS a host of its own; here it stays on the identity provider.
        #expect(simulator.federationURL == simulator.identityProviderURL)
        #expect(htmlUnescape(sts).hasPrefix(simulator.identityProviderURL + "/adfs/services/trust/"))
        let envelope = """
            <s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://www.w3.org/2005/08/addressing" xmlns:u="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"><s:Header><a:Action s:mustUnderstand="1">http://schemas.xmlsoap.org/ws/2005/02/trust/RST/Issue</a:Action><o:Security s:mustUnderstand="1" xmlns:o="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><o:UsernameToken><o:Username>frank@fabrikam.test</o:Username><o:Password>Autumn2026!</o:Password></o:UsernameToken></o:Security></s:Header><s:Body><t:RequestSecurityToken xmlns:t="http://schemas.xmlsoap.org/ws/2005/02/trust"><wsp:AppliesTo xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy"><a:EndpointReference><a:Address>urn:federation:MicrosoftOnline</a:Address></a:EndpointReference></wsp:AppliesTo><t:KeyType>http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey</t:KeyType><t:RequestType>http://schemas.xmlsoap.org/ws/2005/02/trust/Issue</t:RequestType></t:RequestSecurityToken></s:Body></s:Envelope>
            """
        let adfs = try await browser.request(
            htmlUnescape(sts), headers: ["Content-Type: application/soap+xml; charset=utf-8"],
            body: Array(envelope.utf8))
        let assertion = try #require(captures("(<saml:Assertion .*?</saml:Assertion>)", in: adfs.body).first?.first)
        let direct = try await browser.request(
            simulator.identityProviderURL + "/extSTS.srf",
            headers: ["Content-Type: application/soap+xml; charset=utf-8"],
            body: OtherModesTests.extSTSEnvelope("frank@fabrikam.test", "Autumn2026!", site: simulator.siteURL))
        #expect(direct.body.contains("Direct login to WLID is not allowed for this federated namespace"))
        let withAssertion = String(
            decoding: OtherModesTests.extSTSEnvelope("x", "y", site: simulator.siteURL), as: UTF8.self
        )
        .replacingOccurrences(
            of: "<sec:UsernameToken><sec:Username>x</sec:Username><sec:Password>y</sec:Password></sec:UsernameToken>",
            with: assertion)
        let token = try await browser.request(
            simulator.identityProviderURL + "/extSTS.srf",
            headers: ["Content-Type: application/soap+xml; charset=utf-8"],
            body: Array(withAssertion.utf8))
        let compact = try #require(captures("Id=\"Compact0\">([^<]+)<", in: token.body).first?.first)
        let posted = try await browser.request(
            simulator.siteURL + "/_forms/default.aspx?wa=wsignin1.0", body: Array(htmlUnescape(compact).utf8))
        #expect(posted.status == 302 && posted.headers("Set-Cookie").contains { $0.hasPrefix("FedAuth=") })
    }
}

@Suite(.childProcesses) struct BearerTests {
    @Test func passwordGrantTokenWorksAsBearerAndBecomesACookie() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        let empty = try await browser.request(simulator.siteURL + "/_api/web", headers: ["Authorization: Bearer"])
        #expect(empty.status == 401)
        #expect(empty.header("WWW-Authenticate")?.hasPrefix("Bearer realm=\"\(simulator.tenantId)\"") == true)
        let tokenURL = simulator.identityProviderURL + "/\(simulator.tenantId)/oauth2/v2.0/token"
        let bad = try await browser.request(
            tokenURL, form: [("grant_type", "password"), ("username", "alice@contoso.test"), ("password", "x")])
        #expect(bad.status == 400 && bad.json?["error"]?.string == "invalid_grant")
        let mfa = try await browser.request(
            tokenURL,
            form: [("grant_type", "password"), ("username", "bob.mfa@contoso.test"), ("password", "Spring2026!")])
        #expect(mfa.json?["error_codes"]?[0]?.number == 50076)
        let granted = try await browser.request(
            tokenURL,
            form: [
                ("grant_type", "password"), ("client_id", "spconnect"), ("username", "alice@contoso.test"),
                ("password", "Spring2026!"), ("scope", simulator.siteURL + "/.default"),
            ])
        let token = try #require(granted.json?["access_token"]?.string)
        let bearer = "Authorization: Bearer " + token
        let web = try await browser.request(
            simulator.siteURL + "/_api/web", headers: [bearer, "Accept: application/json;odata=nometadata"])
        #expect(web.status == 200 && web.json?["Title"]?.string == "SPSim Team")
        // No digest needed with a bearer token.
        let created = try await browser.request(
            simulator.siteURL + "/_api/web/lists/getbytitle('Tasks')/items", method: "POST",
            headers: [bearer, "Accept: application/json;odata=nometadata", "Content-Type: application/json"],
            body: Array("{\"Title\":\"Via OAuth\"}".utf8))
        #expect(created.status == 201)
        let exchanged = try await browser.request(
            simulator.siteURL + "/_api/SP.OAuth.NativeClient/Authenticate", method: "POST",
            headers: [bearer, "Accept: application/json;odata=verbose"])
        #expect(exchanged.status == 200)
        #expect(browser.cookie("SPOIDCRL") != nil)
        #expect(try await browser.request(simulator.siteURL + "/_api/web").status == 200)  // with the SPOIDCRL cookie
    }
}
