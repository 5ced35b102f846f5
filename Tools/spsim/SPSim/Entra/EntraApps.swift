import Cryptography
import Foundation

/// An app registration in the simulated Entra tenant: its client id, credentials (certificates by thumbprint, a
/// secret), the application permissions an admin consented to (`roles`), and whether public-client flows (device
/// code) are allowed.
public struct SimulatedApp: Sendable, Equatable {
    public var appId: String
    public var displayName: String
    /// PEM certificates registered under Certificates & secrets (more can be added with
    /// ``Simulator/registerCertificate(_:appId:)``).
    public var certificatePEMs: [String]
    /// A client secret, when one is registered.
    public var secret: String?
    /// Application permissions on SharePoint, e.g. `Sites.FullControl.All`, `Sites.Read.All`, `Sites.Selected`.
    public var roles: [String]
    /// "Allow public client flows": device code works only when set.
    public var publicClient: Bool

    public init(
        appId: String, displayName: String, certificatePEMs: [String] = [], secret: String? = nil,
        roles: [String] = [], publicClient: Bool = false
    ) {
        self.appId = appId
        self.displayName = displayName
        self.certificatePEMs = certificatePEMs
        self.secret = secret
        self.roles = roles
        self.publicClient = publicClient
    }

    /// A confidential app with full control on every site (certificates are registered by the tests).
    public static let fullControlId = "11111111-1111-4111-8111-111111111111"
    /// The same permission, but only a client secret (`spsim-secret-0123456789`): its tokens SharePoint refuses.
    public static let secretOnlyId = "22222222-2222-4222-8222-222222222222"
    public static let secretOnlyValue = "spsim-secret-0123456789"
    /// A confidential app without any SharePoint permission (its reads get 403).
    public static let noRolesId = "33333333-3333-4333-8333-333333333333"
    /// A public client (device code allowed).
    public static let publicClientId = "44444444-4444-4444-8444-444444444444"
    /// Read-only: `Sites.Read.All` (reads work, writes get 403).
    public static let readOnlyId = "55555555-5555-4555-8555-555555555555"
    /// `Sites.Selected`: no site until one is granted (``Simulator/grantSite(_:toApp:)``).
    public static let sitesSelectedId = "66666666-6666-4666-8666-666666666666"
    /// Graph's `UserAuthMethod-Passkey.ReadWrite.All`: registers passkeys for users (`fido2Methods`), with a
    /// certificate or the secret ``passkeyProvisioningSecret`` (Graph takes secret-based tokens).
    public static let passkeyProvisioningId = "77777777-7777-4777-8777-777777777777"
    /// The passkey provisioning app's client secret.
    public static let passkeyProvisioningSecret = "spsim-passkey-secret-0123456789"
}

extension [SimulatedApp] {
    /// The registrations of the simulated tenant (see the ids on ``SimulatedApp``).
    public static var defaults: [SimulatedApp] {
        [
            SimulatedApp(
                appId: SimulatedApp.fullControlId, displayName: "spconnect app-only", roles: ["Sites.FullControl.All"]),
            SimulatedApp(
                appId: SimulatedApp.secretOnlyId, displayName: "secret-only app", secret: SimulatedApp.secretOnlyValue,
                roles: ["Sites.FullControl.All"]),
            SimulatedApp(appId: SimulatedApp.noRolesId, displayName: "app without permissions"),
            SimulatedApp(
                appId: SimulatedApp.publicClientId, displayName: "spconnect device code", publicClient: true),
            SimulatedApp(appId: SimulatedApp.readOnlyId, displayName: "read-only app", roles: ["Sites.Read.All"]),
            SimulatedApp(
                appId: SimulatedApp.sitesSelectedId, displayName: "selected sites app", roles: ["Sites.Selected"]),
            SimulatedApp(
                appId: SimulatedApp.passkeyProvisioningId, displayName: "passkey provisioning app",
                secret: SimulatedApp.passkeyProvisioningSecret, roles: ["UserAuthMethod-Passkey.ReadWrite.All"]),
        ]
    }
}

/// What the test hook makes the next device code sign-in do (``Simulator/setDeviceCodeScript(_:)``).
public enum DeviceCodeScript: Sendable, Equatable {
    /// Pending until approved or declined through `POST {idp}/_spsim/devicecode` (or until it expires).
    case manual
    /// One `authorization_pending`, then approved by the user with this e-mail.
    case approve(String)
    /// One `authorization_pending`, then `authorization_declined`.
    case decline
    /// One `authorization_pending`, then `expired_token`.
    case expire
    /// `slow_down` first, then approved by the user with this e-mail.
    case slowDown(String)
}

/// An issued device code and what has happened to it.
struct DeviceGrant {
    var appId: String
    var scope: String
    var userCode: String
    var expires: Int
    var polls = 0
    /// The user who approved it, or nil while pending.
    var approvedBy: Int?
    var declined = false
    var script: DeviceCodeScript
}

/// The simulated tenant's token state (inside ``SimulatorState``).
struct EntraState {
    /// App id → certificates added at run time.
    var certificates: [String: [String]] = [:]
    var deviceScript: DeviceCodeScript = .manual
    var deviceGrants: [String: DeviceGrant] = [:]
    /// Refresh token → (user, app, scope); rotated on every use.
    var refreshTokens: [String: (user: Int, appId: String, scope: String)] = [:]
    /// `jti`s of client assertions already redeemed (a replay is refused).
    var usedAssertionIds: Set<String> = []
    /// Client assertions received, newest last (for conformance checks of what a client signed).
    var assertions: [String] = []
    /// Access-token ids issued, and those revoked by ``Simulator/expireSessions()``.
    var issuedTokenIds: Set<String> = []
    var revokedTokenIds: Set<String> = []
    /// The tenant's token-signing key (PKCS#8 PEM), made when first needed.
    var signingKeyPEM: [UInt8]?
    /// Test hook: access tokens are issued for this audience instead of the requested resource.
    var audienceOverride: String?
    /// Test hook: later access tokens live this many seconds instead of the options' lifetime.
    var tokenLifetimeOverride: Int?
    /// `Sites.Selected` grants on this site: app id → role (`read`, `write`, `manage`, `fullcontrol`).
    var siteGrants: [String: String] = [:]
}

extension SimulatorCore {
    /// The app registered under `appId`, with its run-time certificates.
    func app(_ appId: String) -> SimulatedApp? {
        guard var app = options.apps.first(where: { $0.appId.lowercased() == appId.lowercased() }) else { return nil }
        app.certificatePEMs += state.withLock { $0.entra.certificates[app.appId] ?? [] }
        return app
    }

    /// The tenant's signing key, made on first use (a 2048-bit RSA key takes a fraction of a second).
    func signingKey() throws -> PrivateKey {
        if let pem = state.withLock({ $0.entra.signingKeyPEM }) { return try PrivateKey(pem: pem) }
        let pem = try PrivateKey(generatingRSA: 2048).pkcs8PEM()
        let kept = state.withLock { state -> [UInt8] in
            if let existing = state.entra.signingKeyPEM { return existing }
            state.entra.signingKeyPEM = pem
            return pem
        }
        return try PrivateKey(pem: kept)
    }

    /// The key id published in the JWKS and carried as `kid`: base64url of the first 16 bytes of SHA-256(n).
    func keyId(_ key: PublicKey) throws -> String {
        base64URL(Array(MessageDigest.hash(.sha256, try key.rsaComponents().modulus).prefix(16)))
    }
}
