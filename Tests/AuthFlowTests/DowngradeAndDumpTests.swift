import AuthFlow
import Foundation
import HTTPServer
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
        let action = Self.firstMove(onHTTPSPage: "https://127.0.0.2:8443/login", body: Self.form)
        guard case .finish(.policyRefused(.downgrade(let from, let to))) = action else {
            Issue.record("expected a downgrade refusal, got \(action)")
            return
        }
        #expect(from == "https://127.0.0.2:8443/login")
        #expect(to == "http://127.0.0.2:8080/post")
    }

    /// The machine's move on one https page (`extraHeaders` besides `Content-Type: text/html`), for a sign-in to
    /// an https site where http to loopback is allowed: no I/O, as there is no https test server.
    static func firstMove(onHTTPSPage url: String, extraHeaders: [(String, String)] = [], body: String)
        -> SignInAction
    {
        var machine = SignInMachine(
            SignInConfiguration(
                siteURL: "https://127.0.0.1:8443", username: "alice@contoso.test", password: Secret("pw-123456"),
                policy: SignInPolicy(allowHTTPLoopback: true)))
        _ = machine.start()
        return machine.receive(
            SignInResponse(
                url: url, status: 200, headers: [("Content-Type", "text/html")] + extraHeaders, location: nil,
                body: Array(body.utf8), siteCookies: []))
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
        let outcome = try await Self.run(world, dumpingInto: directory)
        guard case .unknownPage(_, _, let dumpPath?, _) = outcome else {
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

    /// A dump never replaces an earlier one, even of the same host in the same second: the names it would take
    /// are all taken here beforehand, and each must still hold what it held.
    @Test func anEarlierDumpIsNeverOverwritten() async throws {
        let world = try HostilePageTests.world { _, _ in HostilePageTests.page("<html><p>Unknown</p></html>") }
        defer { world.stop() }
        let directory = NSTemporaryDirectory() + "spconnect-dump-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let now = Int(Date().timeIntervalSince1970)
        let taken = (now...(now + 30)).map { directory + "/spconnect-\($0)-127.0.0.2.html" }
        for path in taken { #expect(FileManager.default.createFile(atPath: path, contents: Data("earlier".utf8))) }
        let outcome = try await Self.run(world, dumpingInto: directory)
        guard case .unknownPage(_, _, let dumpPath?, _) = outcome else {
            Issue.record("expected an unknown page with a dump, got \(outcome.message)")
            return
        }
        #expect(!taken.contains(dumpPath))
        #expect(try String(contentsOfFile: dumpPath, encoding: .utf8).contains("Unknown"))
        for path in taken { #expect(FileManager.default.contents(atPath: path) == Data("earlier".utf8)) }
    }

    /// An Entra page whose `pgid` the engine does not know, carrying tokens in `$Config` and in `sFTTag`.
    static let newInterrupt = #"""
        <html><head><title>Something new</title></head><body><script>
        //<![CDATA[
        $Config={"pgid":"ConvergedNewThing","urlPost":"/common/newthing","sFT":"FT-SECRET-77",
        "sCtx":"CTX-SECRET-78","sFTTag":"<input type=\"hidden\" name=\"PPFT\" value=\"PPFT!SECRET*79\"/>"};
        //]]>
        </script></body></html>
        """#

    /// What the two runs of ``runWithAndWithoutDumping(_:dumpPath:)`` gave.
    struct Dump {
        var plain: SignInOutcome
        var text: String
        var mode: Int?
    }

    /// Signs in without `--dump-pages` (the message must say how to get a copy), then with it into a fresh
    /// directory (the message must name the copy). `dumpPath` reads the outcome: nil when it is not the kind
    /// expected, else its dump path. Returns the first outcome and the copy's text and mode.
    static func runWithAndWithoutDumping(
        _ world: HostilePageTests.World, dumpPath: (SignInOutcome) -> String??
    ) async throws -> Dump {
        let plain = try await run(world, dumpingInto: nil)
        #expect(try #require(dumpPath(plain), "unexpected outcome: \(plain.message)") == nil)
        #expect(plain.hints.contains(.savePages), "\(plain.hints)")
        #expect(!plain.message.contains("--"), "the engine's message names a CLI option: \(plain.message)")
        let root = NSTemporaryDirectory() + "spconnect-dump-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outcome = try await run(world, dumpingInto: root)
        let path = try #require(dumpPath(outcome) ?? nil, "expected a dump, got \(outcome.message)")
        #expect(outcome.message.contains(path))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        return Dump(plain: plain, text: try String(contentsOfFile: path, encoding: .utf8), mode: mode)
    }

    static func run(_ world: HostilePageTests.World, dumpingInto directory: String?) async throws -> SignInOutcome {
        await SignIn(
            client: try HTTPClient(),
            configuration: SignInConfiguration(
                siteURL: world.site.baseURL, username: "alice@contoso.test", password: Secret("pw-123456"),
                policy: SignInPolicy(allowHTTPLoopback: true)),
            options: SignIn.Options(dumpPagesDirectory: directory)
        ).run()
    }

    /// `--dump-pages` on an unknown Entra interrupt: the page is saved redacted and the message says where;
    /// without the option the message says how to get a copy.
    @Test func unknownInterruptIsDumpedRedacted() async throws {
        let world = try HostilePageTests.world { _, _ in HostilePageTests.page(Self.newInterrupt) }
        defer { world.stop() }
        let dump = try await Self.runWithAndWithoutDumping(world) { outcome in
            guard case .interactionRequired(.unknownInterrupt, _, _, let dumpPath, _) = outcome else { return nil }
            return .some(dumpPath)
        }
        guard case .interactionRequired(_, "ConvergedNewThing", _, _, _) = dump.plain else {
            Issue.record("expected the ConvergedNewThing page, got \(dump.plain.message)")
            return
        }
        #expect(dump.text.contains("ConvergedNewThing"))
        for secret in ["FT-SECRET-77", "CTX-SECRET-78", "PPFT!SECRET*79"] {
            #expect(!dump.text.contains(secret), "\(secret) leaked into the dump")
        }
        #expect(dump.mode == 0o600)
    }

    /// `--dump-pages` on a loop: the last page seen is saved redacted and the message says where.
    @Test func loopIsDumpedRedacted() async throws {
        let world = try HostilePageTests.world { request, _ in
            HostilePageTests.page(
                """
                <html><head><title>Hop \(request.path)</title>
                <meta http-equiv="refresh" content="0;url=\(request.path == "/a" ? "/b" : "/a")"></head>
                <body><form><input type="hidden" name="wctx" value="LOOP!SECRET*80"></form></body></html>
                """)
        }
        defer { world.stop() }
        let dump = try await Self.runWithAndWithoutDumping(world) { outcome in
            guard case .loop(_, _, let dumpPath) = outcome else { return nil }
            return .some(dumpPath)
        }
        let dumped = dump.text
        #expect(dumped.contains("<title>Hop /"))
        #expect(!dumped.contains("LOOP!SECRET*80"))
    }
}
