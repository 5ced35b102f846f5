import Foundation
import HTTPServer

/// `/_login/default.aspx`: the provider chooser of a web app with forms and Windows sign-in.
extension SimulatorCore {
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
}
