import TransportValues

/// Every sign-in flow in one table: what it is for, where it starts, and which page strategies read its pages.
/// The machine, `--flow`'s help and the docs read this table; a new flow is one row here (and its strategy or
/// route in its own file), not a case in several switches.
enum FlowRegistry {
    /// How a flow begins.
    enum Entry {
        /// A first request on the site (the strategies take over from its answer).
        case request(SignInRequest)
        /// The proof request itself, with this HTTP authentication (nil: anonymous).
        case proof(Authentication?)
        /// A scripted route that makes its own calls, from `first` (the site's sign-in entry) or, when nil, from its
        /// own first call.
        case route(any ScriptedRoute, first: SignInRequest?)
    }

    /// One flow: its help line, its entry, and its strategies in the order they are asked.
    struct Row: Sendable {
        let flow: SignInFlow
        let summary: String
        let strategies: [any SignInStrategy]
        let entry: @Sendable (SignInConfiguration) -> Entry
    }

    /// SharePoint's classic entry: `Authenticate.aspx`, which sends the browser to the site's sign-in.
    static func authenticate(_ configuration: SignInConfiguration) -> Entry {
        .request(authenticateRequest(configuration))
    }

    static func authenticateRequest(_ configuration: SignInConfiguration) -> SignInRequest {
        SignInRequest(
            url: URLResolution.join(configuration.siteURL, "/_layouts/15/Authenticate.aspx?Source=%2F"),
            purpose: .start)
    }

    static let pageStrategies: [any SignInStrategy] = [
        PasskeyStrategy(), EntraStrategy(), ProviderChooserStrategy(), FormsStrategy(),
    ]

    static let rows: [Row] = [
        Row(flow: .auto, summary: "the pages decide (default)", strategies: pageStrategies, entry: authenticate),
        Row(
            flow: .entra, summary: "Entra ID's sign-in pages ($Config)",
            strategies: [EntraStrategy(), FormsStrategy()], entry: authenticate),
        Row(
            flow: .adfs, summary: "an ADFS (or other SAML/WS-Fed) identity provider's pages",
            strategies: [ProviderChooserStrategy(), FormsStrategy()], entry: authenticate),
        Row(
            flow: .forms, summary: "any identity provider's HTML forms",
            strategies: [PasskeyStrategy(), ProviderChooserStrategy(), FormsStrategy()], entry: authenticate),
        Row(
            flow: .fba, summary: "SharePoint's own forms sign-in page",
            strategies: [ProviderChooserStrategy(), FormsStrategy()],
            entry: { configuration in
                .request(
                    SignInRequest(
                        url: URLResolution.join(
                            configuration.siteURL,
                            "/_forms/default.aspx?ReturnUrl=%2f_layouts%2f15%2fAuthenticate.aspx%3fSource%3d%252F"
                                + "&Source=%2F"),
                        purpose: .start))
            }),
        Row(
            flow: .ntlm, summary: "Windows sign-in (NTLM) on the site itself", strategies: pageStrategies,
            entry: { configuration in
                .request(
                    SignInRequest(
                        url: URLResolution.join(
                            configuration.siteURL,
                            "/_windows/default.aspx?ReturnUrl=%2f_layouts%2f15%2fAuthenticate.aspx%3fSource%3d%252F"
                                + "&Source=%2F"),
                        headers: [("X-FORMS_BASED_AUTH_ACCEPTED", "f")], purpose: .start, carriesCredentials: true,
                        authentication: .ntlm(user: configuration.username, password: configuration.password)))
            }),
        Row(
            flow: .basic, summary: "HTTP Basic on every request", strategies: pageStrategies,
            entry: { .proof(.basic(user: $0.username, password: $0.password)) }),
        Row(
            flow: .kerberos, summary: "Kerberos (Negotiate) with the ticket from kinit, no password",
            strategies: pageStrategies, entry: { _ in .proof(.negotiate) }),
        Row(
            flow: .anonymous, summary: "a public site, no sign-in", strategies: pageStrategies,
            entry: { _ in .proof(nil) }),
        Row(
            flow: .legacySPO, summary: "the retired IDCRL route (or another login service, named by the login URL)",
            strategies: pageStrategies, entry: { .route(LegacySPO(configuration: $0), first: nil) }),
        Row(
            flow: .fbaSOAP, summary: "SharePoint's authentication.asmx forms web service", strategies: pageStrategies,
            entry: { .route(FBAWebService(configuration: $0), first: nil) }),
        Row(
            flow: .adfsWSTrust, summary: "ADFS's WS-Trust endpoint instead of its pages", strategies: pageStrategies,
            entry: { .route(ADFSWSTrust(configuration: $0), first: authenticateRequest($0)) }),
    ]

    /// The row of `flow` (every flow has one; a missing row is a programming error caught by the tests).
    static func row(_ flow: SignInFlow) -> Row {
        rows.first { $0.flow == flow } ?? rows[0]
    }
}

extension SignInFlow {
    /// One line per flow for `--flow`'s help: `name: what it is for`.
    public static var helpLines: [String] {
        FlowRegistry.rows.map { "\($0.flow.rawValue): \($0.summary)" }
    }
}
