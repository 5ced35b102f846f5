import Foundation
import HTTPServer

/// The device authorization grant (RFC 8628) of the simulated tenant, and refresh tokens.
extension SimulatorCore {
    /// `POST /{tenant}/oauth2/v2.0/devicecode` (`client_id`, `scope`).
    func deviceAuthorization(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let clientId = request.formValue("client_id") ?? ""
        guard let app = app(clientId) else {
            return oauthError(
                400, "unauthorized_client", 700016,
                "Application with identifier '\(clientId)' was not found in the directory.")
        }
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        let userCode = String((0..<9).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        let deviceCode = "DAQABAAEAAA" + Tokens.random(bytes: 64)
        let lifetime = options.deviceCodeLifetimeSeconds
        state.withLock { state in
            state.entra.deviceGrants[deviceCode] = DeviceGrant(
                appId: app.appId, scope: request.formValue("scope") ?? "", userCode: userCode,
                expires: nowEpoch() + lifetime, script: state.entra.deviceScript)
        }
        let uri = identityProviderURL + "/devicelogin"
        let body = JSON.object([
            ("user_code", .string(userCode)), ("device_code", .string(deviceCode)), ("verification_uri", .string(uri)),
            ("expires_in", .int(lifetime)), ("interval", .int(options.deviceCodeIntervalSeconds)),
            (
                "message",
                .string(
                    "To sign in, use a web browser to open the page \(uri) and enter the code \(userCode) to "
                        + "authenticate.")
            ),
        ])
        return HTTPServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: body.serialized())
    }

    /// The device-code grant on the token endpoint.
    func deviceCodeToken(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let code = request.formValue("device_code") ?? ""
        let now = nowEpoch()
        guard var grant = state.withLock({ $0.entra.deviceGrants[code] }) else {
            return oauthError(400, "bad_verification_code", 70000, "The provided device code is not valid.")
        }
        guard let app = app(grant.appId), app.publicClient else {
            return oauthError(
                401, "invalid_client", 7000218,
                "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")
        }
        grant.polls += 1
        defer { state.withLock { $0.entra.deviceGrants[code] = grant } }
        let pending = oauthError(
            400, "authorization_pending", 70016,
            "OAuth 2.0 device flow error. Authorization is pending. Continue polling.")
        switch grant.script {
        case .approve(let email) where grant.polls >= 2, .slowDown(let email) where grant.polls >= 2:
            grant.approvedBy = users.firstIndex { $0.email.lowercased() == email.lowercased() }
        case .decline where grant.polls >= 2:
            grant.declined = true
        case .expire where grant.polls >= 2:
            grant.expires = now - 1
        case .slowDown where grant.polls == 1:
            return oauthError(400, "slow_down", 70016, "OAuth 2.0 device flow error. Slow down.")
        default:
            break
        }
        if grant.declined {
            return oauthError(400, "authorization_declined", 70018, "The user declined the authorization request.")
        }
        if grant.expires <= now {
            return oauthError(400, "expired_token", 70019, "Verification code expired.")
        }
        guard let user = grant.approvedBy else { return pending }
        if users[user].conditionalAccess {
            return oauthError(
                400, options.deviceCodeBlockError, 53003,
                "Access has been blocked by Conditional Access policies. The access policy does not allow token "
                    + "issuance.",
                extra: [
                    ("suberror", .string("message_only")),
                    (
                        "claims",
                        .string(
                            #"{"access_token":{"capolids":{"essential":true,"values":["\#(stableGUID(options.seed, "policy"))"]}}}"#
                        )
                    ),
                ])
        }
        state.withLock { $0.entra.deviceGrants[code] = nil }
        grant.expires = 0
        return delegatedTokens(user: user, appId: app.appId, requestedScope: grant.scope)
    }

    /// `grant_type=refresh_token`: a new access token and a new refresh token; the old one stops working.
    func refreshToken(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let presented = request.formValue("refresh_token") ?? ""
        guard
            let holder = state.withLock({ state -> (user: Int, appId: String, scope: String)? in
                defer { state.entra.refreshTokens[presented] = nil }
                return state.entra.refreshTokens[presented]
            }), holder.appId.lowercased() == (request.formValue("client_id") ?? "").lowercased()
        else {
            return oauthError(
                400, "invalid_grant", 700082,
                "The refresh token has expired due to inactivity or was revoked. Sign in again.")
        }
        return delegatedTokens(
            user: holder.user, appId: holder.appId, requestedScope: request.formValue("scope") ?? holder.scope)
    }

    /// A user token for the SharePoint resource named in `requestedScope` (`https://host/.default …`).
    func delegatedTokens(user: Int, appId: String, requestedScope: String) -> HTTPServerResponse {
        let resourceScope = requestedScope.split(separator: " ").map(String.init).first {
            $0.hasPrefix("http") || $0.hasPrefix("00000003-")
        }
        guard let resourceScope, let slash = resourceScope.range(of: "/", options: .backwards),
            let resource = knownResource(String(resourceScope[..<slash.lowerBound]))
        else {
            return oauthError(
                400, "invalid_resource", 500011, "The resource principal named \(requestedScope) was not found.")
        }
        let person = users[user]
        return tokenResponse(
            resource: resource,
            claims: [
                ("appid", .string(appId)), ("appidacr", .string("0")), ("idtyp", .string("user")),
                ("upn", .string(person.email)), ("unique_name", .string(person.email)),
                ("name", .string(person.displayName)), ("oid", .string(stableGUID(options.seed, "user-\(user)"))),
                ("scp", .string("AllSites.FullControl")),
            ], scope: resource + "/AllSites.FullControl", refreshFor: (user, appId, requestedScope))
    }

    /// Test hook `POST {idp}/_spsim/devicecode`: `user_code`, `action` (`approve` or `decline`), `user` (e-mail,
    /// default the first user) for a `manual` device code.
    func deviceCodeHook(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let userCode = (request.formValue("user_code") ?? "").uppercased()
        let email = request.formValue("user") ?? users[0].email
        let action = request.formValue("action") ?? "approve"
        let found = state.withLock { state -> Bool in
            guard let code = state.entra.deviceGrants.first(where: { $0.value.userCode == userCode })?.key else {
                return false
            }
            if action == "decline" {
                state.entra.deviceGrants[code]?.declined = true
            } else {
                state.entra.deviceGrants[code]?.approvedBy = users.firstIndex {
                    $0.email.lowercased() == email.lowercased()
                }
            }
            return true
        }
        return HTTPServerResponse(
            status: found ? 200 : 404, contentType: "text/plain; charset=utf-8", text: found ? "ok" : "no such code")
    }
}
