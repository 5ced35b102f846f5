import Foundation
import HTTPServer

/// One-time-code pages after the password, for users with `mfa`, on the identity providers that are forms: ADFS's
/// additional authentication (`/adfs/ls/`, shaped like an MFA adapter's page: `Context`, `AuthMethod`, a code input)
/// and SharePoint's own forms sign-in (`/_forms/verify.aspx` after `/_forms/default.aspx`). The code is the SMS code
/// (``SecondFactorProfile/phoneCode``) or the user's TOTP code; a wrong code shows the page again with its error, and
/// ``SecondFactorProfile/codeAttempts`` wrong codes end the sign-in on an error page.
enum FormsSecondFactor {
    /// The `AuthMethod` ADFS's page posts back.
    static let adfsAuthMethod = "SPSimOneTimeCodeAuthentication"
    /// Where SharePoint's forms code page posts.
    static let fbaVerifyPath = "/_forms/verify.aspx"
}

extension SimulatorCore {
    // MARK: ADFS

    /// ADFS's code page, with `error` when the last code was wrong.
    func adfsSecondFactorPage(_ request: HTTPServerRequest, user: Int, error: String?) -> HTTPServerResponse {
        let context = pendingCode(user: user, wrong: 0)
        return codePage(
            action: "/adfs/ls/?" + request.rawQuery,
            hidden: [("Context", context), ("AuthMethod", FormsSecondFactor.adfsAuthMethod)], error: error)
    }

    /// ADFS's code posted back: right → the token's auto-post; wrong → the page again, until the attempts run out.
    func adfsSecondFactorAnswer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        checkCode(request, ticketField: "Context") { user in
            adfsTokenResponse(request, user: user)
        } again: { context, error in
            codePage(
                action: "/adfs/ls/?" + request.rawQuery,
                hidden: [("Context", context), ("AuthMethod", FormsSecondFactor.adfsAuthMethod)], error: error)
        }
    }

    // MARK: SharePoint forms

    /// The forms sign-in's code page after the right password.
    func fbaSecondFactorPage(_ request: HTTPServerRequest, user: Int) -> HTTPServerResponse {
        let ticket = pendingCode(user: user, wrong: 0)
        return codePage(
            action: FormsSecondFactor.fbaVerifyPath + "?" + request.rawQuery, hidden: [("Ticket", ticket)], error: nil)
    }

    /// `POST /_forms/verify.aspx`: right → the FedAuth cookie and the way back; wrong → the page again.
    func fbaSecondFactorAnswer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        checkCode(request, ticketField: "Ticket") { user in
            redirect(returnURL(request), headers: sessionCookies(user: user))
        } again: { ticket, error in
            codePage(
                action: FormsSecondFactor.fbaVerifyPath + "?" + request.rawQuery, hidden: [("Ticket", ticket)],
                error: error)
        }
    }

    // MARK: Shared

    /// Remembers a code page waiting for `user`'s code; returns its ticket.
    private func pendingCode(user: Int, wrong: Int) -> String {
        let ticket = Tokens.random(bytes: 32)
        state.withLock { $0.pendingCodes[ticket] = (user, wrong) }
        return ticket
    }

    /// Checks the posted `VerificationCode` against the ticket in `ticketField`: `accepted` with the user, or
    /// `again` with a new ticket and the error to show, or an error page once the attempts ran out.
    private func checkCode(
        _ request: HTTPServerRequest, ticketField: String, accepted: (Int) -> HTTPServerResponse,
        again: (String, String) -> HTTPServerResponse
    ) -> HTTPServerResponse {
        let ticket = request.formValue(ticketField) ?? ""
        guard let pending = state.withLock({ $0.pendingCodes.removeValue(forKey: ticket) }) else {
            return html(
                400, "<html><body><h1>An error occurred</h1><p>The sign-in has expired. Start again.</p></body></html>")
        }
        let profile = users[pending.user].secondFactor
        let code = request.formValue("VerificationCode") ?? ""
        if code == SecondFactorProfile.phoneCode || profile.acceptsAppCode(code) { return accepted(pending.user) }
        let wrong = pending.wrong + 1
        guard wrong < profile.codeAttempts else {
            return html(
                200,
                "<html><head><title>Sign In</title></head><body><h1>An error occurred</h1><p role=\"alert\">The "
                    + "verification was not completed: too many incorrect codes. Contact your administrator.</p>"
                    + "</body></html>")
        }
        return again(pendingCode(user: pending.user, wrong: wrong), "The verification code is incorrect. Try again.")
    }

    /// The code page: a form posting to `action` with a `VerificationCode` input (one-time-code, numeric, 6 digits,
    /// labelled), `hidden` fields, and `error` shown (and the input marked invalid) when given.
    private func codePage(action: String, hidden: [(String, String)], error: String?) -> HTTPServerResponse {
        let invalid = error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"errorText\""
        let message =
            error.map { "<span id=\"errorText\" role=\"alert\" class=\"error\">\(htmlEscape($0))</span>" } ?? ""
        let fields = hidden.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(htmlEscape($0.1))\">" }
            .joined(separator: "\n")
        let body = """
            <!DOCTYPE html><html lang="en-US"><head><title>Sign In</title></head><body>
            <div id="loginArea"><form method="post" id="options" action="\(htmlEscape(action))">
            <div class="groupMargin">For security reasons, we require additional information to verify your account.</div>
            <label for="verificationCode">Enter the verification code we sent to your phone</label>
            <input id="verificationCode" name="VerificationCode" type="text" inputmode="numeric" maxlength="6"
              autocomplete="one-time-code"\(invalid)>
            \(message)
            \(fields)
            <input type="submit" id="submitButton" value="Sign in">
            </form></div></body></html>
            """
        return html(200, body)
    }
}
