import AuthFlow
import Foundation
import HTTPServer
import Presentation
import SPSim
import TestSupport
import Testing
import Transport

@testable import spconnect_status

let alice = aliceEmail

/// A simulator, alice's session saved in a temporary store, and the status app serving it on loopback.
final class StatusFixture: Sendable {
    let simulator: Simulator
    let session: Session
    let storeDirectory: String
    let app: StatusApp
    let server: HTTPServer
    /// A client for the test's own requests to the app (no SharePoint cookies in it).
    let browser: HTTPClient

    /// The fixed "now" the pages are rendered at.
    static let now = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29 12:00 UTC

    /// - Parameters:
    ///   - mode: the simulator's sign-in mode (ADFS by default: its FedAuth cookie has an expiry to show).
    ///   - withPassword: whether the app has credentials (as with `SPCONNECT_PASSWORD`).
    ///   - password: the password it has (a wrong one makes its sign-ins fail).
    ///   - pageSize: items per list page.
    ///   - columns: as `--columns`; refreshSeconds: as `--refresh`.
    ///   - clientConfiguration: the app's client settings (TLS trust for a test's https server).
    ///   - saving: changes the saved session before the app reads it (another site URL, say).
    init(
        mode: SignInMode = .adfs, withPassword: Bool = false, password: String = alicePassword, pageSize: Int = 5,
        columns: [String]? = nil, refreshSeconds: Int? = nil, clientConfiguration: HTTPClient.Configuration = .init(),
        saving edit: (inout Session) -> Void = { _ in }
    ) async throws {
        var faults = FaultSpec()
        faults.cookieLifetimeSeconds = 8 * 3600
        simulator = try Simulator(SimulatorOptions(mode: mode, faults: faults))
        let client = try HTTPClient()
        let outcome = await SignIn(
            client: client,
            configuration: SignInConfiguration(
                siteURL: simulator.siteURL, username: alice, password: Secret(alicePassword),
                policy: SignInPolicy(allowHTTPLoopback: true))
        ).run()
        guard case .signedIn(let session) = outcome else {
            await simulator.stop()
            throw FixtureError(description: "sign-in failed: \(outcome.message)")
        }
        var saved = session
        edit(&saved)
        self.session = saved
        storeDirectory = NSTemporaryDirectory() + "spc-status-" + UUID().uuidString
        let store = SessionStore(directory: storeDirectory)
        try store.save(saved, profile: "test")
        var configuration = StatusSession.Configuration(
            profile: "test", store: store, password: { withPassword ? Secret(password) : nil },
            canSignIn: withPassword, clientConfiguration: clientConfiguration, proofCacheSeconds: 0,
            now: { StatusFixture.now })
        // The renewal line names the password sources of this environment: none, whatever the test runner has.
        configuration.environment = [:]
        let statusSession = try StatusSession(configuration)
        let app = StatusApp(
            session: statusSession, accessToken: nil, hostNames: ["127.0.0.1", "localhost"], csrfToken: "csrf-token-1",
            pageSize: pageSize, columns: columns, refreshSeconds: refreshSeconds, now: { StatusFixture.now })
        self.app = app
        server = try HTTPServer { request in app.handle(request) }
        app.hosts?.listening(on: server.port)
        browser = try HTTPClient()
    }

    var baseURL: String { server.baseURL }

    func stop() {
        server.stop()
        simulator.stop()
        try? FileManager.default.removeItem(atPath: storeDirectory)
    }

    /// GETs `path` (already encoded) from the app.
    func get(_ path: String, headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
        try await browser.execute(HTTPRequest(url: baseURL + path, headers: headers))
    }

    /// POSTs form fields to the app.
    func post(_ path: String, fields: [(name: String, value: String)], headers: HTTPHeaders = [:]) async throws
        -> HTTPResponse
    {
        try await browser.execute(
            HTTPRequest(method: "POST", url: baseURL + path, headers: headers, body: .form(fields)))
    }

    /// Page text with what changes from run to run replaced: ports, latencies, durations, the sign-in time;
    /// the stylesheet left out; one tag per line.
    func normalised(_ html: String) -> String {
        var text = html.replacingOccurrences(of: StatusPages.dateText(session.provedAt), with: "<proved-at>")
        text = replace(#"<style>[\s\S]*?</style>"#, in: text, with: "<style>…</style>")
        text = replace(#"127\.0\.0\.(\d):\d+"#, in: text, with: "127.0.0.$1:PORT")
        text = replace(#"\b\d+ ms\b"#, in: text, with: "N ms")
        text = replace(#"(?:in |expired )?\b\d+[dhms](?: \d+[dhms])?(?: ago)?"#, in: text, with: "<duration>")
        return text.replacingOccurrences(of: "><", with: ">\n<").trimmingCharacters(in: .newlines)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

func replace(_ pattern: String, in text: String, with template: String) -> String {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return text }
    return expression.stringByReplacingMatches(
        in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
}

/// The header's value in a response, case-insensitively.
func header(_ response: HTTPResponse, _ name: String) -> String? {
    response.headers.fields.first { $0.name.lowercased() == name.lowercased() }?.value
}
