import Foundation
import HTTPServer

/// SharePoint-side sign-in endpoints and the authentication gate in front of everything else.
extension SimulatorCore {
    func handleSharePoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let lower = request.path.lowercased()
        if options.mode == .basic, authenticatedUser(request) == nil {
            return basicChallenge()
        }
        if options.mode == .fbaWindows, let message = ntlmMessage(request) {
            // Windows authentication on any URL: Type 1 → challenge; a bad Type 3 → 401 again.
            if le32(message, 8) == 1 { return ntlmChallengeResponse() }
            if ntlmUser(request) == nil { return windowsChallenge() }
        }
        switch lower {
        case "/_layouts/15/authenticate.aspx", "/_layouts/authenticate.aspx":
            return authenticatePage(request)
        case "/_forms/default.aspx":
            return formsEndpoint(request)
        case FormsSecondFactor.fbaVerifyPath where request.method == "POST":
            return fbaSecondFactorAnswer(request)
        case "/_trust", "/_trust/", "/_trust/default.aspx":
            return trustEndpoint(request)
        case "/_login/default.aspx":
            return providerChooser(request)
        case "/_windows/default.aspx":
            return windowsSignIn(request)
        case "/_vti_bin/authentication.asmx":
            return fbaSOAPLogin(request)
        case "/_vti_bin/client.svc" where isOnline && bearerToken(request) != nil:
            // The tenant discovery probe: an empty (or any) bearer token gets the challenge with the realm.
            return bearerChallenge("Invalid JWT token. No certificate thumbprint specified in token header.")
        case "/_vti_bin/idcrl.svc", "/_vti_bin/idcrl.svc/":
            return idcrlEndpoint(request)
        case "/_layouts/15/error.aspx":
            return html(200, page(title: "Error", body: "<h1>Sorry, something went wrong</h1><p>Access denied.</p>"))
        default:
            break
        }
        if lower == "/_api" || lower.hasPrefix("/_api/") {
            return restEndpoint(request)
        }
        return contentPage(request)
    }

    // MARK: Sessions and cookies

    /// The signed-in user index for this request, if any (mode-dependent).
    func authenticatedUser(_ request: HTTPServerRequest) -> Int? {
        switch options.mode {
        case .anonymous:
            return nil
        case .basic:
            guard let header = request.header("Authorization"), header.lowercased().hasPrefix("basic "),
                let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
            else { return nil }
            return checkPassword(login: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        default:
            if let token = bearerToken(request) {
                let now = nowEpoch()
                return state.withLock { state in
                    state.accessTokens[token].flatMap { $0.expires > now ? $0.user : nil }
                }
            }
            if let user = ntlmUser(request) { return user }
            let cookies = request.cookies
            let now = nowEpoch()
            return state.withLock { state -> Int? in
                for name in ["FedAuth", "SPOIDCRL"] {
                    if let value = cookies[name], let session = state.sessions[value] {
                        if session.expires > now { return session.user }
                        state.sessions[value] = nil
                    }
                }
                return nil
            }
        }
    }

    /// The bearer token of an `Authorization: Bearer …` header (empty string for an empty one), SPO modes only.
    func bearerToken(_ request: HTTPServerRequest) -> String? {
        guard isOnline, let header = request.header("Authorization"), header.lowercased().hasPrefix("bearer") else {
            return nil
        }
        return header.dropFirst("bearer".count).trimmingCharacters(in: .whitespaces)
    }

    /// `401` + the `WWW-Authenticate: Bearer …` discovery hint (§4).
    func bearerChallenge(_ description: String, error: String? = nil) -> HTTPServerResponse {
        let challenge =
            "Bearer realm=\"\(tenantId)\",client_id=\"00000003-0000-0ff1-ce00-000000000000\","
            + "trusted_issuers=\"00000001-0000-0000-c000-000000000000@*,https://sts.windows.net/*/\","
            + "authorization_uri=\"\(identityProviderURL)/common/oauth2/authorize\""
            + (error.map { ",error=\"\($0)\"" } ?? "")
        let body = JSON.object([("error_description", .string(description))]).serialized()
        return HTTPServerResponse(
            status: 401, contentType: "application/json; charset=utf-8", text: body,
            headers: [("WWW-Authenticate", challenge)] + standardHeaders())
    }

    /// `POST /_api/SP.OAuth.NativeClient/Authenticate` with a valid bearer token → SPOIDCRL cookie.
    func nativeClientAuthenticate(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let token = bearerToken(request), !token.isEmpty, let user = authenticatedUser(request) else {
            return bearerChallenge("Invalid JWT token. No certificate thumbprint specified in token header.")
        }
        let session = newSession(user: user)
        return HTTPServerResponse(
            status: 200, contentType: "application/json;odata=verbose;charset=utf-8",
            text: "{\"d\":{\"Authenticate\":null}}",
            headers: [cookie("SPOIDCRL", session.value)] + standardHeaders())
    }

    /// Whether the request may read content (anonymous mode lets everyone in).
    func isAllowed(_ request: HTTPServerRequest) -> Bool {
        options.mode == .anonymous || authenticatedUser(request) != nil
    }

    var isOnline: Bool { options.mode == .entra || options.mode == .legacySPO }

    /// Creates a session and returns its FedAuth value.
    func newSession(user: Int) -> (value: String, expires: Int) {
        let now = nowEpoch()
        let email = users[user].email
        let claim =
            isOnline
            ? "0#.f|membership|\(email)"
            : options.mode == .adfs ? "05.t|adfs|\(email)" : "0#.f|fbamembership|\(users[user].accountName)"
        let xml =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><SP>V13,\(claim),\(now),False,False,\(Tokens.random(bytes: 18)),\(siteURL)/</SP>"
        let value = base64([0xEF, 0xBB, 0xBF] + Array(xml.utf8))
        let expires = now + sessionLifetime
        state.withLock { $0.sessions[value] = SPSession(user: user, expires: expires) }
        return (value, expires)
    }

    /// `Set-Cookie` text: host-only on the bare loopback IP, `secure` only on https.
    func cookie(_ name: String, _ value: String, expires: Int? = nil, path: String = "/") -> (
        name: String, value: String
    ) {
        var text = "\(name)=\(value); path=\(path)"
        if let expires { text += "; expires=\(CivilTime(expires).http)" }
        if isTLS { text += "; secure" }
        text += "; HttpOnly"
        return ("Set-Cookie", text)
    }

    /// FedAuth (+ rtFa on SharePoint Online) for a new session.
    func sessionCookies(user: Int) -> [(name: String, value: String)] {
        let session = newSession(user: user)
        if isOnline {
            // SPO: session cookies (no expiry).
            return [cookie("FedAuth", session.value), cookie("rtFa", Tokens.random(bytes: 96))]
        }
        // On-premises: persistent FedAuth, expiry = token lifetime.
        return [cookie("FedAuth", session.value, expires: session.expires)]
    }

    // MARK: Helpers

    func html(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status, contentType: "text/html; charset=utf-8", text: text,
            headers: [("Cache-Control", "private, no-store")] + headers)
    }

    func redirect(_ location: String, headers: [(name: String, value: String)] = []) -> HTTPServerResponse {
        let body =
            "<html><head><title>Object moved</title></head><body><h2>Object moved to <a href=\"\(htmlEscape(location))\">here</a>.</h2></body></html>"
        return HTTPServerResponse(
            status: 302, contentType: "text/html; charset=utf-8", text: body,
            headers: [("Location", location), ("Cache-Control", "private, no-store")] + headers)
    }

    func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html dir="ltr" lang="en-US">
        <head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" /><meta name="GENERATOR" content="Microsoft SharePoint" /><title>\(htmlEscape(title))</title></head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    func basicChallenge() -> HTTPServerResponse {
        HTTPServerResponse(
            status: 401, contentType: "text/plain; charset=utf-8", text: "401 UNAUTHORIZED",
            headers: [("WWW-Authenticate", "Basic realm=\"127.0.0.1\""), ("SPRequestGuid", Tokens.guid())])
    }

    /// A safe local Source path (open redirects are refused, as SharePoint does).
    func sourcePath(_ raw: String?) -> String {
        guard let raw, !raw.isEmpty else { return "/" }
        var text = raw
        let base = siteURL
        if text.lowercased().hasPrefix(base.lowercased()) { text = String(text.dropFirst(base.count)) }
        guard text.hasPrefix("/"), !text.hasPrefix("//") else { return "/" }
        return text
    }

    /// `/_layouts/15/Authenticate.aspx?Source=<enc>`
    func authenticateReturnURL(source: String) -> String {
        "/_layouts/15/Authenticate.aspx?Source=" + percentEncode(source)
    }

    /// `ReturnUrl` as SharePoint writes it (lower-case escapes), e.g. `%2f_layouts%2f15%2fAuthenticate.aspx%3fSource%3d%252F`.
    func encodedReturnURL(source: String) -> String {
        percentEncode(authenticateReturnURL(source: source)).lowercasedEscapes()
    }

    /// The `ReturnUrl` query value, made safe, falling back to authenticate.aspx for `/`.
    func returnURL(_ request: HTTPServerRequest) -> String {
        sourcePath(request.queryValue("ReturnUrl") ?? authenticateReturnURL(source: "/"))
    }

    // MARK: authenticate.aspx

    func authenticatePage(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let source = sourcePath(request.queryValue("Source"))
        if options.faults.redirectLoop {
            return redirect("/_forms/default.aspx?ReturnUrl=\(encodedReturnURL(source: source))&Source=cookie")
        }
        if options.mode == .anonymous || authenticatedUser(request) != nil {
            return redirect(source)
        }
        let returnURL = encodedReturnURL(source: source)
        switch options.mode {
        case .entra, .legacySPO:
            return redirect("/_forms/default.aspx?ReturnUrl=\(returnURL)&Source=cookie")
        case .adfs:
            return redirect("/_trust/default.aspx?trust=SPSim%20ADFS&ReturnUrl=\(returnURL)")
        case .fba:
            return redirect("/_forms/default.aspx?ReturnUrl=\(returnURL)&Source=\(percentEncode(source))")
        case .fbaWindows:
            return redirect("/_login/default.aspx?ReturnUrl=\(returnURL)&Source=\(percentEncode(source))")
        case .basic:
            return basicChallenge()
        case .anonymous:
            return redirect(source)
        }
    }

    // MARK: /_forms/default.aspx (three roles)

    func formsEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if request.queryValue("wa") == "wsignin1.0" {
            return legacyTokenPost(request)
        }
        if options.faults.redirectLoop {
            let source = sourcePath(returnURL(request).components(separatedBy: "Source=").last?.removingPercentEncoding)
            return redirect(authenticateReturnURL(source: source))
        }
        switch options.mode {
        case .entra, .legacySPO:
            return request.method == "POST" ? oidcFormPost(request) : oidcStart(request)
        case .fba, .fbaWindows:
            return fbaPage(request)
        default:
            return html(404, page(title: "Not found", body: "<h1>404 NOT FOUND</h1>"))
        }
    }

    /// Step 3 of the browser flow: redirect to the authorize endpoint.
    func oidcStart(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let returnURL = returnURL(request)
        var source = "/"
        if let range = returnURL.range(of: "Source=") {
            source = sourcePath(String(returnURL[range.upperBound...]).removingPercentEncoding)
        }
        if authenticatedUser(request) != nil { return redirect(source) }
        let stateToken = "OpenIdConnect.AuthenticationProperties=" + Tokens.random(bytes: 60)
        state.withLock { $0.oidcStates[stateToken] = source }
        let redirectURI = siteURL + "/_forms/default.aspx"
        let location =
            identityProviderURL + "/\(tenantId)/oauth2/authorize?client_id=00000003-0000-0ff1-ce00-000000000000"
            + "&resource=00000003-0000-0ff1-ce00-000000000000&response_mode=form_post&response_type=code+id_token"
            + "&scope=openid&nonce=\(Tokens.random(bytes: 32))&redirect_uri=\(percentEncode(redirectURI))"
            + "&state=\(percentEncode(stateToken))&wsucxt=1&client-request-id=\(Tokens.guid())"
        return redirect(location, headers: [cookie("RpsContextCookie", percentEncode(returnURL))])
    }

    /// Step 8: the form_post lands here; the code is redeemed once and FedAuth + rtFa are set.
    func oidcFormPost(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let code = request.formValue("code") ?? ""
        let idToken = request.formValue("id_token") ?? ""
        let stateValue = request.formValue("state") ?? ""
        let outcome = state.withLock { state -> (user: Int, source: String)? in
            guard let issued = state.codes[code], issued.idToken == idToken, let source = state.oidcStates[stateValue]
            else { return nil }
            state.codes[code] = nil
            state.oidcStates[stateValue] = nil
            return (issued.user, source)
        }
        guard let outcome else {
            return html(
                400,
                page(
                    title: "Error",
                    body:
                        "<h1>Sorry, something went wrong</h1><p id=\"ms-error-body\">The sign-in response was not valid or has already been used.</p>"
                ))
        }
        return redirect(outcome.source, headers: sessionCookies(user: outcome.user))
    }

    /// Legacy SPO: `POST /_forms/default.aspx?wa=wsignin1.0` with `t=…&p=`.
    func legacyTokenPost(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.mode == .legacySPO, !options.legacyRefused else {
            return legacyRefusedPage()
        }
        let body = String(decoding: request.body, as: UTF8.self)
        var token = ""
        if let range = body.range(of: "t=") {
            token = String(body[range.upperBound...])
            if let end = token.range(of: "&p=") { token = String(token[..<end.lowerBound]) }
        }
        token = token.removingPercentEncoding ?? token
        guard let user = state.withLock({ $0.legacyTokens[token] }) else {
            return html(
                403,
                page(
                    title: "Error",
                    body: "<h1>Sorry, something went wrong</h1><p>The token presented could not be validated.</p>"))
        }
        return redirect("/", headers: sessionCookies(user: user))
    }

    /// SharePoint Online since May 2026: the IDCRL route is refused with an error page and no FedAuth.
    func legacyRefusedPage() -> HTTPServerResponse {
        html(
            403,
            page(
                title: "Error",
                body:
                    "<h1>Sorry, something went wrong</h1><p id=\"ms-error-body\">Legacy authentication (IDCRL) is no longer supported for SharePoint Online. Sign in with a browser or use an app registration in Microsoft Entra ID.</p><p>Correlation ID: \(Tokens.guid())</p>"
            ), headers: [("X-MSDAVEXT_Error", "917656; Access+denied.")])
    }

    /// `/_vti_bin/idcrl.svc/` with `Authorization: BPOSIDCRL t=…` → SPOIDCRL cookie.
    func idcrlEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.mode == .legacySPO, !options.legacyRefused else {
            return HTTPServerResponse(
                status: 401, contentType: "text/plain; charset=utf-8", text: "401 UNAUTHORIZED",
                headers: [
                    (
                        "X-MSDAVEXT_Error",
                        "917656; Access+denied.+Before+opening+files+in+this+location%2c+you+must+first+browse+to+the+web+site+and+select+the+option+to+login+automatically."
                    )
                ])
        }
        let header = request.header("Authorization") ?? ""
        guard header.hasPrefix("BPOSIDCRL ") else {
            return HTTPServerResponse(status: 401, contentType: "text/plain; charset=utf-8", text: "401 UNAUTHORIZED")
        }
        var token = String(header.dropFirst("BPOSIDCRL ".count))
        if token.hasPrefix("t=") { token = String(token.dropFirst(2)) }
        if let end = token.range(of: "&p=") { token = String(token[..<end.lowerBound]) }
        guard let user = state.withLock({ $0.legacyTokens[token] }) else {
            return HTTPServerResponse(status: 401, contentType: "text/plain; charset=utf-8", text: "401 UNAUTHORIZED")
        }
        let session = newSession(user: user)
        return HTTPServerResponse(
            status: 200, contentType: "text/plain; charset=utf-8", text: "",
            headers: [cookie("SPOIDCRL", session.value)])
    }

    // MARK: /_trust/ (ADFS, WS-Federation)

    func trustEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.mode == .adfs else { return html(404, page(title: "Not found", body: "<h1>404 NOT FOUND</h1>")) }
        if request.method == "POST" {
            let wresult = request.formValue("wresult") ?? ""
            let wctx = request.formValue("wctx") ?? ""
            var assertionId = ""
            if let range = wresult.range(of: "AssertionID=\"") {
                assertionId = String(wresult[range.upperBound...].prefix { $0 != "\"" })
            }
            guard request.formValue("wa") == "wsignin1.0",
                let user = state.withLock({ state -> Int? in
                    defer { state.assertions[assertionId] = nil }
                    return state.assertions[assertionId]
                })
            else {
                return html(
                    500,
                    page(
                        title: "Error",
                        body:
                            "<h1>Sorry, something went wrong</h1><p id=\"ms-error-body\">The trusted login provider did not supply a token accepted by this farm.</p>"
                    ))
            }
            return redirect(sourcePath(wctx), headers: sessionCookies(user: user))
        }
        let wctx = siteURL + returnURL(request)
        let location =
            identityProviderURL + "/adfs/ls/?wa=wsignin1.0&wtrealm=\(percentEncode(realm))&wctx=\(percentEncode(wctx))"
        return redirect(location)
    }

    // MARK: /_login/default.aspx (provider chooser)

    func providerChooser(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.mode == .fbaWindows else {
            return html(404, page(title: "Not found", body: "<h1>404 NOT FOUND</h1>"))
        }
        let returnURL = returnURL(request)
        if request.method == "POST",
            request.formValue("__EVENTTARGET") == "ctl00$PlaceHolderMain$ClaimsLogonSelector"
        {
            switch request.formValue("ctl00$PlaceHolderMain$ClaimsLogonSelector") {
            case "Windows":
                return redirect("/_windows/default.aspx?ReturnUrl=\(percentEncode(returnURL).lowercasedEscapes())")
            case "Forms":
                return redirect(
                    "/_forms/default.aspx?ReturnUrl=\(percentEncode(returnURL).lowercasedEscapes())&Source=\(request.queryValue("Source").map { percentEncode($0) } ?? "%2F")"
                )
            default: break
            }
        }
        let action = "/_login/default.aspx?" + request.rawQuery
        let body = """
            <form method="post" action="\(htmlEscape(action))" id="aspnetForm">
            <input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="" />
            <input type="hidden" name="__EVENTARGUMENT" id="__EVENTARGUMENT" value="" />
            <input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="/wEPDwUKMTQ2OTkzNDMyMWRk" />
            <script type="text/javascript">
            function __doPostBack(eventTarget, eventArgument) { var theForm = document.forms['aspnetForm']; theForm.__EVENTTARGET.value = eventTarget; theForm.__EVENTARGUMENT.value = eventArgument; theForm.submit(); }
            </script>
            <div id="ms-error"><h1>Sign In</h1><p>Select the credentials you want to use to log on to this SharePoint site:</p>
            <select name="ctl00$PlaceHolderMain$ClaimsLogonSelector" id="ctl00_PlaceHolderMain_ClaimsLogonSelector" onchange="javascript:setTimeout('__doPostBack(\\'ctl00$PlaceHolderMain$ClaimsLogonSelector\\',\\'\\')', 0)">
            <option selected="selected" value="">&lt;Select&gt;</option>
            <option value="Windows">Windows Authentication</option>
            <option value="Forms">Forms Authentication</option>
            </select></div>
            </form>
            """
        return html(200, page(title: "Sign In", body: body))
    }

    // MARK: FBA WebForms page

    static let fbaPrefix = "ctl00$PlaceHolderMain$signInControl$"

    func viewStateValidation(_ viewState: String) -> String {
        let hash = mix(options.seed ^ 0x5EED, "eventvalidation/" + viewState)
        return base64(
            Images.bigEndian(UInt32(hash >> 32)) + Images.bigEndian(UInt32(hash & 0xFFFF_FFFF)) + Array("spsim".utf8))
    }

    func fbaPage(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let prefix = SimulatorCore.fbaPrefix
        var errorText: String?
        var userName = ""
        if request.method == "POST" {
            let viewState = request.formValue("__VIEWSTATE")
            let validation = request.formValue("__EVENTVALIDATION")
            let known = viewState.map { value in state.withLock { $0.viewStates.contains(value) } } ?? false
            guard let viewState, let validation, known, validation == viewStateValidation(viewState) else {
                return html(
                    500,
                    page(
                        title: "Invalid postback or callback argument",
                        body:
                            "<h1>Server Error in '/' Application.</h1><h2><i>Invalid postback or callback argument.</i></h2><p>Event validation is enabled using &lt;pages enableEventValidation=\"true\"/&gt; in configuration. Validation of viewstate MAC failed or the __EVENTVALIDATION field is missing.</p>"
                    ))
            }
            userName = request.formValue(prefix + "UserName") ?? ""
            if request.formValue(prefix + "login") != nil {
                let password = request.formValue(prefix + "password") ?? ""
                if let user = checkPassword(login: userName, password: password) {
                    if users[user].mfa { return fbaSecondFactorPage(request, user: user) }
                    return redirect(returnURL(request), headers: sessionCookies(user: user))
                }
                errorText =
                    "The server could not sign you in. Make sure your user name and password are correct, and then try again."
            }
        }
        let viewState = "/wEPDwUKLTY2NjI1NDYyOQ9kFgJmD2QWAgIBD2QWAgID" + Tokens.random(bytes: 30)
        state.withLock { state in
            if state.viewStates.count > 100_000 { state.viewStates.removeAll() }
            state.viewStates.insert(viewState)
        }
        let action = "/_forms/default.aspx?" + request.rawQuery
        let errorHTML =
            errorText.map {
                "<span id=\"ctl00_PlaceHolderMain_signInControl_FailureText\" class=\"ms-error\">\(htmlEscape($0))</span>"
            } ?? ""
        let body = """
            <form method="post" action="\(htmlEscape(action))" id="aspnetForm">
            <div class="aspNetHidden">
            <input type="hidden" name="__LASTFOCUS" id="__LASTFOCUS" value="" />
            <input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="" />
            <input type="hidden" name="__EVENTARGUMENT" id="__EVENTARGUMENT" value="" />
            <input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="\(htmlEscape(viewState))" />
            </div>
            <script type="text/javascript">
            //<![CDATA[
            var theForm = document.forms['aspnetForm'];
            function __doPostBack(eventTarget, eventArgument) { if (!theForm.onsubmit || (theForm.onsubmit() != false)) { theForm.__EVENTTARGET.value = eventTarget; theForm.__EVENTARGUMENT.value = eventArgument; theForm.submit(); } }
            //]]>
            </script>
            <div class="aspNetHidden">
            <input type="hidden" name="__VIEWSTATEGENERATOR" id="__VIEWSTATEGENERATOR" value="39F7D9E5" />
            <input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="\(htmlEscape(viewStateValidation(viewState)))" />
            </div>
            <div id="s4-simple-card"><div id="s4-simple-card-content">
            <h1 class="ms-core-pageTitle">Sign In</h1>
            \(errorHTML)
            <table class="ms-input"><tr><td><label for="ctl00_PlaceHolderMain_signInControl_UserName">User name</label></td>
            <td><input name="\(prefix)UserName" type="text" value="\(htmlEscape(userName))" id="ctl00_PlaceHolderMain_signInControl_UserName" autocomplete="off" class="ms-inputuserfield" /></td></tr>
            <tr><td><label for="ctl00_PlaceHolderMain_signInControl_password">Password</label></td>
            <td><input name="\(prefix)password" type="password" id="ctl00_PlaceHolderMain_signInControl_password" autocomplete="off" class="ms-inputuserfield" /></td></tr>
            <tr><td colspan="2"><input id="ctl00_PlaceHolderMain_signInControl_RememberMe" type="checkbox" name="\(prefix)RememberMe" /><label for="ctl00_PlaceHolderMain_signInControl_RememberMe">Sign me in automatically</label></td></tr>
            <tr><td colspan="2"><input type="submit" name="\(prefix)login" value="Sign In" id="ctl00_PlaceHolderMain_signInControl_login" class="ms-buttonheightwidth" /></td></tr>
            </table></div></div>
            </form>
            """
        return html(200, page(title: "Sign In", body: body))
    }

    // MARK: authentication.asmx (FBA SOAP)

    func fbaSOAPLogin(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = String(decoding: request.body, as: UTF8.self)
        guard request.method == "POST" else {
            return html(
                200,
                page(
                    title: "Authentication Web Service",
                    body: "<p>The following operations are supported: Login, Mode.</p>"))
        }
        let username = xmlElementText(body, "username") ?? ""
        let password = xmlElementText(body, "password") ?? ""
        let soapType = "text/xml; charset=utf-8"
        if username.isEmpty {
            let fault =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Exception of type 'Microsoft.SharePoint.SoapServer.SoapServerException' was thrown.</faultstring><detail><errorstring xmlns=\"http://schemas.microsoft.com/sharepoint/soap/\">Value cannot be null.\r\nParameter name: username</errorstring></detail></soap:Fault></soap:Body></soap:Envelope>"
            return HTTPServerResponse(status: 500, contentType: soapType, text: fault)
        }
        var code = "NoError"
        var cookies: [(name: String, value: String)] = []
        if options.mode != .fba && options.mode != .fbaWindows {
            code = "NotInFormsAuthenticationMode"
        } else if let user = checkPassword(login: username, password: password) {
            cookies = sessionCookies(user: user)
        } else {
            code = "PasswordNotMatch"
        }
        let cookieName = code == "NoError" ? "<CookieName>FedAuth</CookieName>" : ""
        let text =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><LoginResponse xmlns=\"http://schemas.microsoft.com/sharepoint/soap/\"><LoginResult>\(cookieName)<ErrorCode>\(code)</ErrorCode><TimeoutSeconds>\(sessionLifetime)</TimeoutSeconds></LoginResult></LoginResponse></soap:Body></soap:Envelope>"
        return HTTPServerResponse(status: 200, contentType: soapType, text: text, headers: cookies)
    }

    // MARK: Pages and files by URL

    /// The request path as sent (still percent-encoded): SharePoint encodes it again for `Source=`.
    func rawPath(_ request: HTTPServerRequest) -> String {
        String(request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// 403 with the headers SharePoint sends to cookie clients without a (valid) FedAuth.
    func unauthenticatedHeaders(path: String) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            (
                "X-Forms_Based_Auth_Required",
                "\(siteURL)/_forms/default.aspx?ReturnUrl=/_layouts/15/error.aspx&Source=\(percentEncode(path).lowercasedEscapes())"
            ),
            ("X-Forms_Based_Auth_Return_Url", "\(siteURL)/_layouts/15/error.aspx"),
            (
                "X-MSDAVEXT_Error",
                "917656; Access+denied.+Before+opening+files+in+this+location%2c+you+must+first+browse+to+the+web+site+and+select+the+option+to+login+automatically."
            ),
        ]
        if isOnline {
            headers.append(
                (
                    "X-IDCRL_AUTH_PARAMS_V1",
                    "IDCRL Type=\"BPOSIDCRL\", EndPoint=\"/_vti_bin/idcrl.svc/\", RootDomain=\"sharepoint.com\", Policy=\"MBI\""
                ))
        }
        return headers
    }

    /// Mixed-mode web apps challenge instead of redirecting when told `X-FORMS_BASED_AUTH_ACCEPTED: f` (§5.5).
    func wantsWindowsChallenge(_ request: HTTPServerRequest) -> Bool {
        options.mode == .fbaWindows && request.header("X-FORMS_BASED_AUTH_ACCEPTED")?.lowercased() == "f"
    }

    func contentPage(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if !isAllowed(request), wantsWindowsChallenge(request) { return windowsChallenge() }
        if !isAllowed(request) {
            let accept = request.header("Accept") ?? ""
            if request.method == "GET", accept.contains("text/html") {
                return redirect(authenticateReturnURL(source: request.path))
            }
            return HTTPServerResponse(
                status: 403, contentType: "text/plain; charset=utf-8", text: "403 FORBIDDEN",
                headers: unauthenticatedHeaders(path: rawPath(request)) + standardHeaders())
        }
        let path = request.path
        if path == "/" || path.lowercased() == "/sitepages/home.aspx" {
            return html(200, homePage(user: authenticatedUser(request)))
        }
        if let file = state.withLock({ state in
            state.files.first { $0.serverRelativeUrl.lowercased() == path.lowercased() }
        }) {
            return fileBody(file, headers: [("Content-Type", mimeType(file.name))])
        }
        return html(404, page(title: "Not found", body: "<h1>404 NOT FOUND</h1>"))
    }

    func homePage(user: Int?) -> String {
        let who =
            user.map { "<p id=\"welcome\">Signed in as \(htmlEscape(users[$0].displayName))</p>" } ?? "<p>Anonymous</p>"
        let lists = state.withLock { state in state.lists.filter { !$0.hidden } }
        let links = lists.map { "<li><a href=\"\(htmlEscape($0.url))\">\(htmlEscape($0.title))</a></li>" }.joined()
        return page(
            title: "SPSim Team - Home",
            body:
                "<h1>SPSim Team</h1>\(who)<ul>\(links)</ul><img src=\"/Photos/sunset.png\" width=\"32\" height=\"24\" alt=\"Sunset\" />"
        )
    }

    func mimeType(_ name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() ?? "" {
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "txt": return "text/plain"
        case "csv": return "text/csv"
        default: return "application/octet-stream"
        }
    }

    /// A file's bytes, streamed in 64 KiB chunks.
    func fileBody(_ file: SPFile, headers: [(name: String, value: String)]) -> HTTPServerResponse {
        let content = file.content
        let length = content.length
        let offset = Counter()
        let allHeaders = headers + [("ETag", file.etag), ("Last-Modified", CivilTime(file.modified).http)]
        if length <= 65536 {
            return HTTPServerResponse(status: 200, headers: allHeaders, body: .bytes(content.slice(0, length)))
        }
        return HTTPServerResponse(
            status: 200, headers: allHeaders,
            body: .stream(length: length) {
                let start = offset.next() * 65536
                if start >= length { return .end }
                return .data(content.slice(start, 65536))
            })
    }
}

/// Text of the first element whose local name matches (prefix-agnostic), XML-unescaped.
func xmlElementText(_ xml: String, _ localName: String) -> String? {
    let pattern = "<(?:[A-Za-z0-9_]+:)?\(localName)(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[A-Za-z0-9_]+:)?\(localName)>"
    guard let regex = try? NSRegularExpression(pattern: pattern),
        let match = regex.firstMatch(in: xml, range: NSRange(xml.startIndex..., in: xml)),
        let range = Range(match.range(at: 1), in: xml)
    else { return nil }
    return xmlUnescape(String(xml[range]))
}

extension String {
    /// `%2F` → `%2f`, as SharePoint writes its ReturnUrl values.
    func lowercasedEscapes() -> String {
        var out = ""
        var pending = 0
        for character in self {
            if character == "%" {
                pending = 2
                out.append(character)
            } else if pending > 0 {
                out += character.lowercased()
                pending -= 1
            } else {
                out.append(character)
            }
        }
        return out
    }
}
