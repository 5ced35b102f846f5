import Foundation
import HTTPServer

/// The identity-provider host (127.0.0.2): Entra-like pages, ADFS (`adfs` and `legacy-spo` modes), and the legacy
/// STS; and the federated organisation's ADFS host (127.0.0.3, `entra` mode).
extension SimulatorCore {
    func handleIdentityProvider(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let lower = request.path.lowercased()
        let parts = lower.split(separator: "/").map(String.init)
        if lower == "/jsdisabled" {
            return html(
                200,
                "<!DOCTYPE html><html><head><title>JavaScript required</title></head><body><h1>JavaScript required</h1><p>We can't sign you in. Your browser is currently set to block JavaScript. You need to allow JavaScript to use this service.</p></body></html>"
            )
        }
        if lower == "/getuserrealm.srf" { return getUserRealm(request) }
        if lower == "/extsts.srf" { return extSTS(request) }
        if lower == "/login.srf", isOnline, request.method == "POST" { return entraFederationReturn(request) }
        if lower.hasPrefix("/adfs/") {
            // In `entra` mode ADFS is the federated organisation's own host (`handleFederation`), not Entra's.
            guard options.mode == .adfs || options.mode == .legacySPO else { return notFound() }
            return adfs(request)
        }
        guard isOnline else { return notFound() }
        if let answer = entraTokenEndpoints(request, parts: parts) { return answer }
        if parts.count == 3, parts[1] == "oauth2", parts[2] == "authorize" { return entraAuthorize(request) }
        if (parts.count == 3 && parts[1] == "oauth2" && parts[2] == "token")
            || (parts.count == 4 && parts[1] == "oauth2" && parts[2] == "v2.0" && parts[3] == "token")
        {
            return entraToken(request)
        }
        if parts.count == 2, parts[1] == "login", request.method == "POST" { return entraLogin(request) }
        if lower == "/kmsi", request.method == "POST" { return entraKMSI(request) }
        if parts.count == 2, parts[1] == "getcredentialtype" { return entraCredentialType(request) }
        if parts.count == 3, parts[1] == "sas" {
            switch parts[2] {
            case "beginauth": return entraBeginAuth(request)
            case "endauth": return entraEndAuth(request)
            case "processauth": return entraProcessAuth(request)
            default: return notFound()
            }
        }
        if parts.count >= 2, ["proofup", "changepassword"].contains(parts.last ?? "") {
            return entraDeadEnd(request)
        }
        return notFound()
    }

    func notFound() -> HTTPServerResponse {
        html(404, "<html><body><h1>404 Not Found</h1></body></html>")
    }

    // MARK: Entra pages

    func convergedPage(pgid: String, config: [(String, JSON)]) -> String {
        let json = JSON.object(config).serialized(scriptSafe: true)
        return """


            <!-- SPSim: shaped like Microsoft's converged sign-in pages; written for the simulator. -->
            <!DOCTYPE html>
            <html dir="ltr" class="" lang="en">
            <head>
                <title>Sign in to your account</title>
                <meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
                <meta http-equiv="X-UA-Compatible" content="IE=edge">
                <meta name="viewport" content="width=device-width, initial-scale=1.0, maximum-scale=2.0, user-scalable=yes">
                <meta http-equiv="Pragma" content="no-cache">
                <meta http-equiv="Expires" content="-1">
                <meta name="PageID" content="\(pgid)" />
                <meta name="SiteID" content="" />
                <meta name="ReqLC" content="1033" />
                <meta name="LocLC" content="en-US" />
                <noscript>
                    <meta http-equiv="Refresh" content="0; URL=\(identityProviderURL)/jsdisabled" />
                </noscript>
                <meta name="robots" content="none" />
            <script type="text/javascript">//<![CDATA[
            $Config=\(json);
            //]]></script>
                <script type="text/javascript">
                    ServerData = $Config;
                </script>
            </head>
            <body data-bind="defineGlobals: ServerData, bodyCssClass" class="cb" style="display: none">
                <script type="text/javascript">//<![CDATA[
            /* The page is rendered by script from $Config. */
            //]]></script>
            </body>
            </html>

            """
    }

    func baseConfig(pgid: String, flow: EntraFlow, urlPost: String, hpgid: Int, hpgact: Int) -> [(String, JSON)] {
        [
            ("pgid", .string(pgid)),
            ("urlPost", .string(urlPost)),
            ("sFT", .string(flow.flowToken)),
            ("sFTName", .string("flowToken")),
            ("sCtx", .string(flow.ctx)),
            ("canary", .string(flow.canary)),
            ("apiCanary", .string("PAQABDgEAAAB" + String(flow.canary.prefix(40)))),
            ("sCanaryTokenName", .string("canary")),
            ("correlationId", .string(stableGUID(UInt64(flow.ctx.count), flow.ctx))),
            ("sessionId", .string(stableGUID(7, flow.ctx))),
            ("hpgid", .int(hpgid)),
            ("hpgact", .int(hpgact)),
            ("iMaxStackForKnockoutAsyncComponents", .int(10000)),
            ("fShowButtons", .bool(true)),
            ("urlCdn", .string("https://aadcdn.msauth.net/shared/1.0/")),
            ("urlNoCookies", .string(identityProviderURL + "/cookiesdisabled")),
            ("urlFooterTOU", .string("https://www.microsoft.com/en-US/servicesagreement/")),
            ("urlFooterPrivacy", .string("https://privacy.microsoft.com/en-US/privacystatement")),
            ("locale", .object([("mkt", .string("en-US")), ("lcid", .int(1033))])),
        ]
    }

