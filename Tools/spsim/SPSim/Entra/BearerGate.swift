import Cryptography
import Foundation
import HTTPServer

/// Who a verified bearer token speaks for, or SharePoint's refusal of it.
enum BearerVerdict {
    /// An app-only token: the app id and its application permissions.
    case app(String, roles: [String])
    /// A delegated token of a site user.
    case user(Int)
    /// SharePoint's own 401/403 answer.
    case refused(HTTPServerResponse)
}

/// SharePoint's checks of an Entra access token: signature by the tenant's key, audience, issuer, lifetime and
/// revocation, SharePoint's refusal of secret-based app-only tokens, and the app's permission for reads and writes.
extension SimulatorCore {
    /// The application permissions that may read, and those that may write.
    static let readRoles: Set = ["Sites.Read.All", "Sites.ReadWrite.All", "Sites.Manage.All", "Sites.FullControl.All"]
    static let writeRoles: Set = ["Sites.ReadWrite.All", "Sites.Manage.All", "Sites.FullControl.All"]

    /// The verdict on `token` for a request with `method`, or nil when it is not a JWT this tenant could have
    /// signed (the password grant's opaque tokens, or garbage: the caller's own checks apply).
    func bearerVerdict(_ token: String, request: HTTPServerRequest, flavour: Flavour) -> BearerVerdict? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let payloadBytes = Base64URL.decode(parts[1]),
            let claims = (try? JSONSerialization.jsonObject(with: Data(payloadBytes))) as? [String: Any]
        else { return nil }
        let hasKey = state.withLock { $0.entra.signingKeyPEM != nil }
        guard hasKey, let key = try? signingKey().publicKey(), let signature = Base64URL.decode(parts[2]),
            key.verify(signature, of: Array("\(parts[0]).\(parts[1])".utf8), algorithm: .rs256)
        else {
            return .refused(bearerChallenge("Invalid issuer or signature."))
        }
        let audience = claims["aud"] as? String ?? ""
        let accepted = [siteURL.lowercased(), "00000003-0000-0ff1-ce00-000000000000"]
        guard accepted.contains(audience.lowercased()),
            (claims["iss"] as? String) == "https://sts.windows.net/\(tenantId)/"
        else {
            return .refused(bearerChallenge("Invalid issuer or signature."))
        }
        let expires = (claims["exp"] as? NSNumber)?.intValue ?? 0
        let revoked = state.withLock { $0.entra.revokedTokenIds.contains(claims["uti"] as? String ?? "") }
        guard expires > nowEpoch(), !revoked else {
            return .refused(bearerChallenge("Invalid JWT token. The token is expired.", error: "invalid_token"))
        }
        if (claims["idtyp"] as? String) == "app" {
            if (claims["appidacr"] as? String) == "1" {
                return .refused(bearerChallenge("Unsupported app only token."))
            }
            var roles = claims["roles"] as? [String] ?? []
            let appId = claims["appid"] as? String ?? ""
            // Sites.Selected: the site's own grant stands for the tenant-wide permission.
            if roles.contains("Sites.Selected"), let grant = state.withLock({ $0.entra.siteGrants[appId.lowercased()] })
            {
                let granted = ["read": "Sites.Read.All", "write": "Sites.ReadWrite.All", "manage": "Sites.Manage.All"]
                roles.append(granted[grant] ?? "Sites.FullControl.All")
            }
            let method = effectiveMethod(request)
            let reads = ["GET", "HEAD"].contains(method) || request.path.lowercased() == "/_api/contextinfo"
            guard !Set(roles).isDisjoint(with: reads ? Self.readRoles : Self.writeRoles) else {
                return .refused(
                    errorResponse(
                        RESTError(
                            status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                            message:
                                "Access denied. You do not have permission to perform this action or access this resource."
                        ), flavour: flavour))
            }
            return .app(appId, roles: roles)
        }
        let upn = (claims["upn"] as? String ?? "").lowercased()
        guard let user = users.firstIndex(where: { $0.email.lowercased() == upn }) else {
            return .refused(bearerChallenge("Invalid JWT token. The user is not known to this site."))
        }
        return .user(user)
    }

    /// The bearer token of an `Authorization: Bearer …` header (empty string for an empty one), SPO modes only.
    func bearerToken(_ request: HTTPServerRequest) -> String? {
        guard isOnline, let header = request.header("Authorization"), header.lowercased().hasPrefix("bearer") else {
            return nil
        }
        return header.dropFirst("bearer".count).trimmingCharacters(in: .whitespaces)
    }

    /// `401` + the `WWW-Authenticate: Bearer …` discovery hint (§4).
    func bearerChallenge(_ description: String, error: String? = nil) -> HTTPServerResponse {
        let challenge =
            "Bearer realm=\"\(tenantId)\",client_id=\"00000003-0000-0ff1-ce00-000000000000\","
            + "trusted_issuers=\"00000001-0000-0000-c000-000000000000@*,https://sts.windows.net/*/\","
            + "authorization_uri=\"\(identityProviderURL)/common/oauth2/authorize\""
            + (error.map { ",error=\"\($0)\"" } ?? "")
        let body = JSON.object([("error_description", .string(description))]).serialized()
        return HTTPServerResponse(
            status: 401, contentType: "application/json; charset=utf-8", text: body,
            headers: [("WWW-Authenticate", challenge)] + standardHeaders())
    }

    /// `POST /_api/SP.OAuth.NativeClient/Authenticate` with a valid bearer token → SPOIDCRL cookie.
    func nativeClientAuthenticate(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let token = bearerToken(request), !token.isEmpty, let user = authenticatedUser(request) else {
            return bearerChallenge("Invalid JWT token. No certificate thumbprint specified in token header.")
        }
        let session = newSession(user: user)
        return HTTPServerResponse(
            status: 200, contentType: "application/json;odata=verbose;charset=utf-8",
            text: "{\"d\":{\"Authenticate\":null}}",
            headers: [cookie("SPOIDCRL", session.value)] + standardHeaders())
    }
}
