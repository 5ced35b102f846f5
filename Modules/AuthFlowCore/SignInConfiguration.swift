import Foundation
public import TransportValues

/// Everything one sign-in needs. A plain value; the password is a `Secret`.
public struct SignInConfiguration: Sendable {
    /// The site URL, e.g. `https://contoso.sharepoint.com/sites/team` (a trailing slash is dropped).
    public var siteURL: String
    /// The user name as the identity provider takes it (`alice@contoso.com`, `CONTOSO\\alice`).
    public var username: String
    /// The password; it goes only where ``policy`` allows.
    public var password: Secret
    /// A Temporary Access Pass for an Entra account: answered where the page offers the pass view and the account
    /// has a pass (it goes only where ``policy`` allows, as the password does). Nil: none given.
    public var accessPass: Secret?
    /// The route to take; ``SignInFlow/auto`` lets the pages decide.
    public var flow: SignInFlow
    /// Where credentials may go and how many steps the sign-in may take.
    public var policy: SignInPolicy
    /// Answer "Stay signed in?" (KMSI) with yes.
    public var staySignedIn: Bool
    /// The cookies that mean "signed in"; empty picks the default: `FedAuth`, plus `rtFa` on SharePoint Online.
    public var targetCookies: [String]
    /// The login service of the legacy route (`--flow legacy-spo`); nil picks it from the site's cloud.
    public var loginURL: String?
    /// A renewal from the identity provider's own session: no credential is sent; the first page that asks for one
    /// ends the sign-in as ``InteractionKind/credentialsNeeded``.
    public var silent = false
    /// The second factor to answer with when the identity provider asks for one; nil takes the account's default.
    public var secondFactorMethod: SecondFactorMethod?
    /// What the sign-in is for: a SharePoint site (the default), or any web page (`siteURL` is then where the
    /// sign-in starts, kept as given).
    public var target: SignInTarget
    /// Whether the user has a Kerberos credential cache (`kinit`, or `kinit -kt KEYTAB` for a job): under `auto`, a
    /// `Negotiate` challenge is then answered with its ticket (SPNEGO, no password sent) before NTLM or Basic. The
    /// front end sets it (``KerberosCredentialCache``); the engine reads no files.
    public var hasKerberosTicket = false
    /// A software passkey to answer WebAuthn with, wherever a page asks for one of its relying party (and no
    /// password is typed where the passkey answers). Its raised counter comes back on the request that carries the
    /// assertion (``SignInRequest/passkeyUsed``) for the driver to save before sending. Nil: none given.
    public var passkey: PasskeyCredential?
    /// A user certificate for Entra's certificate-based authentication: presented in the TLS handshake of the
    /// certauth endpoint Entra's `GetCredentialType` names (`CertAuthParams.CertAuthUrl`), and nowhere else. Nil: none.
    public var userCertificate: ClientCertificate?
    /// Put off a security-info registration Entra asks for when its page still allows that
    /// (`urlSkipMfaRegistration`, `iRemainingDaysToSkipMfaRegistration`); false: stop there with a hint.
    public var skipsSecurityInfoRegistration = false

    /// A sign-in to `siteURL` as `username`; see each property for the others.
    public init(
        siteURL: String, username: String, password: Secret, flow: SignInFlow = .auto,
        policy: SignInPolicy = SignInPolicy(), staySignedIn: Bool = false, targetCookies: [String] = [],
        loginURL: String? = nil, target: SignInTarget = .sharePoint, secondFactorMethod: SecondFactorMethod? = nil
    ) {
        self.secondFactorMethod = secondFactorMethod
        var site = siteURL
        if target == .sharePoint { while site.hasSuffix("/") { site.removeLast() } }
        self.siteURL = site
        self.target = target
        self.username = username
        self.password = password
        self.flow = flow
        self.policy = policy
        self.staySignedIn = staySignedIn
        self.targetCookies = targetCookies
        self.loginURL = loginURL
    }

    /// A sign-in to any web page behind single sign-on: start at `url`, prove with `proofURL` (default `url`).
    /// `cookies` are the names or shell globs that mean signed in; empty means the cookies the target's host sets
    /// during the sign-in.
    public static func web(
        url: String, username: String, password: Secret, cookies: [String] = [], proofURL: String? = nil,
        policy: SignInPolicy = SignInPolicy(), staySignedIn: Bool = false
    ) -> SignInConfiguration {
        SignInConfiguration(
            siteURL: url, username: username, password: password, flow: .auto, policy: policy,
            staySignedIn: staySignedIn, targetCookies: cookies, target: .web(proofURL: proofURL ?? url))
    }

    /// The cookies (names or globs) the engine waits for before it tries the proof.
    public var expectedCookies: [String] {
        if !targetCookies.isEmpty { return targetCookies }
        if case .web = target { return [] }
        switch flow {
        case .basic, .anonymous: return []
        default:
            let host = URLParts(siteURL)?.host ?? ""
            return host.hasSuffix(".sharepoint.com") ? ["FedAuth", "rtFa"] : ["FedAuth"]
        }
    }
}
