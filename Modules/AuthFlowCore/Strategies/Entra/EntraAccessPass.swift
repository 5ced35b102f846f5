import JSON
public import TransportValues

/// Entra's Temporary Access Pass (TAP) on the converged sign-in page: when the page supports passes
/// (`$Config.fAccessPassSupported`), `GetCredentialType` is asked whether the account has one (`HasAccessPass`) and
/// prefers it (`PrefCredential` 13); the pass view then posts `accesspass` with `ps=56` to `urlPost`
/// (../shared/docs/entra-passwordless.md §3, observed). The pass stands for the password and the second factor.
enum EntraAccessPass {
    /// `PrefCredential` of an account that prefers its pass.
    static let preferredCredential = 13

    /// The pass to answer with after `GetCredentialType`'s `credentials`: the one the user gave
    /// (``SignInConfiguration/accessPass``) when the account has a pass; else, when the account prefers its pass,
    /// the password source's secret (a user without a password puts the pass there). Nil: the password post.
    static func pass(for credentials: JSONValue?, configuration: SignInConfiguration) -> Secret? {
        guard credentials?["HasAccessPass"]?.boolValue == true else { return nil }
        if let given = configuration.accessPass { return given }
        let preferred = credentials?["PrefCredential"]?.intValue == preferredCredential
        return preferred && !configuration.password.revealedValue().isEmpty ? configuration.password : nil
    }

    /// The pass view's form fields before the page's tokens: the set observed to work (no password post type).
    static func fields(username: String, pass: Secret) -> [(name: String, value: String)] {
        [("login", username), ("loginfmt", username), ("accesspass", pass.revealedValue()), ("ps", "56")]
    }

    /// The outcome of a refused pass (`sErrorCode` 130502–130505, the codes the page names), with what to do; nil
    /// for any other code.
    static func refusal(code: String, message: String) -> SignInOutcome? {
        let advice: String
        switch code {
        case "130503":
            advice = "the Temporary Access Pass is not valid: check it, or ask the administrator for a new one"
        case "130504": advice = "the Temporary Access Pass has expired: ask the administrator for a new one"
        case "130505":
            advice = "this one-time Temporary Access Pass was used already: ask the administrator for a new one"
        case "130502":
            advice =
                "the tenant's policy blocks this Temporary Access Pass (a multi-use pass where one-time passes are "
                + "required, or an account out of the policy's scope): ask the administrator for a one-time pass"
        default: return nil
        }
        let words = message.isEmpty ? "Entra refused the Temporary Access Pass" : message
        return .invalidCredentials(message: "\(words) (code \(code); \(advice))", code: code)
    }
}
