import Cryptography
import Foundation
import HTTPServer

/// The simulated tenant's OAuth 2.0 endpoints: the password grant, OpenID discovery, the signing keys,
/// client credentials with a certificate assertion (or a secret), the device authorization grant, refresh tokens,
/// and the test hooks that steer the device code sign-in.
extension SimulatorCore {
    /// `POST /{tenant}/oauth2/v2.0/token` (or v1 `/oauth2/token`) for every grant but the password one: client
    /// credentials, device code, refresh token.
    func grantedTokens(_ request: HTTPServerRequest) -> HTTPServerResponse {
        switch request.formValue("grant_type") ?? "" {
        case "client_credentials": return clientCredentials(request, tenant: request.lowercasedSegments[0])
        case "urn:ietf:params:oauth:grant-type:device_code": return deviceCodeToken(request)
        case "refresh_token": return refreshToken(request)
        default: return oauthError(400, "unsupported_grant_type", 70003, "The app requested an unsupported grant type.")
        }
    }

    /// `/devicelogin`: where a person enters a device code (the simulator approves codes through its test hook).
    func deviceLoginPage() -> HTTPServerResponse {
        html(200, page(title: "Enter code", body: "<h1>Enter code</h1><p>Enter the code on your device.</p>"))
    }

    /// Entra's error body: `error`, `error_description` (`AADSTSnnnn: …` and trace lines), `error_codes`, ids.
    func oauthError(
        _ status: Int, _ error: String, _ code: Int, _ text: String, extra: [(String, JSON)] = []
    ) -> HTTPServerResponse {
        let body = JSON.object(
            [
                ("error", .string(error)),
                (
                    "error_description",
                    .string(
                        "AADSTS\(code): \(text) Trace ID: \(Tokens.guid()) Correlation ID: \(Tokens.guid()) Timestamp: "
                            + CivilTime(nowEpoch()).iso)
                ),
                ("error_codes", .array([.int(code)])), ("timestamp", .string(CivilTime(nowEpoch()).iso)),
                ("trace_id", .string(Tokens.guid())), ("correlation_id", .string(Tokens.guid())),
                ("error_uri", .string("\(identityProviderURL)/error?code=\(code)")),
            ] + extra)
        return HTTPServerResponse(
            status: status, contentType: "application/json; charset=utf-8", text: body.serialized())
    }

    // MARK: Discovery