    func newFlow(redirectURI: String, stateValue: String, nonce: String) -> EntraFlow {
        let flow = EntraFlow(
            ctx: "rQQIARAA" + Tokens.random(bytes: 48), flowToken: "AQABAAEAAAD" + Tokens.random(bytes: 90),
            canary: Tokens.random(bytes: 60) + "=0:1", redirectURI: redirectURI, state: stateValue, nonce: nonce,
            user: nil, stage: "signin")
        state.withLock { $0.flows[flow.ctx] = flow }
        return flow
    }

    /// Rotates the flow token and stores the flow's new stage.
    func advance(_ flow: EntraFlow, stage: String, user: Int?) -> EntraFlow {
        var next = flow
        next.flowToken = "AQABAAEAAAD" + Tokens.random(bytes: 90)
        next.stage = stage
        next.user = user
        state.withLock { $0.flows[next.ctx] = next }
        return next
    }

    func signInPage(_ flow: EntraFlow, errorCode: String? = nil, username: String = "") -> HTTPServerResponse {
        var config = baseConfig(
            pgid: "ConvergedSignIn", flow: flow, urlPost: "/\(tenantId)/login", hpgid: 1104, hpgact: 1800)
        let errorText: String
        switch errorCode {
        case "50126":
            errorText =
                "Your account or password is incorrect. If you don't remember your password, <a id=\"idA_IL_ForgotPassword0\" href=\"#\">reset it now.</a>"
        case "50034":
            errorText =
                "This username may be incorrect. Make sure you typed it correctly. Otherwise, contact your admin."
        default: errorText = ""
        }
        config += [
            ("urlGetCredentialType", .string(identityProviderURL + "/common/GetCredentialType?mkt=en-US")),
            (
                "urlResetPassword",
                .string("https://passwordreset.microsoftonline.com/?ru=" + percentEncode(identityProviderURL))
            ),
            ("sErrorCode", .string(errorCode ?? "50058")),
            ("sErrTxt", .string(errorText)),
            ("sPOST_Username", .string(username)),
            ("fKMSIEnabled", .bool(false)),
            ("iLoginMode", .int(1)),
            ("fAllowPhoneSignIn", .bool(true)),
        ]
        return html(200, convergedPage(pgid: "ConvergedSignIn", config: config))
    }

    /// `GET /{tenant}/oauth2/authorize`
    func entraAuthorize(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let redirectURI = request.queryValue("redirect_uri") ?? ""
        guard request.queryValue("client_id") != nil,
            redirectURI.lowercased() == (siteURL + "/_forms/default.aspx").lowercased(),
            request.queryValue("response_mode") == "form_post"
        else {
            return html(
                400,
                convergedPage(
                    pgid: "ConvergedError",
                    config: [
                        ("pgid", .string("ConvergedError")), ("sErrorCode", .string("50011")),
                        ("sErrTxt", .string("AADSTS50011: The redirect URI specified in the request does not match.")),
                    ]))
        }
        let flow = newFlow(
            redirectURI: redirectURI, stateValue: request.queryValue("state") ?? "",
            nonce: request.queryValue("nonce") ?? "")
        // Single sign-on: a live ESTSAUTH session skips the password.
        let cookies = request.cookies
        if let user = liveIdentityProviderSession(cookies) {
            return formPostPage(flow: flow, user: user, extraHeaders: [])
        }
        return signInPage(flow)
    }

    func entraError(_ code: String, _ text: String) -> HTTPServerResponse {
        html(
            200,
            convergedPage(
                pgid: "ConvergedError",
                config: [
                    ("pgid", .string("ConvergedError")), ("sErrorCode", .string(code)), ("sErrTxt", .string(text)),
                    ("iErrorCode", .int(Int(code) ?? 0)),
                ]))
    }

    /// Looks up the flow from `ctx` and checks `flowToken` and `canary`.
    func validatedFlow(_ request: HTTPServerRequest, stage: String) -> EntraFlow? {
        let ctx = request.formValue("ctx") ?? ""
        guard let flow = state.withLock({ $0.flows[ctx] }), flow.stage == stage,
            request.formValue("flowToken") == flow.flowToken, request.formValue("canary") == flow.canary
        else { return nil }
        return flow
    }

    /// `POST /{tenant}/login` with login, loginfmt, passwd, ctx, flowToken, canary.
    func entraLogin(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let flow = validatedFlow(request, stage: "signin") else {
            return entraError(
                "50089", "AADSTS50089: Authentication failed due to flow token expired. Please sign in again.")
        }
        let login = request.formValue("login") ?? request.formValue("loginfmt") ?? ""
        let password = request.formValue("passwd") ?? ""
        guard let index = userIndex(login: login) else {
            return signInPage(advance(flow, stage: "signin", user: nil), errorCode: "50034", username: login)
        }
        guard users[index].password == password else {
            return signInPage(advance(flow, stage: "signin", user: nil), errorCode: "50126", username: login)
        }
        state.withLock { $0.passwordSignIns[users[index].email.lowercased(), default: 0] += 1 }
        if users[index].federated {
            return signInPage(advance(flow, stage: "signin", user: nil), errorCode: "50107", username: login)
        }
        return afterPassword(flow, index)
    }

