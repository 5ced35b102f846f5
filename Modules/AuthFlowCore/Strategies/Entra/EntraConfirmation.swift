import HTML

/// Entra's confirmation interrupt (`CmsiInterrupt`, AADSTS50199: "user confirmation is required" before a reply to
/// an app): a browser's user clicks Continue, which posts `ContinueAuth=true` with the page's tokens to
/// `/appverify` (../shared/docs/entra-passwordless.md §4.5, observed). It asks for no credential, so the engine
/// continues as the user would.
enum EntraConfirmation {
    /// The Continue post for a confirmation page, nil for any other page.
    static func continuation(
        on page: PageFacts, config: AADConfig, tokens: [(name: String, value: String)]
    ) -> SignInRequest? {
        guard (config.text("pgid") ?? "").lowercased().contains("cmsi") else { return nil }
        let target = URLResolution.resolve(config.text("urlPost") ?? "/appverify", against: page.url)
        return SignInRequest(
            method: "POST", url: target,
            form: [("ContinueAuth", "true"), ("iscsrfspeedbump", "false")] + tokens, purpose: .interrupt)
    }
}
