import AuthFlow
import Foundation
import HTTPServer
import TestSupport
import Testing
import Transport

/// Pages that ask which identity provider to sign in with, over loopback HTTP: the captured ADFS home realm
/// discovery page of the shared corpus, and a discovery service that offers only other hosts' providers.
@Suite struct IdentityProviderChoiceTests {
    typealias Hostile = HostilePageTests

    static let homeRealmPage = SharedCorpus.identityProviderPages
        .appendingPathComponent("adfs2-home-realm-discovery-select-pl.html")

    /// A discovery service listing two providers by entity id, neither on this host.
    static let discoveryPage = """
        <html><head><title>Choose your organisation</title></head><body>
        <form method="post" action="/disco">
        <select name="idpentityid">
        <option value="https://idp.contoso.test/saml2/idp/metadata.php">Contoso</option>
        <option value="https://idp.fabrikam.test/saml2/idp/metadata.php">Fabrikam</option>
        </select>
        <input type="submit" name="go" value="Select">
        </form></body></html>
        """

    /// A WAYF whose list starts with a "choose one" entry that is no provider (its value is not a URI).
    static let wayfPage = """
        <html><head><title>Where are you from?</title></head><body>
        <form method="post" action="/wayf">
        <select name="user_idp">
        <option value="-" selected>Select your home organisation</option>
        <option value="https://idp.fabrikam.test/idp/shibboleth">Fabrikam</option>
        </select>
        <input type="submit" name="Select" value="Select">
        </form></body></html>
        """

    static func signIn(_ world: Hostile.World, allowedHosts: Set<String> = []) async throws -> SignInOutcome {
        await SignIn(
            client: try HTTPClient(),
            configuration: SignInConfiguration(
                siteURL: world.site.baseURL, username: "alice@contoso.test", password: Secret(Hostile.password),
                policy: SignInPolicy(allowedHosts: allowedHosts, allowHTTPLoopback: true))
        ).run()
    }

    /// ADFS 2's home realm discovery: the standard sign-in (the list's empty value, this provider's own) is
    /// chosen with the page's image button, and the sign-in goes on at its login form.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: homeRealmPage.path),
            "no shared corpus beside the project (../shared/corpus)"))
    func theHomeRealmDiscoveryPageChoosesThisProvidersOwnSignIn() async throws {
        let page = try Data(contentsOf: Self.homeRealmPage)
        let world = try Hostile.world { request, siteURL in
            switch (request.method, request.path) {
            case ("GET", "/login"):
                return HTTPServerResponse(
                    status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(Array(page)))
            case ("POST", "/adfs/ls/")
            where request.formValue("PassiveIdentityProvidersDropDownList") == ""
                && request.formValue("PassiveSignInButton.x") != nil:
                return Hostile.page(Hostile.loginForm(action: "/post"))
            case ("POST", "/post") where request.formValue("Password") == Hostile.password:
                return RefreshTests.tokenPage(siteURL)
            default:
                return Hostile.page("<html><body><p>Nothing here.</p></body></html>")
            }
        }
        defer { world.stop() }
        let outcome = try await Self.signIn(world)
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        let choice = try #require(world.log.all.first { $0.target.hasPrefix("/adfs/ls/") })
        #expect(!choice.body.contains(FormURLEncodingProbe.encode(Hostile.password)))
        #expect(world.log.hostsThatSawPassword() == ["127.0.0.2"])
    }

    /// Only other hosts' providers: without a way to tell which is the user's, the sign-in stops before choosing
    /// and names them, with a hint per host; once the user allows one host, that provider is chosen.
    @Test func aDiscoveryServiceChoosesTheProviderCredentialsMayGoTo() async throws {
        let world = try Hostile.world { request, siteURL in
            switch (request.method, request.path) {
            case ("GET", "/login"): return Hostile.page(Self.discoveryPage)
            case ("POST", "/disco") where request.formValue("idpentityid")?.contains("fabrikam") == true:
                return HTTPServerResponse(status: 302, headers: [("Location", "/form")])
            case ("GET", "/form"): return Hostile.page(Hostile.loginForm(action: "/post"))
            case ("POST", "/post") where request.formValue("Password") == Hostile.password:
                return RefreshTests.tokenPage(siteURL)
            default:
                return Hostile.page("<html><body><p>Unknown organisation.</p></body></html>")
            }
        }
        defer { world.stop() }
        let stopped = try await Self.signIn(world)
        guard case .interactionRequired(.identityProviderChoice, _, let message, _, _) = stopped else {
            Issue.record("expected a choice to make, got \(stopped.message)")
            return
        }
        #expect(message?.contains("Contoso (idp.contoso.test)") == true && message?.contains("Fabrikam") == true)
        #expect(stopped.hints == [.allowHost("idp.contoso.test"), .allowHost("idp.fabrikam.test")])
        #expect(!world.log.all.contains { $0.target == "/disco" } && world.log.hostsThatSawPassword().isEmpty)

        let outcome = try await Self.signIn(world, allowedHosts: ["idp.fabrikam.test"])
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        let choice = try #require(world.log.all.first { $0.target == "/disco" })
        #expect(choice.body.contains("fabrikam") && !choice.body.contains("contoso"))
    }

    /// The "choose one" entry looks like this provider's own sign-in and is tried first; the page comes back, so it
    /// was no provider, and the only choice not tried yet is taken.
    @Test func aChoiceThatBringsThePageBackIsNotTakenAgain() async throws {
        let world = try Hostile.world { request, siteURL in
            switch (request.method, request.path) {
            case ("GET", "/login"): return Hostile.page(Self.wayfPage)
            case ("POST", "/wayf") where request.formValue("user_idp")?.contains("fabrikam") == true:
                return HTTPServerResponse(status: 302, headers: [("Location", "/form")])
            case ("POST", "/wayf"): return Hostile.page(Self.wayfPage)
            case ("GET", "/form"): return Hostile.page(Hostile.loginForm(action: "/post"))
            case ("POST", "/post") where request.formValue("Password") == Hostile.password:
                return RefreshTests.tokenPage(siteURL)
            default:
                return Hostile.page("<html><body><p>Nothing here.</p></body></html>")
            }
        }
        defer { world.stop() }
        let outcome = try await Self.signIn(world)
        guard case .signedIn = outcome else {
            Issue.record("expected a session, got \(outcome.message)")
            return
        }
        let choices = world.log.all.filter { $0.target == "/wayf" }.map(\.body)
        #expect(
            choices.count == 2 && choices[0].contains("user_idp=-") && choices[1].contains("fabrikam"), "\(choices)")
    }
}