    /// The page after a successful first factor: MFA, Conditional Access, password change, or KMSI.
    func afterPassword(_ flow: EntraFlow, _ index: Int) -> HTTPServerResponse {
        let user = users[index]
        if user.mfa { return secondFactorPage(flow, index) }
        if user.conditionalAccess {
            let next = advance(flow, stage: "proofup", user: index)
            var config = baseConfig(
                pgid: "ConvergedProofUpRedirect", flow: next, urlPost: "/\(tenantId)/ProofUp", hpgid: 1129,
                hpgact: 1800)
            config += [
                ("sPOST_Username", .string(user.email)),
                ("sProofUpUrl", .string("https://mysignins.microsoft.com/register")),
                ("iRemainingDaysToSkipMfaRegistration", .int(0)),
                ("sErrorCode", .string("53000")),
                (
                    "sErrTxt",
                    .string(
                        "Your organization needs more information to keep your account secure. Conditional Access policy requires additional verification."
                    )
                ),
            ]
            return html(200, convergedPage(pgid: "ConvergedProofUpRedirect", config: config))
        }
        if user.passwordChange {
            let next = advance(flow, stage: "changepassword", user: index)
            var config = baseConfig(
                pgid: "ConvergedChangePassword", flow: next, urlPost: "/\(tenantId)/ChangePassword", hpgid: 1118,
                hpgact: 1800)
            config += [
                ("sPOST_Username", .string(user.email)),
                ("sErrorCode", .string("50055")),
                (
                    "sErrTxt",
                    .string(
                        "You need to update your password because this is the first time you are signing in, or because your password has expired."
                    )
                ),
            ]
            return html(200, convergedPage(pgid: "ConvergedChangePassword", config: config))
        }
        let next = advance(flow, stage: "kmsi", user: index)
        var config = baseConfig(pgid: "KmsiInterrupt", flow: next, urlPost: "/kmsi", hpgid: 1115, hpgact: 2005)
        config += [("sPOST_Username", .string(user.email))]
        return html(200, convergedPage(pgid: "KmsiInterrupt", config: config))
    }

    /// Interrupt pages the simulator does not complete (MFA, proof-up, password change).
    func entraDeadEnd(_ request: HTTPServerRequest) -> HTTPServerResponse {
        entraError(
            "50076",
            "AADSTS50076: Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access this resource. (Not completable in SPSim.)"
        )
    }

    /// `POST /kmsi` with LoginOptions (1 = stay signed in, 3 = no), type=28, ctx, flowToken, canary.
    func entraKMSI(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let flow = validatedFlow(request, stage: "kmsi"), let user = flow.user else {
            return entraError(
                "50089", "AADSTS50089: Authentication failed due to flow token expired. Please sign in again.")
        }
        state.withLock { $0.flows[flow.ctx] = nil }
        let idpCookie = identityProviderSessionCookie(user: user, persistent: request.formValue("LoginOptions") == "1")
        return formPostPage(flow: flow, user: user, extraHeaders: [idpCookie])
    }

