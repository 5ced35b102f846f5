import Cryptography
import Foundation

/// One FIDO2 credential (a passkey or a security key) a user holds: what Entra keeps of it (the credential id, the
/// public key, the user handle, the signature counter) and the admin's state of it. `fido` in `--users` JSON, so a
/// test can provision a passkey without registering it; credentials registered through Graph at run time are kept
/// beside these (``Simulator/fidoCredentials(for:)``).
public struct FidoCredentialProfile: Sendable, Equatable, Codable {
    /// The credential id, base64url (padding optional).
    public var credentialId: String
    /// The public key as the uncompressed P-256 point (`04 ‖ x ‖ y`, 65 bytes), base64url; or nil with ``cose``.
    public var publicKey: String?
    /// The public key as a COSE_Key (EC2, ES256, P-256: labels 1, 3, -1, -2, -3), base64url; read when
    /// ``publicKey`` is nil.
    public var cose: String?
    /// The user handle the authenticator gives back, base64url; empty: not compared.
    public var userHandle: String
    /// The signature counter Entra stored last (raised by every accepted sign-in).
    public var signCount: UInt32
    /// The account prefers this credential: `GetCredentialType` answers `PrefCredential` 7 (the FIDO view).
    public var preferred: Bool
    /// An administrator disabled the device: a sign-in with it is refused with AADSTS135011.
    public var disabled: Bool
    /// The name Graph shows (`displayName` of the `fido2AuthenticationMethod`).
    public var displayName: String
    /// The authenticator's AAGUID (Graph's `aaGuid`).
    public var aaGuid: String

    /// A credential; `publicKey` (the point) or `cose` must hold its public key.
    public init(
        credentialId: String, publicKey: String? = nil, cose: String? = nil, userHandle: String = "",
        signCount: UInt32 = 0, preferred: Bool = false, disabled: Bool = false, displayName: String = "Passkey",
        aaGuid: String = "00000000-0000-0000-0000-000000000000"
    ) {
        self.credentialId = credentialId
        self.publicKey = publicKey
        self.cose = cose
        self.userHandle = userHandle
        self.signCount = signCount
        self.preferred = preferred
        self.disabled = disabled
        self.displayName = displayName
        self.aaGuid = aaGuid
    }

    enum CodingKeys: String, CodingKey {
        case credentialId, publicKey, cose, userHandle, signCount, preferred, disabled, displayName, aaGuid
    }

    /// Reads a credential; refuses one whose id is not base64url or whose key is neither a P-256 point nor a COSE
    /// EC2 key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            credentialId: try container.decode(String.self, forKey: .credentialId),
            publicKey: try container.decodeIfPresent(String.self, forKey: .publicKey),
            cose: try container.decodeIfPresent(String.self, forKey: .cose),
            userHandle: try container.decodeIfPresent(String.self, forKey: .userHandle) ?? "",
            signCount: try container.decodeIfPresent(UInt32.self, forKey: .signCount) ?? 0,
            preferred: try container.decodeIfPresent(Bool.self, forKey: .preferred) ?? false,
            disabled: try container.decodeIfPresent(Bool.self, forKey: .disabled) ?? false,
            displayName: try container.decodeIfPresent(String.self, forKey: .displayName) ?? "Passkey",
            aaGuid: try container.decodeIfPresent(String.self, forKey: .aaGuid)
                ?? "00000000-0000-0000-0000-000000000000")
        guard let id = Base64URL.decode(credentialId), !id.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .credentialId, in: container, debugDescription: "credentialId is not base64url")
        }
        guard point != nil else {
            throw DecodingError.dataCorruptedError(
                forKey: .publicKey, in: container,
                debugDescription: "publicKey (an uncompressed P-256 point) or cose (an EC2 COSE key) is needed")
        }
    }

    /// The credential id's bytes.
    var idBytes: [UInt8] { Base64URL.decode(credentialId) ?? [] }

    /// The credential id as Entra's allow lists carry it: standard base64 with padding.
    var standardBase64Id: String { base64(idBytes) }

    /// The public key's uncompressed point, from ``publicKey`` or ``cose``.
    var point: [UInt8]? {
        if let publicKey {
            guard let bytes = Base64URL.decode(publicKey), bytes.count == 65, bytes[0] == 4 else { return nil }
            return bytes
        }
        guard let cose, let bytes = Base64URL.decode(cose), let key = CBORReader.whole(bytes) else { return nil }
        return Self.ec2Point(key)
    }

    /// The uncompressed point of a COSE EC2 key for ES256 on P-256 (kty 2, alg -7, crv 1, x and y of 32 bytes each);
    /// nil for any other key.
    static func ec2Point(_ key: CBORItem) -> [UInt8]? {
        guard key[1]?.integerValue == 2, key[3]?.integerValue == -7, key[-1]?.integerValue == 1,
            let x = key[-2]?.bytesValue, let y = key[-3]?.bytesValue, x.count == 32, y.count == 32
        else { return nil }
        return [4] + x + y
    }
}

