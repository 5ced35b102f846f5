import Foundation
import SPSim
import TestSupport
import Testing

/// `spconnect login --app-id …` end to end against the simulated Entra tenant over https: app-only with a
/// certificate (listing, upload, renewal after expiry and after a 401), device code (approve, decline, expire,
/// slow_down, refresh), each refusal with its documented message and exit code, and no token, key or assertion in
/// any output, trace or argument. Two at a time with the other suites that spawn children (each run is a child
/// process, and each test holds an https simulator: Foundation's Process has crashed when this process held too many
/// descriptors while others spawned).
@Suite(.childProcesses) struct TokenCLITests {
    final class World: HTTPSTenant {
        init(tokenLifetime: Int = 3599, deviceCodeBlockError: String = "invalid_grant") async throws {
            var options = SimulatorOptions(mode: .entra)
            options.deviceCodeBlockError = deviceCodeBlockError
            options.tokenLifetimeSeconds = tokenLifetime
            options.deviceCodeIntervalSeconds = 1
            try await super.init(
                options, appIds: [SimulatedApp.fullControlId, SimulatedApp.noRolesId, SimulatedApp.readOnlyId],
                folder: "token-state")
        }

        func run(_ arguments: [String]) async throws -> RunResult {
            try await runSpconnect(arguments, environment: environment)
        }

        /// `spconnect COMMAND` with the CA file.
        func command(_ name: String, _ extra: [String] = []) async throws -> RunResult {
            try await run([name, "--cacert", caPath] + extra)
        }

        /// The arguments of an app-only login: paths and ids only.
        func loginArguments(_ appId: String) -> [String] {
            [
                "login", "--site", sim.siteURL, "--app-id", appId, "--certificate", app.certificatePath, "--key",
                app.keyPath, "--authority", sim.identityProviderURL, "--cacert", caPath,
            ]
        }

        func appOnly(_ appId: String = SimulatedApp.fullControlId, _ extra: [String] = []) async throws -> RunResult {
            try await run(loginArguments(appId) + extra)
        }

        func deviceCode(_ script: DeviceCodeScript, appId: String = SimulatedApp.publicClientId) async throws
            -> RunResult
        {
            sim.setDeviceCodeScript(script)
            return try await run(
                [
                    "login", "--site", sim.siteURL, "--device-code", "--app-id", appId, "--authority",
                    sim.identityProviderURL, "--cacert", caPath,
                ])
        }

        var sessionText: String {
            (try? String(contentsOfFile: state + "/spconnect/sessions/default.cookies", encoding: .utf8)) ?? ""
        }

