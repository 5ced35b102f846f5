import Foundation

/// How the simulated SharePoint authenticates browsers and API clients.
public enum SignInMode: String, CaseIterable, Sendable {
    /// SharePoint Online with Entra ID: OIDC `form_post` after `$Config`-driven pages (the 2026 default).
    case entra
    /// SharePoint Server with ADFS as trusted identity provider (WS-Federation via `/_trust/`).
    case adfs
    /// SharePoint Server forms-based authentication (`/_forms/default.aspx`, `authentication.asmx`).
    case fba
    /// Forms and Windows on one web app: provider chooser `/_login/default.aspx` first.
    case fbaWindows = "fba+windows"
    /// HTTP Basic on every request, no cookies.
    case basic
    /// Everything readable without signing in.
    case anonymous
    /// SharePoint Online before May 2026: `GetUserRealm.srf`, `extSTS.srf`, `wsignin1.0` token POST.
    case legacySPO = "legacy-spo"
}

/// One account the identity providers know.
public struct SimulatedUser: Sendable, Equatable, Codable {
    /// Sign-in name (UPN), compared case-insensitively.
    public var email: String
    /// The password; empty for a passkey-only account (no password matches it: `HasPassword` false).
    public var password: String
    public var displayName: String
    /// Entra answers with a `ConvergedTFA` (MFA) page instead of KMSI.
    public var mfa: Bool
    /// Entra answers with a Conditional Access interrupt (`ConvergedProofUpRedirect`).
    public var conditionalAccess: Bool
    /// Entra answers with `ConvergedChangePassword`.
    public var passwordChange: Bool
    /// Entra: the user's domain is federated; `GetCredentialType` returns a `FederationRedirectUrl` to the
    /// simulated ADFS on the identity-provider host, which posts back to `/login.srf`.
    public var federated: Bool
    /// How the user's second factor behaves on the `ConvergedTFA` page (with `mfa`).
    public var secondFactor: SecondFactorProfile
    /// Entra: the user's Temporary Access Pass, if one was issued (`Entra/EntraAccessPass.swift`).
    public var accessPass: AccessPassProfile?
    /// Entra: the user may sign in with a certificate (`Entra/EntraCertificateAuth.swift`); nil: not in CBA's scope.
    public var certificateAuth: CertificateAuthProfile?
    /// Entra: the user's FIDO2 credentials (passkeys, security keys) provisioned up front (`Entra/EntraFido.swift`);
    /// those registered through Graph at run time come on top.
    public var fido: [FidoCredentialProfile] = []

    public init(
        email: String, password: String, displayName: String, mfa: Bool = false, conditionalAccess: Bool = false,
        passwordChange: Bool = false, federated: Bool = false, secondFactor: SecondFactorProfile = SecondFactorProfile()
    ) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.mfa = mfa
        self.conditionalAccess = conditionalAccess
        self.passwordChange = passwordChange
        self.federated = federated
        self.secondFactor = secondFactor
    }

    enum CodingKeys: String, CodingKey {
        case email, password, displayName, mfa, conditionalAccess = "ca", passwordChange, federated, secondFactor
        case accessPass, certificateAuth, fido
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = try container.decode(String.self, forKey: .email)
        password = try container.decodeIfPresent(String.self, forKey: .password) ?? ""
        displayName =
            try container.decodeIfPresent(String.self, forKey: .displayName)
            ?? String(email.split(separator: "@").first ?? "")
        mfa = try container.decodeIfPresent(Bool.self, forKey: .mfa) ?? false
        conditionalAccess = try container.decodeIfPresent(Bool.self, forKey: .conditionalAccess) ?? false
        passwordChange = try container.decodeIfPresent(Bool.self, forKey: .passwordChange) ?? false
        federated = try container.decodeIfPresent(Bool.self, forKey: .federated) ?? false
        secondFactor = try container.decodeIfPresent(SecondFactorProfile.self, forKey: .secondFactor) ?? .init()
        accessPass = try container.decodeIfPresent(AccessPassProfile.self, forKey: .accessPass)
        certificateAuth = try container.decodeIfPresent(CertificateAuthProfile.self, forKey: .certificateAuth)
        fido = try container.decodeIfPresent([FidoCredentialProfile].self, forKey: .fido) ?? []
    }

    /// Whether the account has a password at all (a passkey-only account has none).
    public var hasPassword: Bool { !password.isEmpty }

    /// Part before `@` (the FBA / Windows account name).
    public var accountName: String { String(email.split(separator: "@").first ?? Substring(email)) }
}

extension [SimulatedUser] {
    /// alice (signs in), bob.mfa (MFA), carol.ca (Conditional Access), dave.expired (password change).
    public static var defaults: [SimulatedUser] {
        [
            SimulatedUser(email: "alice@contoso.test", password: "Spring2026!", displayName: "Alice Example"),
            SimulatedUser(email: "bob.mfa@contoso.test", password: "Spring2026!", displayName: "Bob Mfa", mfa: true),
            SimulatedUser(
                email: "carol.ca@contoso.test", password: "Spring2026!", displayName: "Carol Conditional",
                conditionalAccess: true),
            SimulatedUser(
                email: "dave.expired@contoso.test", password: "Spring2026!", displayName: "Dave Expired",
                passwordChange: true),
        ]
    }