/// How the simulated Entra treats FIDO2 credentials: the facts `../shared/docs/entra-passwordless.md` marks as
/// inferred are switches here (docs/simulator.md, "FIDO2 and passkeys"), and so is the tenant's policy.
public struct FidoOptions: Sendable, Equatable {
    /// The `User-Agent` fragments of browsers Entra offers FIDO to (observed: a Chromium UA got the keys, Firefox
    /// on Linux did not in 2024, a Firefox 131 UA does now).
    public static let browserUserAgents = ["Chrome/", "Chromium/", "Edg/", "Firefox/"]

    /// A `User-Agent` containing one of these (case-insensitive) gets the FIDO keys of the sign-in pages
    /// (`fIsFidoSupported`, `urlFidoLogin`, …) and `FidoKey` on `ConvergedTFA`: browsers' agents only, as Entra
    /// (spconnect presents a Chromium agent when it signs in with a passkey). Empty: no agent is FIDO-capable.
    public var capableUserAgents: [String] = browserUserAgents
    /// The relying party id (nil: the identity provider's host without its port, e.g. `127.0.0.2`; Entra's is
    /// `login.microsoft.com`, where its `fido/get` page is served).
    public var relyingPartyID: String?
    /// The origins an assertion's `clientDataJSON.origin` may name (nil: the identity provider's origin as served,
    /// `http(s)://127.0.0.2:PORT`, which serves `fido/get` here).
    public var signInOrigins: [String]?
    /// The origins a Graph registration's `clientDataJSON.origin` may name (nil: `https://` + the relying party
    /// id; a Graph registration has no page, so the client names the relying party's own origin).
    public var registrationOrigins: [String]?
    /// An assertion without the UV flag is refused (inferred: Graph asks for `userVerification: required`, and no
    /// capture shows what Entra does with UV=0).
    public var requireUserVerification = true
    /// The tenant's authentication methods policy blocks FIDO2 sign-in: an assertion is refused with AADSTS135016
    /// (FidoBlockedByPolicy). Offering FIDO stays as it was (inferred).
    public var blockedByPolicy = false
    /// "Enforce attestation" in the FIDO2 policy: Graph refuses a registration with `none` attestation (and a
    /// `packed` self attestation, which proves no make).
    public var enforceAttestation = false
    /// How long a sign-in challenge (`sFidoChallenge`) stays valid, in seconds (inferred; Graph's registration
    /// challenges live 5 minutes by default).
    public var challengeLifetimeSeconds = 300
    /// The `sFidoChallenge` of the sign-in page itself (given with `login_hint`) may be signed, not only the one
    /// `fido/get` answers with (observed: passkey tools sign the page's challenge and post after `fido/get`).
    public var acceptsPageChallenge = true
    /// The assertion post must carry `lmcCanary` = the `sCrossDomainCanary` of a `fido/get` answer of the same
    /// sign-in (inferred: every tool sends it).
    public var requireCrossDomainCanary = true
    /// The AADSTS code of the generic "trouble signing in" page that refuses an assertion that does not verify (a
    /// bad signature, a stale or foreign challenge, a wrong origin, a replayed counter, UV=0); nil: no code, as the
    /// only capture of that page shows none.
    public var refusalCode: String?

