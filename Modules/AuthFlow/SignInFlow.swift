/// Which sign-in route to take. `auto` lets the pages decide.
public enum SignInFlow: String, Sendable, CaseIterable {
    case auto, entra, adfs, fba, forms, ntlm, basic, anonymous
    case legacySPO = "legacy-spo"
    /// ADFS's WS-Trust endpoint instead of its HTML pages.
    case adfsWSTrust = "adfs-ws-trust"
    /// SharePoint's `authentication.asmx` forms web service instead of the sign-in page.
    case fbaSOAP = "fba-soap"
}
