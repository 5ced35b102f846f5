import AuthFlow
import Foundation
import SPSim
import SharePoint
import Synchronization
import Testing
import Transport

/// The device code flow against the simulated tenant over https: the prompt, polling (with `slow_down`), every
/// ending, and the refresh token that renews the session.
@Suite struct DeviceCodeTests {
    final class Prompts: Sendable {
        let all = Mutex<[DeviceCodeSignIn.Prompt]>([])
    }

    func signIn(_ world: TokenWorld, appId: String = SimulatedApp.publicClientId, prompts: Prompts = Prompts())
        -> DeviceCodeSignIn
    {
        DeviceCodeSignIn(
            client: world.client, siteURL: world.simulator.siteURL, appId: appId,
            authorityHost: world.simulator.identityProviderURL, slowDownIncrement: 1
        ) { prompt in prompts.all.withLock { $0.append(prompt) } }
    }

    @Test func anApprovedCodeGivesAUserSessionThatRefreshes() async throws {
        let world = try await TokenWorld.start(tokenLifetime: 2)
        world.simulator.setDeviceCodeScript(.approve("alice@contoso.test"))
        let prompts = Prompts()
        let session = try await signIn(world, prompts: prompts).run()
        let prompt = try #require(prompts.all.withLock { $0.first })
        #expect(prompt.userCode.count == 9 && prompt.verificationURI.hasSuffix("/devicelogin"))
        #expect(prompt.message?.contains(prompt.userCode) == true)
        let tokens = try #require(session.tokens)
        #expect(tokens.kind == .deviceCode && tokens.refreshToken != nil && session.user == "alice@contoso.test")
        #expect(tokens.claims.scopes == ["AllSites.FullControl"])
        // The access token expires; the refresh token renews it (and rotates: the old one is spent). The renewed
        // token lives long, so a slow machine cannot make it expire too and count a second renewal.
        world.simulator.setTokenLifetime(seconds: 3599)
        let renewal = TokenRenewal(client: world.client, session: session)
        try await Task.sleep(for: .seconds(max(0, tokens.renewAt.timeIntervalSinceNow)) + .milliseconds(50))
        let site = SharePointSite(
            client: world.client, siteURL: world.simulator.siteURL,
            reauthenticate: { try await renewal.reauthenticate() },
            authenticationProvider: renewal)
        #expect(try await site.currentUser().email == "alice@contoso.test")
        #expect(await renewal.renewals == 1)
        let renewed = try #require(await renewal.current.tokens)
        #expect(renewed.refreshToken != tokens.refreshToken)
        let stale = try await world.client.execute(
            HTTPRequest(
                method: "POST", url: "\(world.simulator.identityProviderURL)/\(tokens.tenant)/oauth2/v2.0/token",
                body: .form([
                    ("grant_type", "refresh_token"), ("client_id", SimulatedApp.publicClientId),
                    ("refresh_token", tokens.refreshToken?.revealedValue() ?? ""),
                ])))
        #expect(stale.status == 400 && String(decoding: stale.body, as: UTF8.self).contains("invalid_grant"))
        await world.stop()
    }

    @Test(arguments: [
        (DeviceCodeScript.decline, TokenError.Reason.declined),
        (.expire, .codeExpired),
        (.approve("carol.ca@contoso.test"), .blockedByPolicy),
    ])
    func eachEndingHasItsReason(script: DeviceCodeScript, reason: TokenError.Reason) async throws {
        let world = try await TokenWorld.start()
        world.simulator.setDeviceCodeScript(script)
        await #expect { try await signIn(world).run() } throws: { error in (error as? TokenError)?.reason == reason }
        await world.stop()
    }

    @Test func aConfidentialAppCannotUseTheDeviceCode() async throws {
        let world = try await TokenWorld.start()
        world.simulator.setDeviceCodeScript(.approve("alice@contoso.test"))
        await #expect { try await signIn(world, appId: SimulatedApp.fullControlId).run() } throws: { error in
            (error as? TokenError)?.reason == .notPublicClient
        }
        await world.stop()
    }

    @Test func slowDownWidensThePollingInterval() async throws {
        let world = try await TokenWorld.start()
        world.simulator.setDeviceCodeScript(.slowDown("alice@contoso.test"))
        let started = ContinuousClock.now
        _ = try await signIn(world).run()
        // Polls after 1 s, then (slowed down by 1 s) after 2 s more: at least 3 s, where 2 polls at 1 s take 2.
        #expect(ContinuousClock.now - started >= .seconds(3))
        let polls = world.simulator.requestLog().filter { $0.path.hasSuffix("/oauth2/v2.0/token") }
        #expect(polls.count == 2)
        await world.stop()
    }
}
