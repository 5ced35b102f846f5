import Foundation
import SPSim
import TestSupport
import Testing

/// The route tables' order and conditions, pinned where one route could shadow another: which host answers ADFS in
/// which mode, the Entra paths that end like a dead end but are not one, and the REST catch-alls.
@Suite(.childProcesses) struct RouteTableTests {
    /// One request and what must come back.
    struct Expectation: CustomStringConvertible {
        let url: String
        let status: Int
        let bodyContains: String
        var description: String { "\(url) → \(status) containing \(bodyContains)" }
    }

    func check(_ expectations: [Expectation], extra: [String] = []) async throws {
        let browser = Browser()
        for expectation in expectations {
            let answer = try await browser.request(
                expectation.url, headers: ["Accept: application/json;odata=nometadata"], extra: extra)
            #expect(answer.status == expectation.status, "\(expectation)")
            #expect(answer.body.contains(expectation.bodyContains), "\(expectation): \(answer.body.prefix(300))")
        }
    }

    @Test func entraHostsSplitEntraFromTheFederatedADFS() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let idp = simulator.identityProviderURL
        let federation = simulator.federationURL
        let tenant = simulator.tenantId
        let passive = "/adfs/ls/?wa=wsignin1.0&wtrealm=urn%3afederation%3aMicrosoftOnline"
        try await check([
            Expectation(url: idp + passive, status: 404, bodyContains: "404 Not Found"),
            // Below `/adfs/` Entra's own routes are not reached either (`/{tenant}/GetCredentialType` would fit).
            Expectation(url: idp + "/adfs/GetCredentialType", status: 404, bodyContains: "404 Not Found"),
            Expectation(url: federation + passive, status: 200, bodyContains: "id=\"loginForm\""),
            Expectation(url: federation + "/kmsi", status: 404, bodyContains: "404 Not Found"),
            Expectation(url: federation + "/adfs/portal/", status: 404, bodyContains: "404 Not Found"),
            // `/{tenant}/sas/…` is the second-factor API: an unknown step there is 404, not the ProofUp dead end.
            Expectation(url: idp + "/\(tenant)/sas/proofup", status: 404, bodyContains: "404 Not Found"),
            Expectation(url: idp + "/\(tenant)/ProofUp", status: 200, bodyContains: "50076"),
            Expectation(url: idp + "/jsdisabled", status: 200, bodyContains: "JavaScript required"),
            Expectation(url: idp + "/devicelogin", status: 200, bodyContains: "Enter code"),
            Expectation(
                url: idp + "/\(tenant)/v2.0/.well-known/openid-configuration", status: 200,
                bodyContains: "token_endpoint"),
        ])
    }

    @Test func adfsModeServesADFSOnTheIdentityProviderAndNoEntra() async throws {
        let simulator = try startSimulator(.adfs)
        defer { simulator.stop() }
        let idp = simulator.identityProviderURL
        try await check([
            Expectation(
                url: idp + "/adfs/ls/?wa=wsignin1.0&wtrealm=urn%3asharepoint%3aspsim", status: 200,
                bodyContains: "id=\"loginForm\""),
            Expectation(url: idp + "/adfs/elsewhere", status: 404, bodyContains: "404 Not Found"),
            Expectation(url: idp + "/common/oauth2/authorize", status: 404, bodyContains: "404 Not Found"),
            Expectation(url: idp + "/devicelogin", status: 404, bodyContains: "404 Not Found"),
        ])
    }

    @Test func restCatchAllsAnswerLikeSharePoint() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let site = simulator.siteURL
        try await check(
            [
                Expectation(url: site + "/_api/", status: 400, bodyContains: "The requested resource does not exist."),
                Expectation(url: site + "/_api/nosuch", status: 404, bodyContains: "The expression \\\"nosuch\\\""),
                Expectation(url: site + "/_api/web/nosuch", status: 400, bodyContains: "type 'SP.Web'"),
                Expectation(
                    url: site + "/_api/web/lists/nosuch", status: 400, bodyContains: "web/lists/nosuch\\\" is not valid"
                ),
                Expectation(
                    url: site + "/_api/site/anything", status: 200, bodyContains: "\"ServerRelativeUrl\":\"/\""),
                Expectation(url: site + "/_api/contextinfo", status: 405, bodyContains: "GetContextWebInformation"),
                Expectation(url: site + "/_api/web/siteusers", status: 200, bodyContains: "alice@contoso.test"),
            ], extra: ["-u", "alice@contoso.test:Spring2026!"])
    }
}
