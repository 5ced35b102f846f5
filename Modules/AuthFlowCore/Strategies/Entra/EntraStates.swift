/// Entra's Conditional Access and registration states, named: each documented `AADSTS` code with what Entra asks
/// for and a way forward (docs/auth-flows.md, "Entra's states"). The kinds keep the identity of the general kind
/// they refine (`conditionalAccess`, `mfa`): a front end that knows only those still reads them, and the message
/// says which one it is and what would pass.
enum EntraStates {
    /// The kind for `code`, or nil for a code that is not a Conditional Access or registration state.
    static func kind(forCode code: String) -> InteractionKind? {
        switch code {
        case "53000", "530001", "530002", "530003": compliantDevice
        case "53001", "530011": domainJoinedDevice
        case "53002", "530021", "53009": approvedApp
        case "53003", "530032", "530033", "530035", "53004", "53011": blocked
        case "50072", "50079", "50203", "502031": securityInfoRegistration
        case "500121": strongAuthenticationFailed
        case "50089": flowExpired
        case "50196": loopDetected
        default: nil
        }
    }

    /// What a certificate sign-in of an app would change: user Conditional Access does not apply to it.
    private static let appOnly = "app-only sign-in with a certificate (an app registration with Sites.* permissions)"

    /// 53000 and its 5300xx constants: a device the organisation manages.
    static let compliantDevice = InteractionKind(
        "conditionalAccess",
        explanation: "a compliant device (Conditional Access: a device the organisation manages, e.g. Intune-enrolled)",
        advice: ". Only a managed device passes this policy, so no headless sign-in from this machine will: sign in "
            + "with a browser on a compliant device, or use \(appOnly).")

    /// 53001: a domain-joined (hybrid-joined) device.
    static let domainJoinedDevice = InteractionKind(
        "conditionalAccess", explanation: "a domain-joined device (Conditional Access)",
        advice: ". Only a device joined to the organisation's domain passes this policy: sign in with a browser on "
            + "such a device, or use \(appOnly).")

    /// 53002: an approved client app.
    static let approvedApp = InteractionKind(
        "conditionalAccess", explanation: "an approved client app (Conditional Access)",
        advice: ". This client is not on the policy's list of approved apps; ask the tenant's administrator, or use "
            + "\(appOnly).")

    /// 53003 and the other blocks: the policy refuses this sign-in outright.
    static let blocked = InteractionKind(
        "conditionalAccess", explanation: "nothing: Conditional Access blocks this sign-in", stops: true,
        advice: ". No answer passes a block: only the tenant's administrator can change the policy (its name is in "
            + "the sign-in logs under the correlation id); \(appOnly) is not subject to user policies.")

    /// 500121 (often on `ConvergedError` right after a code): the second factor was refused.
    static let strongAuthenticationFailed = InteractionKind(
        "mfa", explanation: "a second factor Entra accepts (it refused the one given)",
        advice: ". A code can be used once: sign in again with a new one (an authenticator's next code, or a new "
            + "text). If an approval was denied ('Not me') and you did not start this sign-in, tell your administrator."
    )

    /// 50089: the sign-in's flow token expired between two pages.
    static let flowExpired = InteractionKind(
        "identityProviderError", explanation: "nothing: the sign-in took too long between two pages", stops: true,
        advice: ". Nothing was wrong with the credentials: sign in again from the start (a one-time code late by "
            + "minutes, or a job paused mid-sign-in, lets Entra's flow token expire).")

    /// 50196: Entra saw the same sign-in too often in a short time.
    static let loopDetected = InteractionKind(
        "identityProviderError", explanation: "nothing: Entra stopped a sign-in it saw repeated in a loop",
        stops: true,
        advice: ". Wait a few minutes before signing in again, and do not retry in a loop (a scheduler restarting a "
            + "failed sign-in at once keeps the block).")

    /// `/common/wrongplace`: Microsoft's anti-phishing page (since December 2025) where a browser lands after the
    /// native-client reply address.
    static let wrongPlace = InteractionKind(
        "identityProviderError", explanation: "nothing: Microsoft's anti-phishing page (/common/wrongplace)",
        stops: true,
        advice: ". The sign-in was led to the native-client reply address, which Microsoft no longer lets a browser "
            + "use interactively: sign in at the site itself (spconnect login --site), or use device code or an "
            + "app-only certificate for a native-client app.")

    /// Whether `url` is Entra's anti-phishing page: the path `/{tenant}/wrongplace` (Entra's endpoint, not a page's
    /// wording).
    static func isWrongPlace(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return segments.count >= 3 && segments.last?.lowercased() == "wrongplace"
    }

    /// 50072, 50079, 50203: the account must register security info (a second factor) first.
    static let securityInfoRegistration = InteractionKind(
        "mfa", explanation: "security info to be registered first (a second factor the account does not have yet)",
        advice: ". Finish the registration once in a browser at https://aka.ms/mysecurityinfo, then sign in again "
            + "(the engine answers the registered factor from then on).")
}
