import Foundation
import HTTPServer

/// SharePoint's forms sign-in page (`/_forms/default.aspx` in `fba` modes): a WebForms page with view
/// state and event validation.
extension SimulatorCore {
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
}