    /// The "Working..." page that posts code, id_token, state and session_state to SharePoint.
    func formPostPage(flow: EntraFlow, user: Int, extraHeaders: [(name: String, value: String)]) -> HTTPServerResponse {
        let now = nowEpoch()
        let header = base64URL(Array("{\"typ\":\"JWT\",\"alg\":\"RS256\",\"kid\":\"spsim\"}".utf8))
        let payload = JSON.object([
            ("aud", .string("00000003-0000-0ff1-ce00-000000000000")),
            ("iss", .string("https://sts.windows.net/\(tenantId)/")),
            ("iat", .int(now)), ("nbf", .int(now)), ("exp", .int(now + 3600)),
            ("name", .string(users[user].displayName)), ("nonce", .string(flow.nonce)),
            ("oid", .string(stableGUID(options.seed, "oid/" + users[user].email))),
            ("tid", .string(tenantId)), ("upn", .string(users[user].email)),
        ]).serialized()
        let idToken = header + "." + base64URL(Array(payload.utf8)) + "." + Tokens.random(bytes: 64)
        let code = "0.AAAA" + Tokens.random(bytes: 120)
        state.withLock { $0.codes[code] = (user, idToken) }
        let fields: [(String, String)] = [
            ("code", code), ("id_token", idToken), ("state", flow.state), ("session_state", Tokens.guid()),
            ("correlation_id", Tokens.guid()),
        ]
        let inputs = fields.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(htmlEscape($0.1))\" />" }.joined()
        let body =
            "<html><head><title>Working...</title></head><body><form method=\"POST\" name=\"hiddenform\" action=\"\(htmlEscape(flow.redirectURI))\">\(inputs)<noscript><p>Script is disabled. Click Submit to continue.</p><input type=\"submit\" value=\"Submit\" /></noscript></form><script language=\"javascript\">document.forms[0].submit();</script></body></html>"
        return html(200, body, headers: extraHeaders)
    }

    /// The federated organisation's host (127.0.0.3, `entra` mode only): its ADFS and nothing else.
    func handleFederation(_ request: HTTPServerRequest) -> HTTPServerResponse {
        request.path.lowercased().hasPrefix("/adfs/") ? adfs(request) : notFound()
    }

    /// `/adfs/ls/` (passive WS-Federation) and the WS-Trust `usernamemixed` endpoints.
    func adfs(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let lower = request.path.lowercased()
        if lower == "/adfs/ls" || lower == "/adfs/ls/" { return adfsPassive(request) }
        if lower.hasPrefix("/adfs/services/trust/13/usernamemixed")
            || lower.hasPrefix("/adfs/services/trust/2005/usernamemixed")
        {
            return adfsUsernameMixed(request)
        }
        return notFound()
    }

    /// `POST /common/GetCredentialType` (JSON).
    func entraCredentialType(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = parseJSONObject(request.body) ?? [:]
        let username = body["username"] as? String ?? ""
        let index = userIndex(login: username)
        let exists = index != nil
        let federated = index.map { users[$0].federated } ?? false
        let ctx = body["originalRequest"] as? String ?? ""
        let federationURL =
            self.federationURL + "/adfs/ls/?client-request-id=\(Tokens.guid())&wa=wsignin1.0"
            + "&wtrealm=urn%3afederation%3aMicrosoftOnline&wctx="
            + percentEncode("LoginOptions=3&estsredirect=2&estsrequest=" + ctx) + "&username=" + percentEncode(username)
        let json = JSON.object([
            ("Username", .string(username)), ("Display", .string(username)), ("IfExistsResult", .int(exists ? 0 : 1)),
            ("IsUnmanaged", .bool(false)), ("ThrottleStatus", .int(0)),
            (
                "Credentials",
                .object([
                    ("PrefCredential", .int(federated ? 4 : 1)), ("HasPassword", .bool(true)),
                    ("FederationRedirectUrl", federated ? .string(federationURL) : .null), ("RemoteNgcParams", .null),
                    ("FidoParams", .null), ("SasParams", .null), ("CertAuthParams", .null), ("GoogleParams", .null),
                    ("FacebookParams", .null),
                ])
            ),
            ("EstsProperties", .object([("UserTenantBranding", .null), ("DomainType", .int(federated ? 4 : 3))])),
            ("IsSignupDisallowed", .bool(true)), ("apiCanary", .string(Tokens.random(bytes: 40))),
        ])
        return HTTPServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: json.serialized())
    }

    /// `POST /login.srf` (wa, wresult, wctx) from the federated IdP: the assertion stands for the password.
    func entraFederationReturn(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let wresult = request.formValue("wresult") ?? ""
        var assertionId = ""
        if let range = wresult.range(of: "AssertionID=\"") {
            assertionId = String(wresult[range.upperBound...].prefix { $0 != "\"" })
        }
        let wctx = request.formValue("wctx") ?? ""
        let ctx =
            FormURLDecoding.pairs(wctx).first { $0.0 == "estsrequest" }.map { $0.1.removingPercentEncoding ?? $0.1 }
            ?? ""
        guard
            let user = state.withLock({ state -> Int? in
                defer { state.assertions[assertionId] = nil }
                return state.assertions[assertionId]
            }), let flow = state.withLock({ $0.flows[ctx] }), flow.stage == "signin"
        else {
            return entraError("50008", "AADSTS50008: SAML token is invalid.")
        }
        return afterPassword(flow, user)
    }

    /// `POST /{tenant}/oauth2/v2.0/token` (or v1 `/oauth2/token`), `grant_type=password` (ROPC) only:
    /// an opaque access token SharePoint accepts as `Authorization: Bearer`.
    func entraToken(_ request: HTTPServerRequest) -> HTTPServerResponse {
        func failure(_ error: String, _ code: Int, _ text: String) -> HTTPServerResponse {
            let body = JSON.object([
                ("error", .string(error)), ("error_description", .string("AADSTS\(code): \(text)")),
                ("error_codes", .array([.int(code)])), ("timestamp", .string(CivilTime(nowEpoch()).iso)),
                ("trace_id", .string(Tokens.guid())), ("correlation_id", .string(Tokens.guid())),
            ])
            return HTTPServerResponse(
                status: 400, contentType: "application/json; charset=utf-8", text: body.serialized())
        }
        guard request.formValue("grant_type") == "password" else {
            return failure("unsupported_grant_type", 70003, "The app requested an unsupported grant type.")
        }
        guard
            let index = checkPassword(
                login: request.formValue("username") ?? "", password: request.formValue("password") ?? "")
        else {
            return failure("invalid_grant", 50126, "Error validating credentials due to invalid username or password.")
        }
        let user = users[index]
        if user.mfa || user.conditionalAccess {
            return failure(
                "invalid_grant", user.mfa ? 50076 : 53003,
                user.mfa
                    ? "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access this resource."
                    : "Access has been blocked by Conditional Access policies.")
        }
        if user.passwordChange { return failure("invalid_grant", 50055, "The password is expired.") }
        if user.federated {
            return failure("invalid_grant", 50107, "The requested federation realm object does not exist.")
        }
        let token = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9." + Tokens.random(bytes: 96) + "." + Tokens.random(bytes: 64)
        let lifetime = min(3599, sessionLifetime)
        state.withLock { $0.accessTokens[token] = SPSession(user: index, expires: nowEpoch() + lifetime) }
        let body = JSON.object([
            ("token_type", .string("Bearer")), ("scope", .string(request.formValue("scope") ?? siteURL + "/.default")),
            ("expires_in", .int(lifetime)), ("ext_expires_in", .int(lifetime)), ("access_token", .string(token)),
        ])
        return HTTPServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: body.serialized())
    }

    // MARK: Legacy SPO STS

    func getUserRealm(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let login = request.formValue("login") ?? request.queryValue("login") ?? ""
        let domain = login.split(separator: "@").last.map(String.init) ?? ""
        let inDomain = users.filter { $0.email.lowercased().hasSuffix("@" + domain.lowercased()) }
        let known = !inDomain.isEmpty
        let federated = inDomain.contains { $0.federated }
        let kind = federated ? "Federated" : known ? "Managed" : "Unknown"
        let authURL =
            federationURL + "/adfs/ls/?username=" + percentEncode(login)
            + "&wa=wsignin1.0&wtrealm=urn%3afederation%3aMicrosoftOnline&wctx="
        let stsURL = federationURL + "/adfs/services/trust/2005/usernamemixed"
        let wantsXML = request.queryValue("xml") == "1" || request.formValue("xml") == "1"
        if wantsXML {
            var text =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><RealmInfo Success=\"true\"><State>4</State><UserState>1</UserState><Login>\(xmlEscape(login))</Login><NameSpaceType>\(kind)</NameSpaceType>"
            if known {
                text +=
                    "<DomainName>\(xmlEscape(domain))</DomainName><IsFederatedNS>\(federated)</IsFederatedNS><FederationBrandName>Contoso</FederationBrandName><CloudInstanceName>microsoftonline.com</CloudInstanceName><CloudInstanceIssuerUri>urn:federation:MicrosoftOnline</CloudInstanceIssuerUri>"
            }
            if federated {
                text += "<AuthURL>\(xmlEscape(authURL))</AuthURL><STSAuthURL>\(xmlEscape(stsURL))</STSAuthURL>"
            }
            text += "</RealmInfo>"
            return HTTPServerResponse(status: 200, contentType: "text/xml; charset=utf-8", text: text)
        }
        var members: [(String, JSON)] = [
            ("State", .int(4)), ("UserState", .int(1)), ("Login", .string(login)), ("NameSpaceType", .string(kind)),
        ]
        if known {
            members += [
                ("DomainName", .string(domain)), ("FederationBrandName", .string("Contoso")),
                ("CloudInstanceName", .string("microsoftonline.com")),
                ("CloudInstanceIssuerUri", .string("urn:federation:MicrosoftOnline")),
            ]
        }
        if federated { members.append(("AuthURL", .string(authURL))) }
        return HTTPServerResponse(
            status: 200, contentType: "application/json; charset=utf-8", text: JSON.object(members).serialized())
    }

    /// `POST /extSTS.srf`: success with a BinarySecurityToken, a SOAP fault, or a token-less RSTR.
    func extSTS(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = String(decoding: request.body, as: UTF8.self)
        let soapType = "application/soap+xml; charset=utf-8"
        let username = xmlElementText(body, "Username") ?? ""
        let password = xmlElementText(body, "Password") ?? ""
        let address = xmlElementText(body, "Address").flatMap { _ in lastAddress(body) } ?? siteURL + "/"
        let now = nowEpoch()
        let ppHeader =
            "<psf:pp xmlns:psf=\"http://schemas.microsoft.com/Passport/SoapServices/SOAPFault\"><psf:serverVersion>1</psf:serverVersion><psf:authstate>0x80048800</psf:authstate><psf:reqstatus>0x80048821</psf:reqstatus><psf:serverInfo MachineName=\"SPSIM\" ServerVersion=\"16.0\" ServerTime=\"\(CivilTime(now).iso)\">SPSim</psf:serverInfo></psf:pp>"
        func fault(_ code: String, _ text: String) -> HTTPServerResponse {
            let xml =
                "<?xml version=\"1.0\" encoding=\"utf-8\" ?><S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" xmlns:wst=\"http://schemas.xmlsoap.org/ws/2005/02/trust\" xmlns:psf=\"http://schemas.microsoft.com/Passport/SoapServices/SOAPFault\"><S:Header>\(ppHeader)</S:Header><S:Body><S:Fault><S:Code><S:Value>S:Sender</S:Value><S:Subcode><S:Value>wst:FailedAuthentication</S:Value></S:Subcode></S:Code><S:Reason><S:Text xml:lang=\"en-US\">Authentication Failure</S:Text></S:Reason><S:Detail><psf:error><psf:value>0x80048821</psf:value><psf:internalerror><psf:code>\(code)</psf:code><psf:text>\(xmlEscape(text))</psf:text></psf:internalerror></psf:error></S:Detail></S:Fault></S:Body></S:Envelope>"
            return HTTPServerResponse(status: 500, contentType: soapType, text: xml)
        }
        // Federated users (§2.4 step 3): a SAML assertion from usernamemixed instead of a UsernameToken.
        var assertionUser: Int?
        if username.isEmpty, let range = body.range(of: "AssertionID=\"") {
            let id = String(body[range.upperBound...].prefix { $0 != "\"" })
            assertionUser = state.withLock { state in
                defer { state.assertions[id] = nil }
                return state.assertions[id]
            }
            if assertionUser == nil { return fault("0x80048821", "AADSTS50008: SAML token is invalid.") }
        }
        guard !username.isEmpty || assertionUser != nil else {
            return fault("0x80045c0f", "AADSTS90023: Invalid STS request.")
        }
        if let candidate = userIndex(login: username), users[candidate].federated {
            return fault("0x80048821", "Direct login to WLID is not allowed for this federated namespace")
        }
        guard let index = assertionUser ?? checkPassword(login: username, password: password) else {
            return fault(
                "0x80048821", "AADSTS50126: Error validating credentials due to invalid username or password.")
        }
        let user = users[index]
        if user.mfa {
            return fault(
                "0x800434D4",
                "AADSTS50076: Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access this resource."
            )
        }
        if user.passwordChange {
            return fault("0x80048821", "AADSTS50055: The password is expired.")
        }
        if user.conditionalAccess {
            // Token-less RSTR: only psf:pp with an error status, no RequestedSecurityToken.
            let xml =
                "<?xml version=\"1.0\" encoding=\"utf-8\" ?><S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:wst=\"http://schemas.xmlsoap.org/ws/2005/02/trust\" xmlns:psf=\"http://schemas.microsoft.com/Passport/SoapServices/SOAPFault\"><S:Header><psf:pp><psf:serverVersion>1</psf:serverVersion><psf:authstate>0x80048800</psf:authstate><psf:reqstatus>0x8004882c</psf:reqstatus><psf:errorstatus>0x80045b00</psf:errorstatus></psf:pp></S:Header><S:Body><wst:RequestSecurityTokenResponse><psf:pp><psf:reqstatus>0x8004882c</psf:reqstatus><psf:errorstatus>0x80045b00</psf:errorstatus></psf:pp></wst:RequestSecurityTokenResponse></S:Body></S:Envelope>"
            return HTTPServerResponse(status: 200, contentType: soapType, text: xml)
        }
        let token = "EwB" + Tokens.random(bytes: 200) + "AAA="
        state.withLock { $0.legacyTokens[token] = index }
        let created = CivilTime(now).iso
        let xml =
            "<?xml version=\"1.0\" encoding=\"utf-8\" ?><S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" xmlns:wsa=\"http://www.w3.org/2005/08/addressing\"><S:Header><wsa:Action S:mustUnderstand=\"1\" wsu:Id=\"Action\">http://schemas.xmlsoap.org/ws/2005/02/trust/RSTR/Issue</wsa:Action><wsa:To S:mustUnderstand=\"1\" wsu:Id=\"To\">http://www.w3.org/2005/08/addressing/anonymous</wsa:To><wsse:Security S:mustUnderstand=\"1\"><wsu:Timestamp wsu:Id=\"TS\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\"><wsu:Created>\(created)</wsu:Created><wsu:Expires>\(CivilTime(now + 300).iso)</wsu:Expires></wsu:Timestamp></wsse:Security></S:Header><S:Body><wst:RequestSecurityTokenResponse xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:wst=\"http://schemas.xmlsoap.org/ws/2005/02/trust\" xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" xmlns:saml=\"urn:oasis:names:tc:SAML:1.0:assertion\" xmlns:wsp=\"http://schemas.xmlsoap.org/ws/2004/09/policy\" xmlns:psf=\"http://schemas.microsoft.com/Passport/SoapServices/SOAPFault\"><wst:TokenType>urn:passport:compact</wst:TokenType><wsp:AppliesTo xmlns:wsa=\"http://www.w3.org/2005/08/addressing\"><wsa:EndpointReference><wsa:Address>\(xmlEscape(address))</wsa:Address></wsa:EndpointReference></wsp:AppliesTo><wst:Lifetime><wsu:Created>\(created)</wsu:Created><wsu:Expires>\(CivilTime(now + 86400).iso)</wsu:Expires></wst:Lifetime><wst:RequestedSecurityToken><wsse:BinarySecurityToken Id=\"Compact0\">t=\(xmlEscape(token))&amp;p=</wsse:BinarySecurityToken></wst:RequestedSecurityToken><wst:RequestedAttachedReference><wsse:SecurityTokenReference><wsse:Reference URI=\"\(Tokens.random(bytes: 12))\"></wsse:Reference></wsse:SecurityTokenReference></wst:RequestedAttachedReference><wst:RequestedUnattachedReference><wsse:SecurityTokenReference><wsse:Reference URI=\"\(Tokens.random(bytes: 12))\"></wsse:Reference></wsse:SecurityTokenReference></wst:RequestedUnattachedReference></wst:RequestSecurityTokenResponse></S:Body></S:Envelope>"
        return HTTPServerResponse(status: 200, contentType: soapType, text: xml)
    }

    /// The AppliesTo address (the last `Address` element in the envelope).
    func lastAddress(_ xml: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: "<(?:[A-Za-z0-9_]+:)?Address>([^<]*)</"),
            let match = regex.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)).last,
            let range = Range(match.range(at: 1), in: xml)
        else { return nil }
        return xmlUnescape(String(xml[range]))
    }

    // MARK: ADFS

    func adfsLoginPage(_ request: HTTPServerRequest, error: String?, userName: String) -> HTTPServerResponse {
        let action = "/adfs/ls/?" + request.rawQuery
        let optionsAction = federationURL + "/adfs/ls/?" + request.rawQuery
        let errorStyle = error == nil ? " style=\"display: none;\"" : ""
        let text = """
            <!DOCTYPE html>
            <html lang="en-US">
                <head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
                    <meta http-equiv="X-UA-Compatible" content="IE=10.000">
                    <meta name="viewport" content="width=device-width, initial-scale=1.0, maximum-scale=1.0, user-scalable=no">
                    <meta http-equiv="cache-control" content="no-cache,no-store">
                    <meta http-equiv="pragma" content="no-cache">
                    <meta http-equiv="expires" content="-1">
                    <meta name="mswebdialog-title" content="Connecting to Contoso">
                    <title>Sign In</title>
                </head>
                <body dir="ltr" class="body">
                <div id="noScript" style="position: static; width: 100%; height: 100%; z-index: 100; display: none;">
                    <h1>JavaScript required</h1>
                    <p>JavaScript is required. This web browser does not support JavaScript or JavaScript in this web browser is not enabled.</p>
                </div>
                <script type="text/javascript" language="JavaScript">
                     document.getElementById("noScript").style.display = "none";
                </script>
                <div id="fullPage"><div id="contentWrapper" class="float"><div id="content">
                <div id="header"><img class="logoImage" src="/adfs/portal/logo/logo.png" alt="Contoso"></div>
                <div id="workArea"><div id="authArea" class="groupMargin"><div id="loginArea">
                    <div id="loginMessage" class="groupMargin">Sign in with your organizational account</div>
                    <form method="post" id="loginForm" autocomplete="off" novalidate="novalidate" onKeyPress="if (event &amp;&amp; event.keyCode == 13) Login.submitLoginRequest();" action="\(htmlEscape(action))">
                        <div id="error" class="fieldMargin error smallText"\(errorStyle)>
                            <label id="errorText" for="">\(htmlEscape(error ?? ""))</label>
                        </div>
                        <div id="formsAuthenticationArea">
                            <div id="userNameArea">
                                <input id="userNameInput" name="UserName" type="email" value="\(htmlEscape(userName))" tabindex="1" class="text fullWidth" spellcheck="false" placeholder="someone@example.com" autocomplete="off">
                            </div>
                            <div id="passwordArea">
                                <input id="passwordInput" name="Password" type="password" tabindex="2" class="text fullWidth" placeholder="Password" autocomplete="off">
                            </div>
                            <div id="kmsiArea" style="display:none">
                                <input type="checkbox" name="Kmsi" id="kmsiInput" value="true" tabindex="3">
                                <label for="kmsiInput">Keep me signed in</label>
                            </div>
                            <div id="submissionArea" class="submitMargin">
                                <span id="submitButton" class="submit" tabindex="4" onKeyPress="if (event &amp;&amp; event.keyCode == 32) Login.submitLoginRequest();" onclick="return Login.submitLoginRequest();">Sign in</span>
                            </div>
                        </div>
                        <input id="optionForms" type="hidden" name="AuthMethod" value="FormsAuthentication"/>
                    </form>
                    <div id="authOptions">
                    <form id="options" method="post" action="\(htmlEscape(optionsAction))">
                        <script type="text/javascript">
                            function SelectOption(option) {
                                var i = document.getElementById('optionSelection');
                                i.value = option;
                                document.forms['options'].submit();
                                return false;
                            }
                        </script>
                        <input id="optionSelection" type="hidden" name="AuthMethod" />
                        <div class="groupMargin"></div>
                    </form>
                    </div>
                </div></div></div>
                </div></div></div>
                </body>
            </html>

            """
        return html(200, text)
    }

    /// `/adfs/ls/?wa=wsignin1.0&wtrealm=…&wctx=…`
    func adfsPassive(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let wtrealm = request.queryValue("wtrealm") ?? ""
        let forEntra = isOnline && wtrealm.lowercased() == "urn:federation:microsoftonline"
        guard request.queryValue("wa") == "wsignin1.0", wtrealm == realm || forEntra else {
            return html(
                400,
                "<html><body><h1>An error occurred</h1><p>MSIS7042: The relying party trust is not recognised.</p></body></html>"
            )
        }
        guard request.method == "POST" else {
            return adfsLoginPage(request, error: nil, userName: request.queryValue("username") ?? "")
        }
        let fields = request.formFields
        let names = fields.map(\.name)
        for name in Set(names) where names.filter({ $0 == name }).count > 1 {
            return html(
                400,
                "<html><head><title>Bad Request</title></head><body><h1>An error occurred</h1><p>MSIS7000: The sign in request is not compliant to the WS-Federation language for web browser clients: duplicate post parameter '\(htmlEscape(name))'.</p></body></html>"
            )
        }
        let userName = request.formValue("UserName") ?? ""
        if request.formValue("AuthMethod") == FormsSecondFactor.adfsAuthMethod {
            return adfsSecondFactorAnswer(request)
        }
        guard request.formValue("AuthMethod") == "FormsAuthentication" else {
            return adfsLoginPage(request, error: nil, userName: userName)
        }
        guard let user = checkPassword(login: userName, password: request.formValue("Password") ?? "") else {
            return adfsLoginPage(
                request, error: "Incorrect user ID or password. Type the correct user ID and password, and try again.",
                userName: userName)
        }
        if users[user].mfa { return adfsSecondFactorPage(request, user: user, error: nil) }
        return adfsTokenResponse(request, user: user)
    }

    /// The "Working..." page that posts the WS-Federation token to SharePoint's `/_trust/` (or to Entra for a
    /// federated account).
    func adfsTokenResponse(_ request: HTTPServerRequest, user: Int) -> HTTPServerResponse {
        let forEntra =
            isOnline && (request.queryValue("wtrealm") ?? "").lowercased() == "urn:federation:microsoftonline"
        let assertion = issueAssertion(user: user)
        let now = nowEpoch()
        let wresult =
            "<t:RequestSecurityTokenResponse xmlns:t=\"http://schemas.xmlsoap.org/ws/2005/02/trust\"><t:Lifetime><wsu:Created xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\">\(CivilTime(now).iso)</wsu:Created><wsu:Expires xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\">\(CivilTime(now + 3600).iso)</wsu:Expires></t:Lifetime><wsp:AppliesTo xmlns:wsp=\"http://schemas.xmlsoap.org/ws/2004/09/policy\"><wsa:EndpointReference xmlns:wsa=\"http://www.w3.org/2005/08/addressing\"><wsa:Address>\(realm)</wsa:Address></wsa:EndpointReference></wsp:AppliesTo><t:RequestedSecurityToken>\(assertion)</t:RequestedSecurityToken><t:TokenType>urn:oasis:names:tc:SAML:1.0:assertion</t:TokenType><t:RequestType>http://schemas.xmlsoap.org/ws/2005/02/trust/Issue</t:RequestType><t:KeyType>http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey</t:KeyType></t:RequestSecurityTokenResponse>"
        let wctx = request.queryValue("wctx") ?? ""
        let action = forEntra ? identityProviderURL + "/login.srf" : siteURL + "/_trust/"
        let body =
            "<html><head><title>Working...</title></head><body><form method=\"POST\" name=\"hiddenform\" action=\"\(htmlEscape(action))\"><input type=\"hidden\" name=\"wa\" value=\"wsignin1.0\" /><input type=\"hidden\" name=\"wresult\" value=\"\(htmlEscape(wresult))\" /><input type=\"hidden\" name=\"wctx\" value=\"\(htmlEscape(wctx))\" /><noscript><p>Script is disabled. Click Submit to continue.</p><input type=\"submit\" value=\"Submit\" /></noscript></form><script language=\"javascript\">window.setTimeout('document.forms[0].submit()', 0);</script></body></html>"
        return html(200, body, headers: [cookie("MSISAuth", Tokens.random(bytes: 48), path: "/adfs")])
    }

    /// A SAML 1.1 assertion (unsigned stand-in) registered for `/_trust/`.
    func issueAssertion(user: Int) -> String {
        let id = "_" + Tokens.guid()
        state.withLock { $0.assertions[id] = user }
        let now = nowEpoch()
        let email = xmlEscape(users[user].email)
        let issuer = "http://" + (options.mode == .entra ? "127.0.0.3" : "127.0.0.2") + "/adfs/services/trust"
        return
            "<saml:Assertion MajorVersion=\"1\" MinorVersion=\"1\" AssertionID=\"\(id)\" Issuer=\"\(issuer)\" IssueInstant=\"\(CivilTime(now).iso)\" xmlns:saml=\"urn:oasis:names:tc:SAML:1.0:assertion\"><saml:Conditions NotBefore=\"\(CivilTime(now).iso)\" NotOnOrAfter=\"\(CivilTime(now + 3600).iso)\"><saml:AudienceRestrictionCondition><saml:Audience>\(realm)</saml:Audience></saml:AudienceRestrictionCondition></saml:Conditions><saml:AttributeStatement><saml:Subject><saml:SubjectConfirmation><saml:ConfirmationMethod>urn:oasis:names:tc:SAML:1.0:cm:bearer</saml:ConfirmationMethod></saml:SubjectConfirmation></saml:Subject><saml:Attribute AttributeName=\"emailaddress\" AttributeNamespace=\"http://schemas.xmlsoap.org/ws/2005/05/identity/claims\"><saml:AttributeValue>\(email)</saml:AttributeValue></saml:Attribute></saml:AttributeStatement><saml:AuthenticationStatement AuthenticationMethod=\"urn:oasis:names:tc:SAML:1.0:am:password\" AuthenticationInstant=\"\(CivilTime(now).iso)\"><saml:Subject><saml:SubjectConfirmation><saml:ConfirmationMethod>urn:oasis:names:tc:SAML:1.0:cm:bearer</saml:ConfirmationMethod></saml:SubjectConfirmation></saml:Subject></saml:AuthenticationStatement><ds:Signature xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"><ds:SignatureValue>\(Tokens.random(bytes: 64))</ds:SignatureValue></ds:Signature></saml:Assertion>"
    }

    /// WS-Trust 1.3 `usernamemixed`: SAML assertion for a UsernameToken.
    func adfsUsernameMixed(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = String(decoding: request.body, as: UTF8.self)
        let soapType = "application/soap+xml; charset=utf-8"
        guard
            let user = checkPassword(
                login: xmlElementText(body, "Username") ?? "", password: xmlElementText(body, "Password") ?? "")
        else {
            let fault =
                "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:a=\"http://www.w3.org/2005/08/addressing\"><s:Header><a:Action s:mustUnderstand=\"1\">http://www.w3.org/2005/08/addressing/soap/fault</a:Action></s:Header><s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value><s:Subcode><s:Value xmlns:a=\"http://docs.oasis-open.org/ws-sx/ws-trust/200512\">a:FailedAuthentication</s:Value></s:Subcode></s:Code><s:Reason><s:Text xml:lang=\"en-US\">ID3242: The security token could not be authenticated or authorized.</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>"
            return HTTPServerResponse(status: 500, contentType: soapType, text: fault)
        }
        let xml =
            "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:a=\"http://www.w3.org/2005/08/addressing\"><s:Header><a:Action s:mustUnderstand=\"1\">http://docs.oasis-open.org/ws-sx/ws-trust/200512/RSTRC/IssueFinal</a:Action></s:Header><s:Body><trust:RequestSecurityTokenResponseCollection xmlns:trust=\"http://docs.oasis-open.org/ws-sx/ws-trust/200512\"><trust:RequestSecurityTokenResponse><trust:RequestedSecurityToken>\(issueAssertion(user: user))</trust:RequestedSecurityToken><trust:TokenType>urn:oasis:names:tc:SAML:1.0:assertion</trust:TokenType><trust:RequestType>http://docs.oasis-open.org/ws-sx/ws-trust/200512/Issue</trust:RequestType><trust:KeyType>http://docs.oasis-open.org/ws-sx/ws-trust/200512/Bearer</trust:KeyType></trust:RequestSecurityTokenResponse></trust:RequestSecurityTokenResponseCollection></s:Body></s:Envelope>"
        return HTTPServerResponse(status: 200, contentType: soapType, text: xml)
    }
}