    func openIDConfiguration(_ tenant: String) -> HTTPServerResponse {
        let base = identityProviderURL + "/" + tenant
        let body = JSON.object([
            ("token_endpoint", .string(base + "/oauth2/v2.0/token")),
            (
                "token_endpoint_auth_methods_supported",
                .array(["client_secret_post", "private_key_jwt", "client_secret_basic"].map(JSON.string))
            ),
            ("jwks_uri", .string(base + "/discovery/v2.0/keys")),
            ("response_modes_supported", .array(["query", "fragment", "form_post"].map(JSON.string))),
            ("subject_types_supported", .array([.string("pairwise")])),
            ("id_token_signing_alg_values_supported", .array([.string("RS256")])),
            (
                "response_types_supported",
                .array(["code", "id_token", "code id_token", "id_token token"].map(JSON.string))
            ),
            ("scopes_supported", .array(["openid", "profile", "email", "offline_access"].map(JSON.string))),
            ("issuer", .string(base + "/v2.0")),
            ("request_uri_parameter_supported", .bool(false)),
            ("authorization_endpoint", .string(base + "/oauth2/v2.0/authorize")),
            ("device_authorization_endpoint", .string(base + "/oauth2/v2.0/devicecode")),
            ("http_logout_supported", .bool(true)),
            ("end_session_endpoint", .string(base + "/oauth2/v2.0/logout")),
            (
                "claims_supported",
                .array(["sub", "iss", "aud", "exp", "iat", "nbf", "tid", "oid", "roles"].map(JSON.string))
            ),
            ("tenant_region_scope", .string("EU")),
        ])
        return HTTPServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: body.serialized())
    }

    /// The JWKS of the tenant's token-signing key.
    func signingKeys() -> HTTPServerResponse {
        do {
            let key = try signingKey().publicKey()
            let (modulus, exponent) = try key.rsaComponents()
            let body = JSON.object([
                (
                    "keys",
                    .array([
                        .object([
                            ("kty", .string("RSA")), ("use", .string("sig")), ("kid", .string(try keyId(key))),
                            ("n", .string(base64URL(modulus))), ("e", .string(base64URL(exponent))),
                        ])
                    ])
                )
            ])
            return HTTPServerResponse(
                status: 200, contentType: "application/json; charset=utf-8", text: body.serialized())
        } catch {
            return oauthError(500, "temporarily_unavailable", 90033, "The signing key is unavailable: \(error)")
        }
    }

    // MARK: Client credentials

    func clientCredentials(_ request: HTTPServerRequest, tenant: String) -> HTTPServerResponse {
        let clientId = request.formValue("client_id") ?? ""
        guard let app = app(clientId) else {
            return oauthError(
                400, "unauthorized_client", 700016,
                "Application with identifier '\(clientId)' was not found in the directory '\(tenant)'.")
        }
        let appAuthentication: String
        if let assertion = request.formValue("client_assertion") {
            state.withLock { $0.entra.assertions.append(assertion) }
            let audience = identityProviderURL + request.path
            if let refusal = checkAssertion(assertion, app: app, audience: audience) { return refusal }
            appAuthentication = "2"
        } else if let secret = request.formValue("client_secret") {
            guard let registered = app.secret, registered == secret else {
                return oauthError(
                    401, "invalid_client", 7000215,
                    "Invalid client secret provided. Ensure the secret being sent in "
                        + "the request is the client secret value, not the client secret ID.")
            }
            appAuthentication = "1"
        } else {
            return oauthError(
                401, "invalid_client", 7000218,
                "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")
        }
        let scope = request.formValue("scope") ?? ""
        guard scope.hasSuffix("/.default") else {
            return oauthError(
                400, "invalid_scope", 1002012,
                "The provided value for scope \(scope) is not valid. Client credential "
                    + "flows must have a scope value with /.default suffixed to the resource identifier.")
        }
        guard let resource = knownResource(String(scope.dropLast("/.default".count))) else {
            return oauthError(
                400, "invalid_resource", 500011, "The resource principal named \(scope) was not found in the tenant.")
        }
        return tokenResponse(
            resource: resource,
            claims: [
                ("appid", .string(app.appId)), ("appidacr", .string(appAuthentication)), ("idtyp", .string("app")),
                ("oid", .string(stableGUID(options.seed, "app-" + app.appId))),
                ("roles", .array(app.roles.map(JSON.string))),
            ], scope: nil, refreshFor: nil)
    }

    /// Nil when the client assertion is valid for `app` at `audience`; else Entra's refusal.
    func checkAssertion(_ assertion: String, app: SimulatedApp, audience: String) -> HTTPServerResponse? {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: Data(claimBytes))) as? [String: Any],
            let algorithm = (header["alg"] as? String).flatMap(SignatureAlgorithm.init(rawValue:))
        else {
            return oauthError(400, "invalid_request", 50027, "JWT token is invalid or malformed.")
        }
        let wanted: (digest: MessageDigest.Algorithm, thumbprint: String)
        if let sha256 = header["x5t#S256"] as? String {
            wanted = (.sha256, sha256)
        } else if let sha1 = header["x5t"] as? String {
            wanted = (.sha1, sha1)
        } else {
            return oauthError(
                401, "invalid_client", 700027,
                "Client assertion contains an invalid signature. [Reason - The key was not found.]")
        }
        // Entra also takes a padded thumbprint (MSAL for Python sends `x5t` with its `=`).
        let thumbprint = wanted.thumbprint.replacingOccurrences(of: "=", with: "")
        let certificate = app.certificatePEMs.lazy.compactMap { try? Certificate(pem: Array($0.utf8)) }.first {
            base64URL(MessageDigest.hash(wanted.digest, $0.der)) == thumbprint
        }
        guard let certificate, let key = try? certificate.publicKey() else {
            return oauthError(
                401, "invalid_client", 700027,
                "Client assertion contains an invalid signature. [Reason - The key was not found., Thumbprint of key "
                    + "used by client: '\(wanted.thumbprint)']")
        }
        guard key.verify(signature, of: Array("\(parts[0]).\(parts[1])".utf8), algorithm: algorithm) else {
            return oauthError(
                401, "invalid_client", 700027,
                "Client assertion contains an invalid signature. [Reason - The provided signature value did not match "
                    + "the expected signature value.]")
        }
        guard (claims["aud"] as? String) == audience else {
            return oauthError(
                401, "invalid_client", 50012, "Client assertion audience claim does not match Realm issuer.")
        }
        guard (claims["iss"] as? String) == app.appId, (claims["sub"] as? String) == app.appId else {
            return oauthError(
                401, "invalid_client", 50027, "JWT token is invalid or malformed: iss and sub must be the client id.")
        }
        let now = nowEpoch()
        let expires = (claims["exp"] as? NSNumber)?.intValue ?? 0
        let notBefore = (claims["nbf"] as? NSNumber)?.intValue ?? now
        guard expires > now, notBefore <= now + 300 else {
            return oauthError(
                401, "invalid_client", 700024,
                "Client assertion is not within its valid time range. Current time: "
                    + "\(CivilTime(now).iso), assertion valid from \(CivilTime(notBefore).iso), expiry time of "
                    + "assertion \(CivilTime(expires).iso).")
        }
        guard let jti = claims["jti"] as? String, !jti.isEmpty else {
            return oauthError(401, "invalid_client", 50027, "JWT token is invalid or malformed: no jti.")
        }
        let replayed = state.withLock { !$0.entra.usedAssertionIds.insert(jti).inserted }
        if replayed {
            return oauthError(
                401, "invalid_client", 7000221, "The client assertion was already used (jti replayed): sign a new one.")
        }
        return nil
    }

    /// `resource` when tokens may be issued for it: the site's origin, SharePoint's id, or Graph.
    func knownResource(_ resource: String) -> String? {
        let site = siteURL
        let accepted = [site, "00000003-0000-0ff1-ce00-000000000000", "https://graph.microsoft.com"]
        return accepted.first { $0.lowercased() == resource.lowercased() }
    }

    /// A signed v1 access token for `resource` with `claims`, in a token response (with a refresh token when
    /// `refreshFor` names the user, app and scope).
    func tokenResponse(
        resource: String, claims: [(String, JSON)], scope: String?,
        refreshFor: (user: Int, appId: String, scope: String)?
    ) -> HTTPServerResponse {
        let now = nowEpoch()
        let (override, lifetimeOverride) = state.withLock {
            ($0.entra.audienceOverride, $0.entra.tokenLifetimeOverride)
        }
        let lifetime = lifetimeOverride ?? options.tokenLifetimeSeconds
        let jti = Tokens.guid()
        let audience = override ?? resource
        let payload =
            [
                ("aud", JSON.string(audience)), ("iss", .string("https://sts.windows.net/\(tenantId)/")),
                ("iat", .int(now)), ("nbf", .int(now)), ("exp", .int(now + lifetime)), ("tid", .string(tenantId)),
                ("uti", .string(jti)), ("ver", .string("1.0")),
            ] + claims
        let token: String
        do {
            let key = try signingKey()
            let header = JSON.object([
                ("typ", .string("JWT")), ("alg", .string("RS256")), ("kid", .string(try keyId(try key.publicKey()))),
            ])
            let input =
                base64URL(Array(header.serialized().utf8)) + "."
                + base64URL(Array(JSON.object(payload).serialized().utf8))
            token = input + "." + base64URL(try key.sign(Array(input.utf8), algorithm: .rs256))
        } catch {
            return oauthError(500, "temporarily_unavailable", 90033, "The token could not be signed: \(error)")
        }
        var fields: [(String, JSON)] = [
            ("token_type", .string("Bearer")), ("expires_in", .int(lifetime)), ("ext_expires_in", .int(lifetime)),
            ("access_token", .string(token)),
        ]
        if let scope { fields.insert(("scope", .string(scope)), at: 1) }
        state.withLock { _ = $0.entra.issuedTokenIds.insert(jti) }
        if let refreshFor {
            let refresh = "1.A" + Tokens.random(bytes: 48)
            state.withLock { $0.entra.refreshTokens[refresh] = refreshFor }
            fields.append(("refresh_token", .string(refresh)))
        }
        return HTTPServerResponse(
            status: 200, contentType: "application/json; charset=utf-8", text: JSON.object(fields).serialized())
    }

    /// The client assertions received so far, one per line (test hook: a conformance suite verifies what a client
    /// signed with the app's certificate).
    func receivedAssertions() -> HTTPServerResponse {
        let lines = state.withLock { $0.entra.assertions }.joined(separator: "\n")
        return HTTPServerResponse(status: 200, contentType: "text/plain; charset=utf-8", text: lines)
    }

    /// `POST /{tenant}/oauth2/v2.0/token` (or v1 `/oauth2/token`), `grant_type=password` (ROPC) only:
    /// an opaque access token SharePoint accepts as `Authorization: Bearer`.
    func entraToken(_ request: HTTPServerRequest) -> HTTPServerResponse {
        func failure(_ error: String, _ code: Int, _ text: String) -> HTTPServerResponse {
            let body = JSON.object([
                ("error", .string(error)), ("error_description", .string("AADSTS\(code): \(text)")),
                ("error_codes", .array([.int(code)])), ("timestamp", .string(CivilTime(nowEpoch()).iso)),
                ("trace_id", .string(Tokens.guid())), ("correlation_id", .string(Tokens.guid())),
            ])
            return HTTPServerResponse(
                status: 400, contentType: "application/json; charset=utf-8", text: body.serialized())
        }
        guard request.formValue("grant_type") == "password" else {
            return failure("unsupported_grant_type", 70003, "The app requested an unsupported grant type.")
        }
        guard
            let index = checkPassword(
                login: request.formValue("username") ?? "", password: request.formValue("password") ?? "")
        else {
            return failure("invalid_grant", 50126, "Error validating credentials due to invalid username or password.")
        }
        let user = users[index]
        if user.mfa || user.conditionalAccess {
            return failure(
                "invalid_grant", user.mfa ? 50076 : 53003,
                user.mfa
                    ? "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access this resource."
                    : "Access has been blocked by Conditional Access policies.")
        }
        if user.passwordChange { return failure("invalid_grant", 50055, "The password is expired.") }
        if user.federated {
            return failure("invalid_grant", 50107, "The requested federation realm object does not exist.")
        }
        let token = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9." + Tokens.random(bytes: 96) + "." + Tokens.random(bytes: 64)
        let lifetime = min(3599, sessionLifetime)
        state.withLock { $0.accessTokens[token] = SPSession(user: index, expires: nowEpoch() + lifetime) }
        let body = JSON.object([
            ("token_type", .string("Bearer")), ("scope", .string(request.formValue("scope") ?? siteURL + "/.default")),
            ("expires_in", .int(lifetime)), ("ext_expires_in", .int(lifetime)), ("access_token", .string(token)),
        ])
        return HTTPServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: body.serialized())
    }
}
