import Foundation
import HTTPServer

/// ADFS: `/adfs/ls/` (passive WS-Federation, its sign-in page and the token post) and WS-Trust
/// `usernamemixed`; on the identity-provider host (`adfs`, `legacy-spo`) or the federated organisation's host
/// (`entra`).
extension SimulatorCore {

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