    /// The defaults above.
    public init() {}

    /// Errors in a `--fido` specification.
    public typealias ParseError = SpecError

    /// Parses `--fido`'s comma-separated switches: `blocked`, `enforceAttestation`, `uvOptional`,
    /// `userAgents=A|B` (`userAgents=` for none), `rpId=HOST`, `origin=URL` (repeatable), `registrationOrigin=URL`,
    /// `challengeLifetime=S`, `noPageChallenge`, `noCrossDomainCanary`, `refusalCode=N`.
    public init(parsing spec: String) throws {
        self.init()
        for (key, value) in SpecPairs.parse(spec) {
            func flag() throws -> Bool {
                switch value.lowercased() {
                case "", "1", "true": return true
                case "0", "false": return false
                default: throw ParseError(description: "fido switch '\(key)' is a flag (true or false), got '\(value)'")
                }
            }
            switch key.lowercased() {
            case "blocked": blockedByPolicy = try flag()
            case "enforceattestation": enforceAttestation = try flag()
            case "uvoptional": requireUserVerification = !(try flag())
            case "useragents": capableUserAgents = value.split(separator: "|").map(String.init)
            case "rpid": relyingPartyID = value
            case "origin": signInOrigins = (signInOrigins ?? []) + [value]
            case "registrationorigin": registrationOrigins = (registrationOrigins ?? []) + [value]
            case "challengelifetime":
                guard let seconds = Int(value), seconds > 0 else {
                    throw ParseError(description: "fido 'challengeLifetime' needs seconds, got '\(value)'")
                }
                challengeLifetimeSeconds = seconds
            case "nopagechallenge": acceptsPageChallenge = !(try flag())
            case "nocrossdomaincanary": requireCrossDomainCanary = !(try flag())
            case "refusalcode": refusalCode = value.isEmpty ? nil : value
            default: throw ParseError(description: "unknown fido switch '\(key)'")
            }
        }
    }
}

/// A sign-in challenge given out: on a sign-in page (`sFidoChallenge` with `login_hint`) or by `fido/get`, bound to
/// the flow (`sCtx`) that asked for it; spent by the first assertion that names it.
struct IssuedFidoChallenge {
    var ctx: String
    /// The `sCrossDomainCanary` of the `fido/get` answer that gave it; nil for a page's challenge.
    var crossDomainCanary: String?
    /// Given for `flow=mfa` (the second factor on `ConvergedTFA`).
    var secondFactor: Bool
    var expires: Int
}

/// The FIDO state of the simulated tenant (inside ``SimulatorState``).
struct FidoState {
    /// Credentials registered through Graph, by user index.
    var registered: [Int: [FidoCredentialProfile]] = [:]
    /// Signature counters stored since the start, by credential id (base64url of its bytes).
    var signCounts: [String: UInt32] = [:]
    /// Unspent sign-in challenges, by their text.
    var challenges: [String: IssuedFidoChallenge] = [:]
    /// The `sCrossDomainCanary`s `fido/get` gave each flow (by `sCtx`).
    var answeredCanaries: [String: Set<String>] = [:]
    /// Unspent Graph registration challenges (base64url), with their user and expiry.
    var creationChallenges: [String: (user: Int, expires: Int)] = [:]
    /// Accepted FIDO sign-ins (first or second factor), by lower-cased e-mail.
    var signIns: [String: Int] = [:]
    /// What Graph keeps of its registrations, by credential id (base64url).
    var methods: [String: GraphFidoMethod] = [:]
    /// Credentials deleted through Graph (provisioned ones too), by credential id (base64url).
    var removed: Set<String> = []
}

