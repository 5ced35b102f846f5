import Foundation
import HTTPServer

/// Entra's home realm discovery (`GetCredentialType`) and the return of federated users from their ADFS
/// (`/login.srf`).
extension SimulatorCore {
    /// `POST /common/GetCredentialType` (JSON).
    func entraCredentialType(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = parseJSONObject(request.body) ?? [:]
        let username = body["username"] as? String ?? ""
        let index = userIndex(login: username)
        let exists = index != nil
        let federated = index.map { users[$0].federated } ?? false
        // The page asks about passes only when it supports them; then the pass is offered, and preferred if so.
        let accessPass =
            (body["isAccessPassSupported"] as? Bool ?? false) ? index.flatMap { users[$0].accessPass } : nil
        let certificate = certificateAuthCredentials(forUser: index)
        let preferred = federated ? 4 : accessPass?.preferred == true ? 13 : certificate.preferred ? 15 : 1
        let ctx = body["originalRequest"] as? String ?? ""
        let federationURL =
            self.federationURL + "/adfs/ls/?client-request-id=\(Tokens.guid())&wa=wsignin1.0"
            + "&wtrealm=urn%3afederation%3aMicrosoftOnline&wctx="
            + percentEncode("LoginOptions=3&estsredirect=2&estsrequest=" + ctx) + "&username=" + percentEncode(username)
        let json = JSON.object([
            ("Username", .string(username)), ("Display", .string(username)), ("IfExistsResult", .int(exists ? 0 : 1)),
            ("IsUnmanaged", .bool(false)), ("ThrottleStatus", .int(0)),
            (
                "Credentials",
                .object([
                    ("PrefCredential", .int(preferred)), ("HasPassword", .bool(true)),
                    ("HasAccessPass", .bool(accessPass != nil)), ("HasCertAuth", .bool(certificate.offered)),
                    ("FederationRedirectUrl", federated ? .string(federationURL) : .null), ("RemoteNgcParams", .null),
                    ("FidoParams", .null), ("SasParams", .null), ("CertAuthParams", certificate.params),
                    ("GoogleParams", .null),
                    ("FacebookParams", .null),
                ])
            ),
            ("EstsProperties", .object([("UserTenantBranding", .null), ("DomainType", .int(federated ? 4 : 3))])),
            ("IsSignupDisallowed", .bool(true)), ("apiCanary", .string(Tokens.random(bytes: 40))),
        ])
        return HTTPServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: json.serialized())
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
