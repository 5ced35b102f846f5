import Foundation
import HTTPServer

/// ADFS's additional authentication after the password, for users with `mfa`: a one-time-code page shaped like an
/// ADFS MFA adapter's (a `Context` hidden field, `AuthMethod`, a code input), answered with the SMS code
/// (``SecondFactorProfile/phoneCode``) or the user's TOTP code; a wrong code shows the page again with its error, and
/// ``SecondFactorProfile/codeAttempts`` wrong codes end the sign-in.
enum ADFSSecondFactor {
    /// The `AuthMethod` the page posts back.
    static let authMethod = "SPSimOneTimeCodeAuthentication"
}

extension SimulatorCore {
    /// The code page, with `error` when the last code was wrong.
    func adfsSecondFactorPage(_ request: HTTPServerRequest, user: Int, error: String?) -> HTTPServerResponse {
        let context = Tokens.random(bytes: 32)
        state.withLock { $0.adfsSecondFactors[context] = (user, 0) }
        return adfsCodePage(request, context: context, error: error)
    }

    private func adfsCodePage(_ request: HTTPServerRequest, context: String, error: String?) -> HTTPServerResponse {
        let action = htmlEscape("/adfs/ls/?" + request.rawQuery)
        let invalid = error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"errorText\""
        let message =
            error.map { "<span id=\"errorText\" role=\"alert\" class=\"error\">\(htmlEscape($0))</span>" } ?? ""
        let body = """
            <!DOCTYPE html><html lang="en-US"><head><title>Sign In</title></head><body>
            <div id="loginArea"><form method="post" id="options" action="\(action)">
            <div class="groupMargin">For security reasons, we require additional information to verify your account.</div>
            <label for="verificationCode">Enter the verification code we sent to your phone</label>
            <input id="verificationCode" name="VerificationCode" type="text" inputmode="numeric" maxlength="6"
              autocomplete="one-time-code"\(invalid)>
            \(message)
            <input type="hidden" name="Context" value="\(context)">
            <input type="hidden" name="AuthMethod" value="\(ADFSSecondFactor.authMethod)">
            <input type="submit" id="submitButton" value="Sign in">
            </form></div></body></html>
            """
        return html(200, body)
    }

    /// The code posted back: right → the token's auto-post; wrong → the page again, until the attempts run out.
    func adfsSecondFactorAnswer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let context = request.formValue("Context") ?? ""
        guard let pending = state.withLock({ $0.adfsSecondFactors.removeValue(forKey: context) }) else {
            return html(
                400,
                "<html><body><h1>An error occurred</h1><p>MSIS7012: The authentication context expired.</p></body></html>"
            )
        }
        let profile = users[pending.user].secondFactor
        let code = request.formValue("VerificationCode") ?? ""
        if code == SecondFactorProfile.phoneCode || profile.acceptsAppCode(code) {
            return adfsTokenResponse(request, user: pending.user)
        }
        let wrong = pending.wrong + 1
        guard wrong < profile.codeAttempts else {
            return html(
                200,
                "<html><head><title>Sign In</title></head><body><h1>An error occurred</h1><p role=\"alert\">The verification "
                    + "was not completed: too many incorrect codes. Contact your administrator.</p></body></html>")
        }
        let next = Tokens.random(bytes: 32)
        state.withLock { $0.adfsSecondFactors[next] = (pending.user, wrong) }
        return adfsCodePage(request, context: next, error: "The verification code is incorrect. Try again.")
    }
}
