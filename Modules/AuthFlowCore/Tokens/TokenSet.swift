public import Cryptography
public import Foundation
import JSON
public import TransportValues

/// The bearer-token half of a ``Session``: what Entra issued for SharePoint, and how to ask again.
///
/// A plain value. The access and refresh tokens are ``Secret``s; `description` shows neither.
public struct TokenSet: Sendable, Equatable, CustomStringConvertible {
    /// How the tokens were obtained.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Client credentials with a certificate: the app itself, no user (`roles`).
        case appOnly = "app-only"
        /// The device authorization grant: a user signed in elsewhere (`scp`); renewed with the refresh token.
        case deviceCode = "device-code"
    }

    /// App-only or device code.
    public var kind: Kind
    /// The app registration's client id.
    public var appId: String
    /// The tenant (GUID or domain) the tokens were asked of.
    public var tenant: String
    /// The Entra host (`https://login.microsoftonline.com`, another cloud's, or a simulator's).
    public var authority: String
    /// The scope asked for (`https://contoso.sharepoint.com/.default`).
    public var scope: String
    /// What `Authorization: Bearer` carries.
    public var accessToken: Secret
    /// When the access token was issued to us and when it expires (from `expires_in`).
    public var obtainedAt: Date
    /// When the access token expires.
    public var expiresAt: Date
    /// Device code only: what renews the access token (rotated on every use).
    public var refreshToken: Secret?
    /// App-only: the certificate credential the renewals sign with (paths only; the key stays in its file).
    public var certificate: CertificateCredential?

    /// A token set from its parts (a sign-in makes one; the session file rebuilds one).
    public init(
        kind: Kind, appId: String, tenant: String, authority: String, scope: String, accessToken: Secret,
        obtainedAt: Date, expiresAt: Date, refreshToken: Secret? = nil, certificate: CertificateCredential? = nil
    ) {
        self.kind = kind
        self.appId = appId
        self.tenant = tenant
        self.authority = authority
        self.scope = scope
        self.accessToken = accessToken
        self.obtainedAt = obtainedAt
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.certificate = certificate
    }

    /// What the access token says about itself (read, not verified: SharePoint verifies it).
    public var claims: TokenClaims { TokenClaims(accessToken: accessToken) }

    /// When to ask for a new token: shortly before `expiresAt` (2 minutes, or a tenth of the lifetime when that
    /// is shorter).
    public var renewAt: Date {
        let lifetime = expiresAt.timeIntervalSince(obtainedAt)
        return expiresAt.addingTimeInterval(-min(120, max(0, lifetime / 10)))
    }

    /// The token set in one line, without any token.
    public var description: String {
        "TokenSet(\(kind.rawValue), app \(appId), tenant \(tenant), expires \(expiresAt))"
    }
}

/// An app's certificate credential: where its certificate and private key are, and how to sign with it. Paths
/// only, never key material; the key file must be 0600 and the password (for an encrypted key) sits in a file of
/// its own.
public struct CertificateCredential: Sendable, Equatable, Codable {
    /// The PEM certificate (and, when `keyPath` is nil, its private key after it).
    public var certificatePath: String
    /// The PEM private key; nil when it sits in the certificate file after the certificate.
    public var keyPath: String?
    /// A file whose first line decrypts an encrypted key.
    public var keyPasswordPath: String?
    /// RS256 names the certificate by `x5t` (SHA-1), PS256 by `x5t#S256` (SHA-256).
    public var algorithm: SignatureAlgorithm

    /// A credential from its file paths and the signing algorithm.
    public init(
        certificatePath: String, keyPath: String? = nil, keyPasswordPath: String? = nil,
        algorithm: SignatureAlgorithm = .rs256
    ) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.keyPasswordPath = keyPasswordPath
        self.algorithm = algorithm
    }
}

/// The claims of an Entra access token that a client shows or acts on, read from its payload without verifying
/// its signature (only the resource can). Missing or unreadable claims are nil or empty.
public struct TokenClaims: Sendable, Equatable {
    /// `aud`: the resource the token is for (the site's origin).
    public var audience: String?
    /// `appid` (or `azp`): the app the token was issued to.
    public var appId: String?
    /// `tid`: the tenant id.
    public var tenant: String?
    /// Application permissions (app-only tokens), e.g. `Sites.FullControl.All`.
    public var roles: [String]
    /// Delegated permissions (user tokens), e.g. `AllSites.Read`.
    public var scopes: [String]
    /// The user's sign-in name (delegated tokens).
    public var userName: String?
    /// `exp`.
    public var expiresAt: Date?
    /// `appidacr`: 0 public client, 1 client secret, 2 certificate.
    public var appAuthentication: String?

    /// The claims of `accessToken` (a JWT, read without verifying: only for display and expiry).
    public init(accessToken: Secret) {
        let payload = JSONWebToken.payload(of: accessToken.revealedValue()) ?? .object([])
        audience = payload["aud"]?.stringValue
        appId = (payload["appid"] ?? payload["azp"])?.stringValue
        tenant = payload["tid"]?.stringValue
        roles = payload["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        scopes = payload["scp"]?.stringValue?.split(separator: " ").map(String.init) ?? []
        userName = (payload["upn"] ?? payload["unique_name"] ?? payload["preferred_username"])?.stringValue
        expiresAt = payload["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
        appAuthentication = (payload["appidacr"] ?? payload["azpacr"])?.stringValue
    }
}
