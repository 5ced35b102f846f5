import HTML

/// Entra's skippable registration interrupt (`ConvergedProofUpRedirect`, AADSTS50072/50203 with
/// `urlSkipMfaRegistration` and `iRemainingDaysToSkipMfaRegistration`; ../shared/docs/entra-passwordless.md §4.3,
/// observed): put off only when the sign-in is asked to (``SignInConfiguration/skipsSecurityInfoRegistration``), by
/// posting `flowtoken`, `ctx` and `canary` to the skip address as libhimmelblau does; otherwise the sign-in stops
/// with a hint that it could.
enum EntraRegistrationSkip {
    /// The days the page still allows the registration to be put off, when it offers that.
    static func daysLeft(_ config: AADConfig) -> Int? {
        guard let address = config.text("urlSkipMfaRegistration"), !address.isEmpty,
            let days = config.number("iRemainingDaysToSkipMfaRegistration"), days >= 1
        else { return nil }
        return Int(days)
    }

    /// The post that puts the registration off, when the page offers it and the sign-in is asked to.
    static func request(on page: PageFacts, config: AADConfig, state: FlowState) -> SignInRequest? {
        guard state.configuration.skipsSecurityInfoRegistration, daysLeft(config) != nil,
            let address = config.text("urlSkipMfaRegistration")
        else { return nil }
        var fields: [(name: String, value: String)] = [("flowtoken", config.flowToken ?? "")]
        if let context = config.text("sCtx") { fields.append(("ctx", context)) }
        if let canary = config.text("canary") { fields.append(("canary", canary)) }
        return SignInRequest(
            method: "POST", url: URLResolution.resolve(address, against: page.url), form: fields, purpose: .interrupt)
    }
}
