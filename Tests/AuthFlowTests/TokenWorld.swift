import AuthFlow
import Cryptography
import Foundation
import SPSim
import TestSupport
import Transport

/// The simulated tenant over https for the token tests: the simulator with TLS, its certificate in a CA file the
/// client trusts, and an app certificate (made by openssl) registered for the confidential apps.
struct TokenWorld {
    let simulator: Simulator
    let client: HTTPClient
    let app: TestAppCredential
    let caPath: String

    static func start(
        tokenLifetime: Int = 3599, deviceCodeInterval: Int = 1, deviceCodeLifetime: Int = 900
    ) async throws -> TokenWorld {
        var options = SimulatorOptions(mode: .entra, tls: true)
        options.tokenLifetimeSeconds = tokenLifetime
        options.deviceCodeIntervalSeconds = deviceCodeInterval
        options.deviceCodeLifetimeSeconds = deviceCodeLifetime
        let simulator = try Simulator(options)
        let app = try await TestAppCredential.make()
        for id in [SimulatedApp.fullControlId, SimulatedApp.noRolesId, SimulatedApp.readOnlyId] {
            simulator.registerCertificate(app.certificatePEM, appId: id)
        }
        let caPath = app.directory + "/spsim-ca.pem"
        try Data((simulator.certificatePEM ?? "").utf8).write(to: URL(fileURLWithPath: caPath))
        let client = try HTTPClient(configuration: HTTPClient.Configuration(caFile: caPath))
        return TokenWorld(simulator: simulator, client: client, app: app, caPath: caPath)
    }

    /// The app-only sign-in of `appId` with this world's certificate (tenant discovered unless given).
    func appOnly(
        _ appId: String = SimulatedApp.fullControlId, algorithm: SignatureAlgorithm = .rs256,
        tenant: String? = nil, credential: CertificateCredential? = nil
    ) -> AppOnlySignIn {
        AppOnlySignIn(
            client: client, siteURL: simulator.siteURL, appId: appId, tenant: tenant,
            authorityHost: simulator.identityProviderURL,
            credential: credential
                ?? CertificateCredential(
                    certificatePath: app.certificatePath, keyPath: app.keyPath, algorithm: algorithm))
    }

    /// POSTs `form` to the tenant's token endpoint (for what spconnect would never send: a spent assertion, a secret).
    func postToken(_ form: [(name: String, value: String)]) async throws -> HTTPResponse {
        try await client.execute(
            HTTPRequest(
                method: "POST", url: "\(simulator.identityProviderURL)/\(simulator.tenantId)/oauth2/v2.0/token",
                body: .form(form)))
    }

    func stop() async { await simulator.stop() }
}