extension Simulator {
    /// The FIDO credentials of the user with `email`: those of the users JSON and those registered through Graph,
    /// each with the signature counter stored now.
    public func fidoCredentials(for email: String) -> [FidoCredentialProfile] {
        guard let index = core.userIndex(login: email) else { return [] }
        return core.fidoCredentials(of: index)
    }

    /// How many FIDO sign-ins (first or second factor) Entra accepted for `email`.
    public func fidoSignIns(for email: String) -> Int {
        core.state.withLock { $0.fido.signIns[email.lowercased()] ?? 0 }
    }
}

extension SimulatorCore {
    /// The user's credentials, provisioned and registered, with their stored counters.
    func fidoCredentials(of user: Int) -> [FidoCredentialProfile] {
        let (registered, counts, removed) = state.withLock {
            ($0.fido.registered[user] ?? [], $0.fido.signCounts, $0.fido.removed)
        }
        return (users[user].fido + registered).filter { !removed.contains(base64URL($0.idBytes)) }.map { credential in
            var current = credential
            if let count = counts[base64URL(credential.idBytes)] { current.signCount = count }
            return current
        }
    }

    /// The credential with id `id`, and its user.
    func fidoCredential(id: [UInt8]) -> (user: Int, credential: FidoCredentialProfile)? {
        for user in users.indices {
            if let credential = fidoCredentials(of: user).first(where: { $0.idBytes == id }) {
                return (user, credential)
            }
        }
        return nil
    }

    /// Whether the request's `User-Agent` is one Entra offers FIDO to (``FidoOptions/capableUserAgents``).
    func isFidoCapable(_ userAgent: String?) -> Bool {
        let agent = userAgent ?? ""
        return options.fido.capableUserAgents.contains {
            !$0.isEmpty && agent.range(of: $0, options: .caseInsensitive) != nil
        }
    }

    /// The relying party id: the option, else the identity provider's host without its port.
    var fidoRelyingPartyID: String {
        if let configured = options.fido.relyingPartyID { return configured }
        let url = identityProviderURL
        let authority = url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        return String(authority.split(separator: ":").first ?? "").lowercased()
    }

    /// The user handle Entra gives an account (observed): `ON:` ‖ the tenant id's bytes (.NET order) ‖ SHA-256 of
    /// the user's object id's bytes.
    func entraUserHandle(_ user: Int) -> [UInt8] {
        Array("ON:".utf8) + Self.dotNetGUIDBytes(tenantId)
            + MessageDigest.hash(.sha256, Self.dotNetGUIDBytes(userObjectId(user)))
    }

    /// The user's object id (the `oid` of the id_token SharePoint receives).
    func userObjectId(_ user: Int) -> String { stableGUID(options.seed, "oid/" + users[user].email) }

    /// A GUID's 16 bytes as .NET's `Guid.ToByteArray` gives them (the first three groups little-endian).
    static func dotNetGUIDBytes(_ guid: String) -> [UInt8] {
        let hex = Array(guid.replacingOccurrences(of: "-", with: "").utf8)
        guard hex.count == 32 else { return [] }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            bytes.append(UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) ?? 0)
        }
        return Array(bytes[0..<4].reversed()) + Array(bytes[4..<6].reversed()) + Array(bytes[6..<8].reversed())
            + Array(bytes[8...])
    }

    /// A new sign-in challenge for the flow `ctx`: text whose ASCII bytes the authenticator signs.
    func issueFidoChallenge(ctx: String, crossDomainCanary: String?, secondFactor: Bool) -> String {
        let challenge = Tokens.random(bytes: 32)
        let issued = IssuedFidoChallenge(
            ctx: ctx, crossDomainCanary: crossDomainCanary, secondFactor: secondFactor,
            expires: nowEpoch() + options.fido.challengeLifetimeSeconds)
        state.withLock { state in
            state.fido.challenges[challenge] = issued
            if let crossDomainCanary { state.fido.answeredCanaries[ctx, default: []].insert(crossDomainCanary) }
        }
        return challenge
    }
}
