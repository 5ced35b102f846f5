import AuthFlow
import Foundation
import HTTPServer
import SPSim
import TestSupport
import Testing
import Transport

@testable import spconnect_status

/// The status app over an app-only (bearer-token) session, made by the certificate sign-in against spsim's Entra
/// tenant over https: the lists come through the token, and nothing of the token reaches the page.
@Suite struct TokenSessionTests {
    @Test func anAppOnlySessionReadsTheListsWithItsToken() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra, tls: true))
        let app = try await TestAppCredential.make()
        simulator.registerCertificate(app.certificatePEM, appId: SimulatedApp.fullControlId)
        let caPath = app.directory + "/spsim-ca.pem"
        try Data((simulator.certificatePEM ?? "").utf8).write(to: URL(fileURLWithPath: caPath))
        let trusting = HTTPClient.Configuration(caFile: caPath)
        let session = try await AppOnlySignIn(
            client: try HTTPClient(configuration: trusting), siteURL: simulator.siteURL,
            appId: SimulatedApp.fullControlId, authorityHost: simulator.identityProviderURL,
            credential: CertificateCredential(certificatePath: app.certificatePath, keyPath: app.keyPath)
        ).run()
        let directory = NSTemporaryDirectory() + "spc-status-token-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SessionStore(directory: directory)
        try store.save(session, profile: "app")
        let statusSession = try StatusSession(
            StatusSession.Configuration(
                profile: "app", store: store, password: { nil }, canSignIn: false, clientConfiguration: trusting,
                proofCacheSeconds: 0))
        let statusApp = StatusApp(
            session: statusSession, accessToken: nil, hostNames: ["127.0.0.1"], csrfToken: "csrf-token-1",
            pageSize: 5, columns: nil, refreshSeconds: nil)
        let server = try HTTPServer { request in statusApp.handle(request) }
        statusApp.hosts?.listening(on: server.port)
        defer {
            server.stop()
            simulator.stop()
        }
        let lists = try await HTTPClient().execute(HTTPRequest(url: server.baseURL + "/lists"))
        let text = String(decoding: lists.body, as: UTF8.self)
        #expect(lists.status == 200, "\(text.prefix(400))")
        #expect(text.contains("Tasks"), "\(text.prefix(400))")
        let token = try #require(session.tokens).accessToken.revealedValue()
        #expect(!text.contains(token))
    }
}