    /// Reads a JSON array of users (`email`, optional `password` (none: passkey-only), `displayName`, `mfa`, `ca`,
    /// `passwordChange`, `federated`, `secondFactor`, `accessPass`, `fido`).
    public static func load(jsonFile path: String) throws -> [SimulatedUser] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode([SimulatedUser].self, from: data)
    }
}

/// Everything a `Simulator` needs to start.
public struct SimulatorOptions: Sendable {
    public var mode: SignInMode
    /// SharePoint port on 127.0.0.1 (0 = any free port).
    public var port: UInt16 = 0
    /// Identity-provider port on 127.0.0.2 (0 = any free port).
    public var idpPort: UInt16 = 0
    /// Port of federated users' ADFS on 127.0.0.3, started in `entra` mode only (0 = any free port).
    public var federationPort: UInt16 = 0
    public var users: [SimulatedUser] = .defaults
    /// Rows in the generated list "Big" (generated lazily from the seed).
    public var items: Int = 0
    /// Files of the "Export" library (`/Export`, a folder tree of generated files; none when 0).
    public var exportFiles: Int = 0
    /// The size in MiB of a generated file `/Shared Documents/huge.bin` (``Simulator/hugeFileURL``; none when 0),
    /// for measuring transfers of files far larger than memory should hold (its bytes are made as they are sent).
    public var hugeFileMebibytes: Int = 0
    /// Names of the other site collections, each served at `/sites/NAME` with a small content of its own
    /// (Documents and Tasks) and found by the search API (`contentclass:STS_Site`); the root site is always there.
    public var siteCollections: [String] = []
    /// The most rows one Search page holds, whatever `rowlimit` asks (SharePoint Online: 500).
    public var searchRowLimit: Int = 500
    /// Delay before every answer (added to `faults.latencyMilliseconds`).
    public var latencyMilliseconds: Int = 0
    public var faults: FaultSpec = FaultSpec()
    /// Serve HTTPS with a self-signed certificate made by `/usr/bin/openssl`.
    public var tls: Bool = false
    /// Seed for all generated content (ids, GUIDs, rows).
    public var seed: UInt64 = 2026
    /// `legacy-spo` answers like SharePoint Online since May 2026: the IDCRL route is refused.
    public var legacyRefused: Bool = false
    /// Entra's second-factor timing and its single-sign-on cookies' lifetimes.
    public var entraSessions: EntraSessionOptions = EntraSessionOptions()
    /// The Entra tenant's app registrations (certificates can also be added at run time).
    public var apps: [SimulatedApp] = .defaults
    /// Answers to signed-in REST requests carry a load balancer's affinity cookie (`Set-Cookie: SPAffinity=…`), as
    /// front ends in a farm do: what a client of the gateway must never be handed.
    public var restAffinityCookie: Bool = false
    /// Lifetime of the access tokens the tenant issues (`expires_in`).
    public var tokenLifetimeSeconds: Int = 3599
    /// Entra ends every password sign-in in this state (a Conditional Access block or requirement, a registration
    /// interrupt), whatever the user; nil: each user's own profile decides.
    public var entraInterrupt: EntraInterrupt? = nil
    /// The `interval` and `expires_in` of device codes.
    public var deviceCodeIntervalSeconds: Int = 5
    /// The `error` of a device-code poll that Conditional Access blocks (a `conditionalAccess` user approved it):
    /// `invalid_grant` (a 2025 capture) or `interaction_required` (a 2023 one), both with `error_codes` [53003] and
    /// `suberror` `message_only` (../shared/docs/entra-passwordless.md §5, observed).
    public var deviceCodeBlockError = "invalid_grant"
    /// Entra's certauth endpoint for certificate-based authentication (``CertificateAuthEndpoint``): a host that
    /// checks client certificates in its TLS handshake, which spsim cannot (libmicrohttpd would need GnuTLS calls);
    /// nil: no certificate sign-in offered.
    public var certificateAuthEndpoint: CertificateAuthEndpoint? = nil
    /// SharePoint Online's throttling by resource units (``ResourceBudgetModel``); nil: no budgets.
    public var resourceBudgets: ResourceBudgetModel? = nil
    public var deviceCodeLifetimeSeconds: Int = 900
    /// Entra's FIDO2/passkey sign-in and Graph's `fido2Methods` (`Entra/EntraFido.swift`): which user agents get
    /// the FIDO keys, the checks that are inferred, the tenant's policy switches.
    public var fido: FidoOptions = FidoOptions()

    public init(
        mode: SignInMode, port: UInt16 = 0, idpPort: UInt16 = 0, users: [SimulatedUser] = .defaults, items: Int = 0,
        latencyMilliseconds: Int = 0, faults: FaultSpec = FaultSpec(), tls: Bool = false, seed: UInt64 = 2026,
        legacyRefused: Bool = false, federationPort: UInt16 = 0
    ) {
        self.mode = mode
        self.port = port
        self.idpPort = idpPort
        self.users = users
        self.items = items
        self.latencyMilliseconds = latencyMilliseconds
        self.faults = faults
        self.tls = tls
        self.seed = seed
        self.legacyRefused = legacyRefused
        self.federationPort = federationPort
    }
}
