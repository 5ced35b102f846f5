import HTML

/// Pages driven by a script configuration (Entra's `$Config`, Microsoft account's `ServerData`) with a `urlPost`:
/// what Entra's page ids and fields say the page is (the stay-signed-in question, a second factor, an error, or
/// a plain configured page). Entra's protocol, not a page's wording; the Entra strategy acts on the kinds.
struct EntraConfigPageRule: PageRule {
    /// `$Config` page ids of second-factor steps.
    static let secondFactorPageIDs: Set<String> = [
        "ConvergedTFA", "ConvergedProofUpRedirect", "ConvergedProofs", "ConvergedProofUp", "ConvergedChangePassword",
    ]

    func classify(_ evidence: PageEvidence) -> PageClassification? {
        guard let config = evidence.page.aadConfig, let urlPost = config.urlPost else { return nil }
        let pgid = config.pgid ?? "?"
        // The stay-signed-in question (`KmsiInterrupt`, and any page id naming KMSI).
        if pgid.lowercased().contains("kmsi") {
            return evidence.classified(
                .kmsi, form: nil, "$Config page id \(pgid): the stay-signed-in question, posts to urlPost",
                ["$Config pgid \(pgid)"])
        }
        if Self.secondFactorPageIDs.contains(pgid)
            || (!config.proofMethods.isEmpty && config.raw["urlBeginAuth"] != nil)
        {
            let methods = config.proofMethods.isEmpty ? "" : " (" + config.proofMethods.joined(separator: ", ") + ")"
            return evidence.classified(
                .secondFactor, form: nil, "$Config page id \(pgid) asks for a second factor\(methods)",
                ["$Config pgid \(pgid)", "$Config proofs"])
        }
        if let text = config.errorText, !text.trimmingASCIIWhitespace().isEmpty {
            let code = config.errorCode.map { ", code \($0)" } ?? ""
            return evidence.classified(
                .error, form: nil, "$Config (page id \(pgid)) carries an error text (sErrTxt\(code))",
                ["$Config sErrTxt"])
        }
        return evidence.classified(
            .aadConfig, form: nil, "script configuration with urlPost \(urlPost) (page id \(pgid))", ["urlPost"])
    }
}
