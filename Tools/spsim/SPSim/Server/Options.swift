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
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = try container.decode(String.self, forKey: .email)
        password = try container.decode(String.self, forKey: .password)
        displayName =
            try container.decodeIfPresent(String.self, forKey: .displayName)
            ?? String(email.split(separator: "@").first ?? "")
        mfa = try container.decodeIfPresent(Bool.self, forKey: .mfa) ?? false
        conditionalAccess = try container.decodeIfPresent(Bool.self, forKey: .conditionalAccess) ?? false
        passwordChange = try container.decodeIfPresent(Bool.self, forKey: .passwordChange) ?? false
        federated = try container.decodeIfPresent(Bool.self, forKey: .federated) ?? false
        secondFactor = try container.decodeIfPresent(SecondFactorProfile.self, forKey: .secondFactor) ?? .init()
    }

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

    /// Reads a JSON array of users (`email`, `password`, optional `displayName`, `mfa`, `ca`, `passwordChange`).
    public static func load(jsonFile path: String) throws -> [SimulatedUser] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode([SimulatedUser].self, from: data)
    }
}

/// Injected misbehaviour. Parse from `latency=200,status429=3,retryAfter=1,drop=/path,...`.
public struct FaultSpec: Sendable, Equatable {
    /// Extra delay before every answer, in milliseconds.
    public var latencyMilliseconds: Int = 0
    /// The first N `/_api` requests answer 429 with `Retry-After`.
    public var status429: Int = 0
    /// The first N `/_api` requests (after any 429s) answer 503 with `Retry-After`.
    public var status503: Int = 0
    /// The first N `/_api` requests (after 429s and 503s) answer 500.
    public var status500: Int = 0
    /// Seconds sent in `Retry-After`.
    public var retryAfterSeconds: Int = 1
    /// The injected 429s and 503s carry no `Retry-After` at all (the client must fall back to its own back-off).
    public var noRetryAfter: Bool = false
    /// Responses whose path contains this text are cut off mid-body (connection dropped).
    public var dropPath: String?
    /// How many responses to drop (nil = every matching one).
    public var dropTimes: Int?
    /// Responses whose path contains this text are sent slowly, 1 KiB per `dripDelayMilliseconds`.
    public var dripPath: String?
    public var dripDelayMilliseconds: Int = 50
    /// Server-side FedAuth lifetime in seconds (nil = 10 hours).
    public var cookieLifetimeSeconds: Int?
    /// Form digest lifetime in seconds (default 1800).
    public var digestLifetimeSeconds: Int = 1800
    /// `authenticate.aspx` and `/_forms/default.aspx` redirect to each other forever.
    public var redirectLoop: Bool = false

    public init() {}

    /// Errors in a fault specification.
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses `key=value` pairs separated by commas; `redirectLoop` and `noRetryAfter` are bare flags.
    public init(parsing spec: String) throws {
        self.init()
        for part in spec.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let key = pieces[0]
            let value = pieces.count > 1 ? pieces[1] : ""
            func number() throws -> Int {
                guard let parsed = Int(value), parsed >= 0 else {
                    throw ParseError(description: "fault '\(key)' needs a non-negative number, got '\(value)'")
                }
                return parsed
            }
            func flag() throws -> Bool {
                switch value.lowercased() {
                case "", "1", "true": return true
                case "0", "false": return false
                default: throw ParseError(description: "fault '\(key)' is a flag (true or false), got '\(value)'")
                }
            }
            switch key.lowercased() {
            case "latency": latencyMilliseconds = try number()
            case "status429", "429": status429 = try number()
            case "status503", "503": status503 = try number()
            case "status500", "500": status500 = try number()
            case "retryafter": retryAfterSeconds = try number()
            case "noretryafter": noRetryAfter = try flag()
            case "drop": dropPath = value.isEmpty ? "/" : value
            case "droptimes": dropTimes = try number()
            case "drip": dripPath = value.isEmpty ? "/" : value
            case "dripdelay": dripDelayMilliseconds = try number()
            case "cookielifetime": cookieLifetimeSeconds = try number()
            case "digestlifetime": digestLifetimeSeconds = try number()
            case "redirectloop": redirectLoop = value.isEmpty || value == "1" || value == "true"
            default: throw ParseError(description: "unknown fault '\(key)'")
            }
        }
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
    /// Lifetime of the access tokens the tenant issues (`expires_in`).
    public var tokenLifetimeSeconds: Int = 3599
    /// The `interval` and `expires_in` of device codes.
    public var deviceCodeIntervalSeconds: Int = 5
    public var deviceCodeLifetimeSeconds: Int = 900

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

/// One form field as logged.
public struct LoggedField: Sendable, Equatable {
    public let name: String
    public let value: String
}

/// One request either server received, for tests to assert on (where did the password go?).
public struct LoggedRequest: Sendable {
    public let method: String
    /// `127.0.0.1` (SharePoint), `127.0.0.2` (identity provider) or `127.0.0.3` (federated users' ADFS, `entra`
    /// mode only).
    public let host: String
    /// Decoded path.
    public let path: String
    /// Raw (encoded) query string.
    public let query: String
    public let headerNames: [String]
    /// Form fields (names and values) for `application/x-www-form-urlencoded` bodies.
    public let formFields: [LoggedField]
    /// Cookies the client sent.
    public let cookies: [String: String]
    /// Status the simulator answered.
    public let status: Int
}
