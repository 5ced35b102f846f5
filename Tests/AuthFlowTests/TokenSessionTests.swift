import AuthFlow
import Foundation
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

/// Token sessions through the Domain layer: bearer requests, no request digest, renewal before expiry and once on
/// 401, the session file (0600) that keeps them, and SharePoint's refusals read as what they mean.
@Suite struct TokenSessionTests {
    func site(_ world: TokenWorld, _ renewal: TokenRenewal) -> SharePointSite {
        SharePointSite(
            client: world.client, siteURL: world.simulator.siteURL,
            reauthenticate: { try await renewal.reauthenticate() },
            authenticationProvider: renewal)
    }

    @Test func anAppOnlySessionListsAndUploadsWithoutADigest() async throws {
        let world = try await TokenWorld.start()
        let session = try await world.appOnly().run()
        let renewal = TokenRenewal(client: world.client, session: session)
        let site = site(world, renewal)
        #expect(try await !site.lists().isEmpty)
        world.simulator.clearRequestLog()
        let file = world.app.directory + "/upload.txt"
        try Data("hello from the app".utf8).write(to: URL(fileURLWithPath: file))
        _ = try await site.upload(file: file, toFolder: "/Shared Documents", as: "app.txt")
        let log = world.simulator.requestLog()
        #expect(!log.contains { $0.path.lowercased().contains("contextinfo") })
        #expect(log.allSatisfy { $0.headerNames.contains { $0.lowercased() == "authorization" } })
        #expect(await renewal.renewals == 0)
        await world.stop()
    }

    @Test func aTokenIsRenewedShortlyBeforeItExpiresAndOnceAfterA401() async throws {
        let world = try await TokenWorld.start(tokenLifetime: 6)
        let session = try await world.appOnly().run()
        let directory = world.app.directory + "/sessions"
        let store = SessionStore(directory: directory)
        try store.save(session, profile: "app")
        let renewal = TokenRenewal(client: world.client, session: session, store: store, profile: "app")
        let site = site(world, renewal)
        // Tokens made from here on live long, so no renewal below can age too and count twice on a loaded machine
        // (a CI run: the first request took so long that the six-second token was renewed twice).
        world.simulator.setTokenLifetime(seconds: 3599)
        _ = try await site.web()
        // Within its lifetime the token is used as it is; on a machine so loaded that it already aged, the one
        // renewal is the one before expiry this test is about.
        let fresh = await renewal.renewals
        #expect(fresh <= 1)
        if fresh == 0 {
            let aging = try #require(await renewal.current.tokens)
            try await Task.sleep(for: .seconds(max(0, aging.renewAt.timeIntervalSinceNow)) + .milliseconds(50))
            _ = try await site.web()
        }
        #expect(await renewal.renewals == 1)
        let saved = try #require(try store.load(profile: "app")?.tokens)
        #expect(saved.accessToken != session.tokens?.accessToken && saved.kind == .appOnly)
        let attributes = try FileManager.default.attributesOfItem(atPath: try store.path(for: "app"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // Revoked on the server: one 401, one renewal, the request repeated.
        world.simulator.expireSessions()
        _ = try await site.web()
        #expect(await renewal.renewals == 2)
        await world.stop()
    }

    @Test func sharePointsRefusalsSayWhatIsWrong() async throws {
        let world = try await TokenWorld.start()
        // No permission: 403 access denied (not a renewal).
        let noRoles = TokenRenewal(client: world.client, session: try await world.appOnly(SimulatedApp.noRolesId).run())
        await #expect { try await site(world, noRoles).web() } throws: { error in
            (error as? SharePointError)?.kind == .accessDenied
        }
        #expect(await noRoles.renewals == 0)
        // Read-only: reads work, writes are denied.
        let readOnly = site(
            world, TokenRenewal(client: world.client, session: try await world.appOnly(SimulatedApp.readOnlyId).run()))
        _ = try await readOnly.web()
        await #expect { try await readOnly.deleteItem(in: .title("Tasks"), id: 1) } throws: { error in
            (error as? SharePointError)?.kind == .accessDenied
        }
        // A token for another resource: 'Invalid issuer or signature', after one renewal (which gets the same).
        world.simulator.issueTokens(forAudience: "https://graph.microsoft.com")
        let other = TokenRenewal(client: world.client, session: try await world.appOnly().run())
        await #expect { try await site(world, other).web() } throws: { error in
            (error as? SharePointError)?.bearerRejection == .wrongAudience
        }
        #expect(await other.renewals == 1)
        world.simulator.issueTokens(forAudience: nil)
        // A token obtained with a client secret: 'Unsupported app only token'.
        let answer = try await world.postToken([
            ("grant_type", "client_credentials"), ("client_id", SimulatedApp.secretOnlyId),
            ("client_secret", SimulatedApp.secretOnlyValue), ("scope", world.simulator.siteURL + "/.default"),
        ])
        let token = try #require(
            ((try JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any])?["access_token"] as? String)
        let secretSite = SharePointSite(
            client: world.client, siteURL: world.simulator.siteURL, authentication: .bearer(Secret(token)))
        await #expect { try await secretSite.web() } throws: { error in
            guard let error = error as? SharePointError else { return false }
            return error.bearerRejection == .unsupportedAppOnlyToken && error.description.contains("certificate")
        }
        await world.stop()
    }

    @Test func sitesSelectedReadsAndWritesOnlyWhatTheSiteGranted() async throws {
        let world = try await TokenWorld.start()
        world.simulator.registerCertificate(world.app.certificatePEM, appId: SimulatedApp.sitesSelectedId)
        let site = site(
            world,
            TokenRenewal(client: world.client, session: try await world.appOnly(SimulatedApp.sitesSelectedId).run()))
        await #expect { try await site.web() } throws: { error in (error as? SharePointError)?.kind == .accessDenied }
        world.simulator.grantSite("read", toApp: SimulatedApp.sitesSelectedId)
        _ = try await site.web()
        await #expect { try await site.deleteItem(in: .title("Tasks"), id: 2) } throws: { error in
            (error as? SharePointError)?.kind == .accessDenied
        }
        world.simulator.grantSite("write", toApp: SimulatedApp.sitesSelectedId)
        try await site.deleteItem(in: .title("Tasks"), id: 2)
        await world.stop()
    }

    @Test func aTokenSessionFileRoundTripsAndStaysACookieFile() throws {
        let directory = NSTemporaryDirectory() + "spc-tokens-" + UUID().uuidString
        let store = SessionStore(directory: directory)
        let tokens = TokenSet(
            kind: .deviceCode, appId: "a", tenant: "t", authority: "https://login.example", scope: "https://s/.default",
            accessToken: Secret("access-token-value"), obtainedAt: Date(timeIntervalSince1970: 1_800_000_000),
            expiresAt: Date(timeIntervalSince1970: 1_800_003_599), refreshToken: Secret("refresh-token-value"))
        let session = Session(
            siteURL: "https://s", user: "alice@contoso.test", flow: "device-code",
            provedAt: Date(timeIntervalSince1970: 1_800_000_000), cookies: [], tokens: tokens)
        try store.save(session, profile: "p")
        #expect(try store.load(profile: "p") == session)
        let text = try String(contentsOfFile: try store.path(for: "p"), encoding: .utf8)
        #expect(text.hasPrefix("# Netscape HTTP Cookie File"))
        #expect(!"\(session)".contains("access-token-value") && !"\(tokens)".contains("refresh-token-value"))
        try FileManager.default.removeItem(atPath: directory)
    }
}
