import Foundation
import HTTPServer

/// Entra's browser sign-in (127.0.0.2 in `entra` and `legacy-spo` modes): the `$Config`-driven converged pages,
/// the authorize endpoint, the password post, the interrupts after it (MFA, Conditional Access, password change,
/// KMSI) and the `form_post` page back to SharePoint.
extension SimulatorCore {
    /// `/jsdisabled`: where the converged pages' `<noscript>` refresh leads.
    func javaScriptRequiredPage() -> HTTPServerResponse {
        html(
            200,
            "<!DOCTYPE html><html><head><title>JavaScript required</title></head><body><h1>JavaScript required</h1><p>We can't sign you in. Your browser is currently set to block JavaScript. You need to allow JavaScript to use this service.</p></body></html>"
        )
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
        default: errorText = errorCode.flatMap { Self.accessPassRefusals[$0] } ?? ""
        }
        config += [
            ("urlGetCredentialType", .string(identityProviderURL + "/common/GetCredentialType?mkt=en-US")),
            (
                "urlResetPassword",
                .string("https://passwordreset.microsoftonline.com/?ru=" + percentEncode(identityProviderURL))
            ),
            ("sErrorCode", .string(errorCode ?? "50058")),
            ("sErrTxt", .string(errorText)),
            ("sPOST_Username", .string(username.isEmpty ? flow.loginHint ?? "" : username)),
            ("fKMSIEnabled", .bool(false)),
            ("iLoginMode", .int(1)),
            ("fAllowPhoneSignIn", .bool(true)),
            ("fAccessPassSupported", .bool(true)), ("fShowAccessPassPeek", .bool(true)),
        ]
        config += fidoSignInConfig(flow)
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
        var flow = newFlow(
            redirectURI: redirectURI, stateValue: request.queryValue("state") ?? "",
            nonce: request.queryValue("nonce") ?? "")
        // FIDO is offered by user agent (observed); `login_hint` embeds GetCredentialType's answer.
        flow.fidoCapable = isFidoCapable(request.header("User-Agent"))
        flow.loginHint = request.queryValue("login_hint").flatMap { $0.isEmpty ? nil : $0 }
        state.withLock { $0.flows[flow.ctx] = flow }
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
        if let token = request.formValue("certificatetoken") {
            return entraCertificateLogin(request, token: token)
        }
        guard let flow = validatedFlow(request, stage: "signin") else {
            return entraError(
                "50089", "AADSTS50089: Authentication failed due to flow token expired. Please sign in again.")
        }
        if request.formValue("assertion") != nil || request.formValue("type") == "23" {
            return entraFidoLogin(request, flow: flow)
        }
        let login = request.formValue("login") ?? request.formValue("loginfmt") ?? ""
        if let pass = request.formValue("accesspass") {
            return entraAccessPassLogin(flow: flow, login: login, pass: pass)
        }
        let password = request.formValue("passwd") ?? ""
        guard let index = userIndex(login: login) else {
            return signInPage(advance(flow, stage: "signin", user: nil), errorCode: "50034", username: login)
        }
        guard users[index].hasPassword, users[index].password == password else {
            return signInPage(advance(flow, stage: "signin", user: nil), errorCode: "50126", username: login)
        }
        state.withLock { $0.passwordSignIns[users[index].email.lowercased(), default: 0] += 1 }
        if users[index].federated {
            return signInPage(advance(flow, stage: "signin", user: nil), errorCode: "50107", username: login)
        }
        return afterPassword(flow, index)
    }

    /// The page after a successful first factor: MFA, Conditional Access, password change, or KMSI.
    /// A Temporary Access Pass is `strongAuthentication`: it satisfies MFA too.
    func afterPassword(_ flow: EntraFlow, _ index: Int, strongAuthentication: Bool = false) -> HTTPServerResponse {
        let user = users[index]
        if let interrupt = options.entraInterrupt, !(interrupt.waitsForSecondFactor && user.mfa) {
            return entraInterruptPage(interrupt, flow: flow, user: index)
        }
        if user.mfa && !strongAuthentication { return secondFactorPage(flow, index) }
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
        return staySignedInPage(flow, index)
    }

    /// "Stay signed in?" (`KmsiInterrupt`), posting to `/kmsi`.
    func staySignedInPage(_ flow: EntraFlow, _ index: Int) -> HTTPServerResponse {
        let next = advance(flow, stage: "kmsi", user: index)
        var config = baseConfig(pgid: "KmsiInterrupt", flow: next, urlPost: "/kmsi", hpgid: 1115, hpgact: 2005)
        config += [("sPOST_Username", .string(users[index].email))]
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
}
