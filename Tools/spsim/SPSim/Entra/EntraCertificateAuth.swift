import Cryptography
import Foundation
import HTTPServer

/// A user in the scope of Entra's certificate-based authentication (../shared/docs/entra-passwordless.md §1).
public struct CertificateAuthProfile: Sendable, Equatable, Codable {
    /// The authentication binding makes the user's certificate multifactor (it then satisfies MFA too).
    public var multiFactor: Bool
    /// Certificate sign-in is the user's most recently used method (`PrefCredential` 15) from the start; it
    /// becomes so after a first successful certificate sign-in anyway.
    public var preferred: Bool

    /// A profile; a single-factor certificate that is not yet preferred by default.
    public init(multiFactor: Bool = false, preferred: Bool = false) {
        self.multiFactor = multiFactor
        self.preferred = preferred
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        multiFactor = try container.decodeIfPresent(Bool.self, forKey: .multiFactor) ?? false
        preferred = try container.decodeIfPresent(Bool.self, forKey: .preferred) ?? false
    }
}

/// The certauth endpoint spsim names in `CertAuthParams.CertAuthUrl`, and the secret it shares with it. The endpoint
/// itself is another program (Tests/LiveIdP/certauth/certauth_host.py in the tests: Python's TLS with a client
/// certificate requested in the handshake, checked against the tenant's CA and the username binding). It answers
/// with an auto-post form back to Entra's `/common/login` whose `certificatetoken` is
/// `base64url(JSON {upn, ctx, iat, mfa}) "." base64url(HMAC-SHA256(secret, that first part))`: spsim's own format
/// (Entra's is not public), checked here.
public struct CertificateAuthEndpoint: Sendable, Equatable {
    /// `https://host:port/{tenant}/certauth`.
    public var url: String
    /// The HMAC key both sides hold.
    public var secret: [UInt8]
    /// How long a certificate token is good for.
    public var tokenLifetimeSeconds: Int

    /// An endpoint at `url` sharing `secret`.
    public init(url: String, secret: [UInt8], tokenLifetimeSeconds: Int = 300) {
        self.url = url
        self.secret = secret
        self.tokenLifetimeSeconds = tokenLifetimeSeconds
    }
}

extension SimulatorCore {
    /// The certauth endpoint: the one set at run time, else the options'.
    var certificateAuthEndpoint: CertificateAuthEndpoint? {
        state.withLock { $0.certificateAuthEndpoint } ?? options.certificateAuthEndpoint
    }

    /// What `GetCredentialType` says of the user's certificate sign-in: `HasCertAuth`, `CertAuthParams`, and
    /// whether it is the preferred credential (15).
    func certificateAuthCredentials(forUser index: Int?) -> (offered: Bool, params: JSON, preferred: Bool) {
        guard let endpoint = certificateAuthEndpoint, let index, let profile = users[index].certificateAuth
        else { return (false, .null, false) }
        let used = state.withLock { $0.certificateSignIns.contains(users[index].email.lowercased()) }
        return (true, .object([("CertAuthUrl", .string(endpoint.url))]), profile.preferred || used)
    }

    /// `POST /{tenant}/login` with `certificatetoken` (the certauth endpoint's auto-post: `ctx`, `flowtoken`,
    /// `certificatetoken`): the token stands for the password, and for MFA when the binding is multifactor.
    func entraCertificateLogin(_ request: HTTPServerRequest, token: String) -> HTTPServerResponse {
        let ctx = request.formValue("ctx") ?? ""
        guard let flow = state.withLock({ $0.flows[ctx] }), flow.stage == "signin",
            (request.formValue("flowtoken") ?? request.formValue("flowToken")) == flow.flowToken
        else {
            return entraError(
                "50089", "AADSTS50089: Authentication failed due to flow token expired. Please sign in again.")
        }
        guard let endpoint = certificateAuthEndpoint, let claims = verifiedCertificateToken(token, endpoint),
            claims.ctx == ctx
        else {
            return entraError("50017", "AADSTS50017: Certificate validation failed.")
        }
        guard let index = userIndex(login: claims.upn), let profile = users[index].certificateAuth else {
            return entraError(
                "50034",
                "AADSTS50034: The user account \(claims.upn) does not exist in the directory, or no account matches "
                    + "the certificate's username binding.")
        }
        let fresh = state.withLock { state -> Bool in
            state.usedCertificateTokens.insert(token).inserted
        }
        guard fresh else { return entraError("50017", "AADSTS50017: Certificate validation failed.") }
        state.withLock { $0.certificateSignIns.insert(users[index].email.lowercased()) }
        return afterPassword(flow, index, strongAuthentication: profile.multiFactor || claims.multiFactor)
    }

    /// Whether two MACs are equal, in a time that does not depend on where they differ.
    private static func constantTimeEqual(_ computed: [UInt8]?, _ given: [UInt8]) -> Bool {
        guard let computed, computed.count == given.count else { return false }
        return zip(computed, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The claims of a certificate token whose HMAC checks and whose age is within the endpoint's lifetime.
    private func verifiedCertificateToken(_ token: String, _ endpoint: CertificateAuthEndpoint)
        -> (upn: String, ctx: String, multiFactor: Bool)?
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let mac = Base64URL.decode(parts[1]), let payload = Base64URL.decode(parts[0]),
            Self.constantTimeEqual(
                HMAC.authenticationCode(.sha256, key: endpoint.secret, message: Array(parts[0].utf8)), mac),
            let claims = parseJSONObject(payload), let upn = claims["upn"] as? String,
            let ctx = claims["ctx"] as? String,
            let issued = claims["iat"] as? Double
                ?? (claims["iat"] as? Int).map(Double.init),
            abs(Date().timeIntervalSince1970 - issued) <= Double(endpoint.tokenLifetimeSeconds)
        else { return nil }
        return (upn, ctx, claims["mfa"] as? Bool ?? false)
    }
}