        /// The access token kept in the session file.
        var savedAccessToken: String {
            guard let line = sessionText.split(separator: "\n").first(where: { $0.hasPrefix("# spconnect-tokens ") }),
                let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(19).utf8)) as? [String: Any]
            else { return "" }
            return object["accessToken"] as? String ?? ""
        }
    }

    @Test func appOnlySignsInListsUploadsAndRenewsItsToken() async throws {
        let world = try await World(tokenLifetime: 4)
        let trace = world.state + "/trace.jsonl"
        let login = try await world.appOnly(SimulatedApp.fullControlId, ["--trace", trace])
        let argv = world.loginArguments(SimulatedApp.fullControlId).joined(separator: " ")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Signed in as app \(SimulatedApp.fullControlId)"))
        let mode = try FileManager.default.attributesOfItem(atPath: world.state + "/spconnect/sessions/default.cookies")
        #expect((mode[.posixPermissions] as? Int) == 0o600)
        let status = try await world.run(["status"])
        #expect(
            status.stdout.contains("kind:     app-only") && status.stdout.contains("roles:    Sites.FullControl.All"))
        #expect(
            status.stdout.contains("app id:   \(SimulatedApp.fullControlId)")
                && status.stdout.contains("token:    expires"))
        // The discovery, the token and the proof: the summary of the sign-in (hosts and names only); an exchange
        // retried on a busy machine is a step of its own.
        let steps = status.stdout.components(separatedBy: "succeeded in ").dropFirst().first?
            .split(separator: " ").first.flatMap { Int($0) }
        #expect((steps ?? 0) >= 3 && status.stdout.contains(" steps, by spconnect login"), "\(status.stdout)")
        let whoami = try await world.command("whoami", ["--output", "json"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("\"kind\": \"app\"") && whoami.stdout.contains("Sites.FullControl.All"))
        let lists = try await world.command("lists", ["--output", "json"])
        #expect(lists.status == 0 && lists.stdout.contains("Documents"), "\(lists.stderr)")
        let file = world.state + "/report.txt"
        try Data("uploaded by an app".utf8).write(to: URL(fileURLWithPath: file))
        let upload = try await world.command("upload", [file, "--to", "/Shared Documents", "--output", "json"])
        #expect(upload.status == 0 && upload.stdout.contains("report.txt"), "\(upload.stderr)")
        // Expired: asked again before the request, and kept for the next run.
        let first = world.savedAccessToken
        try await Task.sleep(for: .seconds(4))
        #expect(try await world.command("web").status == 0)
        let second = world.savedAccessToken
        #expect(!first.isEmpty && !second.isEmpty && second != first)
        // Revoked: SharePoint's 401 renews it once.
        world.sim.expireSessions()
        #expect(try await world.command("lists").status == 0)
        #expect(world.savedAccessToken != second)
        // No token, assertion or key in any output, the trace or the arguments.
        let secrets =
            [first, second, world.savedAccessToken] + world.sim.receivedClientAssertions()
            + world.app.keyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        let traceText = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        #expect(!traceText.isEmpty)
        let record =
            (try? String(contentsOfFile: world.state + "/spconnect/sessions/default.signin.json", encoding: .utf8))
            ?? ""
        #expect(record.contains("client_assertion"))  // the field's name, never its value
        for text in [
            login.stdout, login.stderr, status.stdout, whoami.stdout, whoami.stderr, lists.stderr, traceText, argv,
            record,
        ] {
            for secret in secrets where secret.count > 16 { #expect(!text.contains(secret)) }
        }
        // The sign-in, the renewal after expiry, the one after the 401 (and one more if a loaded machine was slow).
        #expect(world.sim.receivedClientAssertions().count >= 3)
    }

    @Test func aTokenThatCannotBeRenewedEndsWithExit11() async throws {
        let world = try await World()
        #expect(try await world.appOnly().status == 0)
        // The key became readable by others: the renewal after SharePoint's 401 refuses it, and says why.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: world.app.keyPath)
        world.sim.expireSessions()
        let lists = try await world.command("lists")
        #expect(lists.status == 11 && lists.stderr.contains("chmod 600"), "\(lists.stderr)")
        #expect(world.sim.receivedClientAssertions().count == 1)
    }

    @Test func ps256WithAnEncryptedKeyAndAGivenTenant() async throws {
        let world = try await World()
        let login = try await world.run(
            [
                "login", "--site", world.sim.siteURL, "--app-id", SimulatedApp.fullControlId, "--tenant",
                world.sim.tenantId, "--certificate", world.app.certificatePath, "--key", world.app.encryptedKeyPath,
                "--key-password-file", world.app.passwordPath, "--algorithm", "PS256", "--authority",
                world.sim.identityProviderURL, "--cacert", world.caPath,
            ])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(world.sim.receivedClientAssertions().first?.hasPrefix("eyJ") == true)
        #expect(!world.sim.requestLog().contains { $0.path.lowercased() == "/_vti_bin/client.svc" })
    }

    @Test func eachRefusalHasItsMessageAndExitCode() async throws {
        let world = try await World()
        // A certificate Entra does not know: 3.
        let stranger = try await TestAppCredential.make()
        let wrong = try await world.run(
            [
                "login", "--site", world.sim.siteURL, "--app-id", SimulatedApp.fullControlId, "--certificate",
                stranger.certificatePath, "--key", stranger.keyPath, "--authority", world.sim.identityProviderURL,
                "--cacert", world.caPath,
            ])
        #expect(wrong.status == 3 && wrong.stderr.contains("Certificates & secrets"), "\(wrong.stderr)")
        // A key others may read: refused before anything is sent (1).
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: stranger.keyPath)
        let open = try await world.run(
            [
                "login", "--site", world.sim.siteURL, "--app-id", SimulatedApp.fullControlId, "--certificate",
                stranger.certificatePath, "--key", stranger.keyPath, "--authority", world.sim.identityProviderURL,
                "--cacert", world.caPath,
            ])
        #expect(open.status == 1 && open.stderr.contains("chmod 600"), "\(open.stderr)")
        // A client secret: refused with the reason (2).
        let secret = try await world.run(
            [
                "login", "--site", world.sim.siteURL, "--app-id", SimulatedApp.secretOnlyId, "--client-secret-file",
                world.app.passwordPath,
            ])
        #expect(secret.status == 2 && secret.stderr.contains("Unsupported app only token"), "\(secret.stderr)")
        // No permission: 12, naming what the app has.
        let noRoles = try await world.appOnly(SimulatedApp.noRolesId)
        #expect(noRoles.status == 12 && noRoles.stderr.contains("no SharePoint permission"), "\(noRoles.stderr)")
        // Read-only: signs in, but an upload is denied (12).
        #expect(try await world.appOnly(SimulatedApp.readOnlyId).status == 0)
        let file = world.state + "/denied.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let upload = try await world.command("upload", [file, "--to", "/Shared Documents"])
        #expect(upload.status == 12, "\(upload.stderr)")
        // A token for another resource: 11, saying so.
        world.sim.issueTokens(forAudience: "https://graph.microsoft.com")
        let audience = try await world.appOnly()
        #expect(audience.status == 11 && audience.stderr.contains("Invalid issuer or signature"), "\(audience.stderr)")
        for result in [wrong, open, secret, noRoles, upload, audience] { #expect(!result.stderr.contains("eyJ")) }
    }

    @Test func deviceCodeApprovedPrintsTheCodeAndRefreshesSilently() async throws {
        let world = try await World(tokenLifetime: 3)
        let login = try await world.deviceCode(.approve(aliceEmail))
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stderr.contains("/devicelogin and enter the code ") && login.stderr.contains("To sign in, use"))
        #expect(login.stdout.contains("Signed in as \(aliceEmail)"))
        let status = try await world.run(["status"])
        #expect(status.stdout.contains("kind:     delegated (device code)") && status.stdout.contains("refresh:  kept"))
        try await Task.sleep(for: .seconds(3))
        let whoami = try await world.command("whoami", ["--output", "json"])
        #expect(whoami.status == 0 && whoami.stdout.contains(aliceEmail), "\(whoami.stderr)")
        #expect(whoami.stdout.contains("device-code"))
        #expect(!world.sessionText.isEmpty && !whoami.stdout.contains(world.savedAccessToken))
    }

    @Test func aRevokedRefreshTokenEndsWithExit11AndTheApiCommandSendsTheToken() async throws {
        let world = try await World()
        #expect(try await world.deviceCode(.approve(aliceEmail)).status == 0)
        let api = try await world.command("api", ["GET", "/_api/web/currentuser"])
        #expect(api.status == 0 && api.stdout.contains(aliceEmail), "\(api.stderr)")
        world.sim.revokeRefreshTokens()
        world.sim.expireSessions()
        let lists = try await world.command("lists")
        #expect(lists.status == 11 && lists.stderr.contains("refresh token is no longer accepted"), "\(lists.stderr)")
    }

    @Test(arguments: [
        (DeviceCodeScript.decline, Int32(3), "declined"), (.expire, 4, "expired"),
        (.approve("carol.ca@contoso.test"), 4, "Conditional Access"), (.slowDown(aliceEmail), 0, "Signed in"),
    ])
    func deviceCodeEndings(script: DeviceCodeScript, status: Int32, words: String) async throws {
        let world = try await World()
        let result = try await world.deviceCode(script)
        #expect(result.status == status && (result.stderr + result.stdout).contains(words), "\(result.stderr)")
    }

    /// Device code refused by Conditional Access, in both shapes the token endpoint was seen to answer: exit 4,
    /// Entra's words and code, and what would pass.
    @Test(arguments: ["invalid_grant", "interaction_required"])
    func deviceCodeBlockedByConditionalAccessInEitherShape(error: String) async throws {
        let world = try await World(deviceCodeBlockError: error)
        let result = try await world.deviceCode(.approve("carol.ca@contoso.test"))
        #expect(result.status == 4, "\(error): \(result.stderr)")
        #expect(result.stderr.contains("53003") && result.stderr.contains("Conditional Access"), "\(result.stderr)")
        #expect(result.stderr.contains("certificate") || result.stderr.contains("administrator"), "\(result.stderr)")
    }

    @Test func aConfidentialAppGetsTheAllowPublicClientFlowsHint() async throws {
        let world = try await World()
        let result = try await world.deviceCode(.approve(aliceEmail), appId: SimulatedApp.fullControlId)
        #expect(result.status == 4 && result.stderr.contains("Allow public client flows"), "\(result.stderr)")
    }
}
