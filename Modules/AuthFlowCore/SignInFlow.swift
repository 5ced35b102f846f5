/// Which sign-in route to take; `auto` lets the pages decide. An open set (decision 0019): a flow is a static
/// member and its row in the flow registry, and `allCases` and `init(rawValue:)` read that registry, so `--flow`'s
/// values, its help and the docs follow a new row without another list.
public struct SignInFlow: Sendable, Hashable, RawRepresentable, CaseIterable, CustomStringConvertible {
    /// The flow's name, as `--flow` takes it.
    public let rawValue: String

    /// The registered flow named `rawValue`; nil for a name no row has.
    public init?(rawValue: String) {
        guard let flow = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = flow
    }

    /// A flow named `name` (for the static members; a flow is usable once its row is registered).
    init(named name: String) {
        rawValue = name
    }

    /// Every registered flow, in the registry's order.
    public static var allCases: [SignInFlow] { FlowRegistry.rows.map(\.flow) }

    /// The ``rawValue``.
    public var description: String { rawValue }

    /// The pages decide (the default).
    public static let auto = SignInFlow(named: "auto")
    /// Entra ID's sign-in pages (`$Config`).
    public static let entra = SignInFlow(named: "entra")
    /// An ADFS (or other SAML / WS-Federation) identity provider's pages.
    public static let adfs = SignInFlow(named: "adfs")
    /// SharePoint's own forms sign-in page.
    public static let fba = SignInFlow(named: "fba")
    /// Any identity provider's HTML forms.
    public static let forms = SignInFlow(named: "forms")
    /// Windows sign-in (NTLM) on the site itself.
    public static let ntlm = SignInFlow(named: "ntlm")
    /// HTTP Basic on every request.
    public static let basic = SignInFlow(named: "basic")
    /// Kerberos (SPNEGO, `Negotiate`) with the ticket in the user's credential cache, on the site itself.
    public static let kerberos = SignInFlow(named: "kerberos")
    /// A public site, no sign-in.
    public static let anonymous = SignInFlow(named: "anonymous")
    /// The retired IDCRL route (or another login service, named by the login URL).
    public static let legacySPO = SignInFlow(named: "legacy-spo")
    /// ADFS's WS-Trust endpoint instead of its HTML pages.
    public static let adfsWSTrust = SignInFlow(named: "adfs-ws-trust")
    /// SharePoint's `authentication.asmx` forms web service instead of the sign-in page.
    public static let fbaSOAP = SignInFlow(named: "fba-soap")
}
