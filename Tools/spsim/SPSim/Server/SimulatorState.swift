import Foundation

/// A signed-in SharePoint session (FedAuth or SPOIDCRL value).
struct SPSession {
    var user: Int
    var expires: Int
}

/// An Entra sign-in in progress, keyed by its `sCtx`.
struct EntraFlow {
    var ctx: String
    var flowToken: String
    var canary: String
    var redirectURI: String
    var state: String
    var nonce: String
    var user: Int?
    var stage: String
    /// The second-factor exchange under way on this flow (BeginAuth to ProcessAuth).
    var secondFactor: SecondFactorExchange?
    /// The authorize request came from a user agent Entra offers FIDO to (``FidoOptions/capableUserAgents``).
    var fidoCapable = false
    /// The authorize request's `login_hint`: the sign-in page embeds `GetCredentialType`'s answer for it.
    var loginHint: String?
}

/// Mutable simulator state (guarded by `SimulatorCore.state`).
struct SimulatorState {
    var siteURL = ""
    var identityProviderURL = ""
    var federationURL = ""
    var lists: [SPList] = []
    var files: [SPFile] = []
    /// Folders made with `Folders/add` (server-relative URLs as created, below a list's root folder), and their time.
    var createdFolders: [(url: String, created: Int)] = []
    var sessions: [String: SPSession] = [:]
    var flows: [String: EntraFlow] = [:]
    /// OIDC code → (user, id_token)
    var codes: [String: (user: Int, idToken: String)] = [:]
    /// OIDC state → Source path
    var oidcStates: [String: String] = [:]
    /// ESTSAUTH / ESTSAUTHPERSISTENT cookie value → user and expiry (single sign-on at the IdP)
    var idpSessions: [String: (user: Int, expires: Int)] = [:]
    /// One-time-code pages (ADFS, SharePoint forms) waiting for their code: ticket → user and wrong codes so far
    var pendingCodes: [String: (user: Int, wrong: Int)] = [:]
    /// Password posts Entra accepted, per user e-mail (lower-cased): the sign-ins that needed a password.
    var passwordSignIns: [String: Int] = [:]
    /// Users whose one-time Temporary Access Pass was used (lower-cased e-mail).
    var usedAccessPasses: Set<String> = []
    /// Certificate tokens already used (each is good once), and the users whose last sign-in was by certificate.
    var usedCertificateTokens: Set<String> = []
    var certificateSignIns: Set<String> = []
    /// Registration interrupts skipped (`/SkipMfaRegistration`).
    var skippedRegistrations = 0
    /// The certauth endpoint set at run time (``Simulator/setCertificateAuthEndpoint(_:)``), over the options'.
    var certificateAuthEndpoint: CertificateAuthEndpoint?
    /// SAML assertion id → user
    var assertions: [String: Int] = [:]
    /// legacy compact token → user
    var legacyTokens: [String: Int] = [:]
    /// Outstanding NTLM server challenges
    var ntlmChallenges: [(challenge: [UInt8], issued: Int)] = []
    /// Verified NTLM Type 3 headers → (user, expiry), so one request can ask more than once
    var ntlmVerified: [String: SPSession] = [:]
    /// OAuth access token → session (SharePoint Online modes)
    var accessTokens: [String: SPSession] = [:]
    /// App registrations' certificates, device codes, refresh tokens, the signing key (EntraApps.swift)
    var entra = EntraState()
    /// FIDO2 credentials registered at run time, counters, challenges given out (Entra/EntraFidoModel.swift)
    var fido = FidoState()
    /// form digest → expiry
    var digests: [String: Int] = [:]
    /// FBA view state → expected event validation
    var viewStates: Set<String> = []
    var uploads: [String: [UInt8]] = [:]
    /// What `recycle()` moved to the recycle bin, oldest first.
    var recycleBin: [SPRecycled] = []
    /// Every add, update and delete of an item, file or folder (`GetChanges`, `Content/ChangeLog.swift`).
    var changes = ChangeLog()
    var log: [LoggedRequest] = []
    /// Requests still to be answered before every session ends (`Site/SessionExpiry.swift`); nil: none planned.
    var sessionsEndAfterRequests: Int?
    var apiRequests = 0
    /// The faults injected while running (``Simulator/injectFaults(_:)``), in place of the options' from then on.
    var injectedFaults: FaultSpec?
    var dropped = 0
    /// Answers that matched the drop fault's path so far, dropped or not.
    var dropMatches = 0
}

/// Which server a request reached.
enum SimulatedHost {
    /// 127.0.0.1: SharePoint.
    case site
    /// 127.0.0.2: Entra (or, in `adfs` mode, ADFS; the legacy STS).
    case identityProvider
    /// 127.0.0.3 (`entra` mode only): the ADFS of federated users' organisation.
    case federation
}
