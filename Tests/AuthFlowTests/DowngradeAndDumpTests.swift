import AuthFlow
import Foundation
import Testing
import Transport

@Suite struct DowngradeAndDumpTests {
    static let form = """
        <html><body><form method="post" action="http://127.0.0.2:8080/post">
        <input type="text" name="username"><input type="password" name="password"><input type="submit" value="Sign in">
        </form></body></html>
        """

    /// An https page whose form posts to plain http is refused even where http to loopback is allowed.
    @Test func httpActionFromAnHTTPSPageIsADowngrade() {
        var machine = SignInMachine(
            SignInConfiguration(
                siteURL: "https://127.0.0.1:8443", username: "alice@contoso.test", password: Secret("pw-123456"),
                policy: SignInPolicy(allowHTTPLoopback: true)))
        _ = machine.start()
        let action = machine.receive(
            SignInResponse(
                url: "https://127.0.0.2:8443/login", status: 200, headers: [("Content-Type", "text/html")],
                location: nil, body: Array(Self.form.utf8), siteCookies: []))
        guard case .finish(.policyRefused(.downgrade(let from, let to))) = action else {
            Issue.record("expected a downgrade refusal, got \(action)")
            return
        }
        #expect(from == "https://127.0.0.2:8443/login")
        #expect(to == "http://127.0.0.2:8080/post")
    }

    /// `--dump-pages`: an unknown page is saved with its secrets redacted, and the outcome names the file.
    @Test func unknownPageIsDumpedRedacted() async throws {
        let world = try HostilePageTests.world { _, _ in
            HostilePageTests.page(
                """
                <html><head><title>Pick a tenant</title></head><body><p>Choose where to go.</p>
                <form method="post" action="/pick"><input type="hidden" name="state" value="STATE-SECRET-42">
                <input type="radio" name="tenant" value="a"><input type="radio" name="tenant" value="b">
                <button type="submit">Go</button></form></body></html>
                """)
        }
        defer { world.stop() }
        let root = NSTemporaryDirectory() + "spconnect-dump-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = root + "/pages"
        let outcome = await SignIn(
            client: try HTTPClient(),
            configuration: SignInConfiguration(
                siteURL: world.site.baseURL, username: "alice@contoso.test", password: Secret("pw-123456"),
                policy: SignInPolicy(allowHTTPLoopback: true)),
            options: SignIn.Options(dumpPagesDirectory: directory)
        ).run()
        guard case .unknownPage(_, _, let dumpPath?) = outcome else {
            Issue.record("expected an unknown page with a dump, got \(outcome.message)")
            return
        }
        #expect(outcome.message.contains(dumpPath))
        let dumped = try String(contentsOfFile: dumpPath, encoding: .utf8)
        #expect(dumped.contains("Pick a tenant"))
        #expect(!dumped.contains("STATE-SECRET-42"))
        let mode = try FileManager.default.attributesOfItem(atPath: dumpPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(directoryMode == 0o700)
        #expect((dumpPath as NSString).deletingLastPathComponent == directory)
    }
}
