import Foundation
import HTTPServer

/// Entra's home realm discovery (`GetCredentialType`) and the return of federated users from their ADFS
/// (`/login.srf`).
extension SimulatorCore {
    /// `POST /common/GetCredentialType` (JSON).
    func entraCredentialType(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = parseJSONObject(request.body) ?? [:]
        let ctx = body["originalRequest"] as? String ?? ""
        let json = credentialTypeResult(
            username: body["username"] as? String ?? "", ctx: ctx,
            accessPassSupported: body["isAccessPassSupported"] as? Bool ?? false,
            fidoSupported: body["isFidoSupported"] as? Bool ?? false,
            flowToken: state.withLock { $0.flows[ctx]?.flowToken })
        return HTTPServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: json.serialized())
    }

    /// GetCredentialType's answer for `username` (also embedded as `oGetCredTypeResult` in a sign-in page asked
    /// with `login_hint`): the page asks about passes and FIDO only when it supports them; then they are offered,
    /// and preferred if so (`PrefCredential` 13 or 7). `FlowToken` is the flow's current one, when it is known.
    func credentialTypeResult(
        username: String, ctx: String, accessPassSupported: Bool, fidoSupported: Bool, flowToken: String?
    ) -> JSON {
        let index = userIndex(login: username)
        let exists = index != nil
        let federated = index.map { users[$0].federated } ?? false
        let accessPass = accessPassSupported ? index.flatMap { users[$0].accessPass } : nil
        let fido = fidoSupported ? index.map { fidoCredentials(of: $0) } ?? [] : []
        let hasPassword = index.map { users[$0].hasPassword } ?? true
        let fidoPreferred = !fido.isEmpty && (fido.contains(where: \.preferred) || !hasPassword)
        let certificate = certificateAuthCredentials(forUser: index)
        let preferred =
            federated ? 4 : accessPass?.preferred == true ? 13 : fidoPreferred ? 7 : certificate.preferred ? 15 : 1
        let federationURL =
            self.federationURL + "/adfs/ls/?client-request-id=\(Tokens.guid())&wa=wsignin1.0"
            + "&wtrealm=urn%3afederation%3aMicrosoftOnline&wctx="
            + percentEncode("LoginOptions=3&estsredirect=2&estsrequest=" + ctx) + "&username=" + percentEncode(username)
        let fidoParams: JSON =
            fido.isEmpty
            ? .null
            : .object([
                ("AllowList", .array(fido.map { .string($0.standardBase64Id) })),
                ("HasCrossDeviceCapablePasskey", .bool(false)),
            ])
        var members: [(String, JSON)] = [
            ("Username", .string(username)), ("Display", .string(username)), ("IfExistsResult", .int(exists ? 0 : 1)),
            ("IsUnmanaged", .bool(false)), ("ThrottleStatus", .int(0)),
            (
                "Credentials",
                .object([
                    ("PrefCredential", .int(preferred)), ("HasPassword", .bool(hasPassword)),
                    ("HasAccessPass", .bool(accessPass != nil)), ("HasFido", .bool(!fido.isEmpty)),
                    ("HasCertAuth", .bool(certificate.offered)),
                    ("FederationRedirectUrl", federated ? .string(federationURL) : .null), ("RemoteNgcParams", .null),
                    ("FidoParams", fidoParams), ("SasParams", .null), ("CertAuthParams", certificate.params),
                    ("GoogleParams", .null),
                    ("FacebookParams", .null),
                ])
            ),
            ("EstsProperties", .object([("UserTenantBranding", .null), ("DomainType", .int(federated ? 4 : 3))])),
            ("IsSignupDisallowed", .bool(true)), ("apiCanary", .string(Tokens.random(bytes: 40))),
        ]
        if let flowToken { members.append(("FlowToken", .string(flowToken))) }
        return .object(members)
    }

    /// `POST /login.srf` (wa, wresult, wctx) from the federated IdP: the assertion stands for the password.
    func entraFederationReturn(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let wresult = request.formValue("wresult") ?? ""
        var assertionId = ""
        if let range = wresult.range(of: "AssertionID=\"") {
            assertionId = String(wresult[range.upperBound...].prefix { $0 != "\"" })
        }
        let wctx = request.formValue("wctx") ?? ""
        let ctx =
            FormURLDecoding.pairs(wctx).first { $0.0 == "estsrequest" }.map { $0.1.removingPercentEncoding ?? $0.1 }
            ?? ""
        guard
            let user = state.withLock({ state -> Int? in
                defer { state.assertions[assertionId] = nil }
                return state.assertions[assertionId]
            }), let flow = state.withLock({ $0.flows[ctx] }), flow.stage == "signin"
        else {
            return entraError("50008", "AADSTS50008: SAML token is invalid.")
        }
        return afterPassword(flow, user)
    }
}
