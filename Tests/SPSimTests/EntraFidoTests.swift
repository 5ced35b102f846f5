import AuthFlowCore
import Cryptography
import Foundation
import JSON
import SPSim
import Testing

/// The wire JSON of the passkey types (the JSON module's value; this target's own `JSONValue` reads pages).
typealias WireJSON = JSON.JSONValue

/// Entra's FIDO2/passkey sign-in and Graph's passkey registration, driven over loopback HTTP with curl, the
/// credentials made and used by spconnect's own `SoftwareAuthenticator` (docs/simulator.md, "FIDO2 and passkeys").
@Suite struct EntraFidoTests {
    /// An Edge UA: FIDO-capable by the default rules (and by ``FidoOptions/browserUserAgents``).
    static let edge =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 "
        + "Safari/537.36 Edg/142.0.0.0"
    static let password = "Spring2026!"

    static func start(
        users: [SimulatedUser] = .defaults, fido: FidoOptions = FidoOptions(), apps: [SimulatedApp] = .defaults
    ) throws -> Simulator {
        var options = SimulatorOptions(mode: .entra, users: users)
        options.fido = fido
        options.apps = apps
        options.entraSessions.pollIntervalSeconds = 0.05
        return try Simulator(options)
    }

    static func browser(agent: String = edge) -> Browser {
        let browser = Browser()
        browser.common = ["-A", agent]
        return browser
    }

    static func wire(_ text: String) throws -> WireJSON { try WireJSON.parse(text) }

    // MARK: Graph

    /// An app-only token for Graph by client secret.
    static func graphToken(
        _ simulator: Simulator, appId: String = SimulatedApp.passkeyProvisioningId,
        secret: String = SimulatedApp.passkeyProvisioningSecret, scope: String = "https://graph.microsoft.com/.default"
    ) async throws -> String {
        let answer = try await Browser().request(
            "\(simulator.identityProviderURL)/\(simulator.tenantId)/oauth2/v2.0/token",
            form: [
                ("grant_type", "client_credentials"), ("client_id", appId), ("client_secret", secret),
                ("scope", scope),
            ])
        return try #require(answer.json?["access_token"]?.string, "no token: \(answer.body)")
    }

    static func graph(_ simulator: Simulator, _ path: String, version: String = "v1.0") -> String {
        "\(simulator.identityProviderURL)/graph/\(version)\(path)"
    }

    /// Graph's creation options for `user`, and a credential `SoftwareAuthenticator` made for them at `origin`.
    static func makeCredential(
        _ simulator: Simulator, user: String, token: String, origin: String = "https://127.0.0.2"
    ) async throws -> (credential: PasskeyCredential, registration: WireJSON, options: WireJSON) {
        let answer = try await Browser().request(
            graph(simulator, "/users/\(user)/authentication/fido2Methods/creationOptions"),
            headers: ["Authorization: Bearer \(token)"])
        #expect(answer.status == 200, "\(answer.body)")
        let options = try wire(answer.body)
        let creation = try #require(PasskeyCreationOptions(json: options), "\(answer.body)")
        let (credential, registration) = try SoftwareAuthenticator.register(
            options: creation, origin: try PasskeyOrigin(pageURL: origin, allowsHTTPLoopback: true))
        return (credential, registration, options)
    }

    /// `POST …/fido2Methods` with `publicKeyCredential`.
    static func postRegistration(_ simulator: Simulator, user: String, token: String, _ registration: WireJSON)
        async throws -> Answer
    {
        let body: WireJSON = .object([("displayName", .string("spconnect key")), ("publicKeyCredential", registration)])
        return try await Browser().request(
            graph(simulator, "/users/\(user)/authentication/fido2Methods"), method: "POST",
            headers: ["Authorization: Bearer \(token)", "Content-Type: application/json"],
            body: Array(body.serialized().utf8))
    }

    /// A passkey registered for `user` through Graph.
    static func register(_ simulator: Simulator, user: String) async throws -> PasskeyCredential {
        let token = try await graphToken(simulator)
        let made = try await makeCredential(simulator, user: user, token: token)
        let answer = try await postRegistration(simulator, user: user, token: token, made.registration)
        #expect(answer.status == 201, "\(answer.body)")
        return made.credential
    }

    /// A credential made against hand-written creation options (never registered anywhere), for a relying party.
    static func unregisteredCredential(rpID: String = "127.0.0.2") throws -> PasskeyCredential {
        let options = try #require(
            PasskeyCreationOptions(
                json: try wire(
                    #"{"challenge":"\#(Base64URL.encode((0..<32).map { UInt8($0) }))","rp":{"id":"\#(rpID)"},"#
                        + #""user":{"id":"dXNlcg","name":"stranger"},"pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#
                )))
        return try SoftwareAuthenticator.register(
            options: options, origin: try PasskeyOrigin(pageURL: "https://" + rpID)
        )
        .credential
    }

    // MARK: Sign-in

    /// The ConvergedSignIn page (authorize reached from the site), optionally asked again with `login_hint`.
    static func signInPage(_ simulator: Simulator, _ browser: Browser, hint: String? = nil) async throws
        -> Drivers.EntraPage
    {
        var page = try await Drivers.entraSignInPage(simulator, browser)
        if let hint {
            let url = page.url + "&login_hint=" + hint + "&sso_reload=true"
            let answer = try await browser.request(url)
            page = Drivers.EntraPage(
                answer: answer, url: url, config: try #require(entraConfig(answer.body), "\(answer.body.prefix(300))"))
        }
        #expect(page.pgid == "ConvergedSignIn")
        return page
    }

    /// `POST urlFidoLogin` with the form of §2.2 step 3 (`flow=mfa` for the second factor).
    static func fidoGet(
        _ browser: Browser, _ page: Drivers.EntraPage, username: String = "", credentials: String = "",
        secondFactor: Bool = false
    ) async throws -> Drivers.EntraPage {
        let config = page.config
        let url = try #require(config["urlFidoLogin"]?.string, "no urlFidoLogin on \(page.pgid)")
        let flowToken = config["sFT"]?.string ?? ""
        var form: [(String, String)] = [
            ("allowedIdentities", "2"), ("canary", flowToken), ("serverChallenge", flowToken),
            ("postBackUrl", config["urlPost"]?.string ?? ""), ("postBackUrlAad", config["urlPostAad"]?.string ?? ""),
            ("postBackUrlMsa", config["urlPostMsa"]?.string ?? ""), ("cancelUrl", config["urlResume"]?.string ?? ""),
            ("resumeUrl", config["urlResume"]?.string ?? ""), ("correlationId", config["correlationId"]?.string ?? ""),
            ("credentialsJson", credentials), ("ctx", config["sCtx"]?.string ?? ""), ("username", username),
            ("loginCanary", config["canary"]?.string ?? ""),
        ]
        if secondFactor { form.append(("flow", "mfa")) }
        let answer = try await browser.request(url, headers: ["Origin: https://127.0.0.2"], form: form)
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type")?.hasPrefix("text/html") == true)
        let next = try #require(entraConfig(answer.body), "no $Config from fido/get: \(answer.body.prefix(300))")
        return Drivers.EntraPage(answer: answer, url: url, config: next)
    }

    /// The assertion for Entra: the standard `PublicKeyCredential` of `SoftwareAuthenticator` for the ASCII bytes of
    /// `challenge`, mapped to Entra's five flat keys (compact JSON).
    static func entraAssertion(_ simulator: Simulator, _ credential: PasskeyCredential, challenge: String) throws
        -> (json: String, used: PasskeyCredential)
    {
        let request = try #require(
            PasskeyRequestOptions(
                json: try wire(#"{"challenge":"\#(Base64URL.encode(Array(challenge.utf8)))","rpId":"127.0.0.2"}"#)))
        let (response, used) = try SoftwareAuthenticator.assert(
            credential, options: request,
            origin: try PasskeyOrigin(pageURL: simulator.identityProviderURL, allowsHTTPLoopback: true))
        let flat: WireJSON = .object([
            ("id", response["id"] ?? .null), ("clientDataJSON", response["response"]?["clientDataJSON"] ?? .null),
            ("authenticatorData", response["response"]?["authenticatorData"] ?? .null),
            ("signature", response["response"]?["signature"] ?? .null),
            ("userHandle", response["response"]?["userHandle"] ?? .null),
        ])
        return (flat.serialized(), used)
    }

    /// An assertion made by hand with `credential`'s key: any flags, counter, origin and challenge text.
    static func handmadeAssertion(
        _ credential: PasskeyCredential, challenge: String, origin: String, flags: UInt8 = 0x05, count: UInt32 = 1,
        rpID: String = "127.0.0.2"
    ) throws -> String {
        let file = try wire(String(decoding: credential.fileContents(), as: UTF8.self))
        let key = try P256PrivateKey(pem: Array(try #require(file["privateKey"]?.stringValue).utf8))
        let clientData = Array(
            #"{"type":"webauthn.get","challenge":"\#(Base64URL.encode(Array(challenge.utf8)))","origin":"\#(origin)","crossOrigin":false}"#
                .utf8)
        let authenticatorData =
            MessageDigest.hash(.sha256, Array(rpID.utf8)) + [flags]
            + [UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff)]
        let signature = try key.sign(authenticatorData + MessageDigest.hash(.sha256, clientData))
        let flat: WireJSON = .object([
            ("id", .string(Base64URL.encode(credential.credentialID))),
            ("clientDataJSON", .string(Base64URL.encode(clientData))),
            ("authenticatorData", .string(Base64URL.encode(authenticatorData))),
            ("signature", .string(Base64URL.encode(signature))),
            ("userHandle", .string(Base64URL.encode(credential.userHandle))),
        ])
        return flat.serialized()
    }

    /// The assertion post of §2.2 step 5 to the fido/get page's `urlPost`.
    static func postAssertion(_ browser: Browser, _ fido: Drivers.EntraPage, assertion: String) async throws
        -> Drivers.EntraPage
    {
        let config = fido.config
        let url = try #require(config["urlPost"]?.string)
        let answer = try await browser.request(
            url, headers: ["Origin: https://127.0.0.2"],
            form: [
                ("type", "23"), ("ps", "23"), ("assertion", assertion),
                ("lmcCanary", config["sCrossDomainCanary"]?.string ?? ""),
                ("hpgrequestid", config["sessionId"]?.string ?? ""), ("ctx", config["sCtx"]?.string ?? ""),
                ("canary", config["canary"]?.string ?? ""), ("flowToken", config["sFT"]?.string ?? ""),
            ])
        let next = try #require(entraConfig(answer.body), "no $Config after the assertion: \(answer.body.prefix(300))")
        return Drivers.EntraPage(answer: answer, url: url, config: next)
    }

    /// KMSI → the form_post to SharePoint → `/_api/web`'s status.
    static func finish(_ simulator: Simulator, _ browser: Browser, _ kmsi: Drivers.EntraPage) async throws -> Int {
        let site = try await Drivers.entraFinish(simulator, browser, after: kmsi)
        #expect(browser.cookie("ESTSAUTHPERSISTENT") != nil)
        return site.status
    }

    /// A whole username-less sign-in with `credential`: the page, fido/get, the assertion; the page after it.
    static func signIn(_ simulator: Simulator, _ browser: Browser, _ credential: PasskeyCredential) async throws
        -> (page: Drivers.EntraPage, used: PasskeyCredential)
    {
        let page = try await signInPage(simulator, browser)
        let fido = try await fidoGet(browser, page)
        let challenge = try #require(fido.config["sFidoChallenge"]?.string)
        let (assertion, used) = try entraAssertion(simulator, credential, challenge: challenge)
        return (try await postAssertion(browser, fido, assertion: assertion), used)
    }

    /// The check a generic refusal names (spsim's `sSPSimCheck`), asserting the page is Entra's generic one.
    static func refusal(_ page: Drivers.EntraPage) -> String? {
        #expect(page.pgid == "ConvergedError")
        #expect(page.config["strMainMessage"]?.string?.contains("trouble signing you in") == true)
        return page.config["sSPSimCheck"]?.string
    }

    // MARK: Tests

    @Test func registeredThroughGraphThenSignedInWithoutAUsername() async throws {
        let simulator = try Self.start()
        defer { simulator.stop() }
        let credential = try await Self.register(simulator, user: "alice@contoso.test")
        #expect(credential.relyingPartyID == "127.0.0.2")
        let stored = simulator.fidoCredentials(for: "alice@contoso.test")
        #expect(stored.count == 1)
        #expect(stored.first?.credentialId == Base64URL.encode(credential.credentialID))
        #expect(stored.first?.signCount == 0)

        let browser = Self.browser()
        let page = try await Self.signInPage(simulator, browser)
        // The FIDO keys of a FIDO-capable agent (observed).
        #expect(page.config["fIsFidoSupported"] == .bool(true))
        #expect(page.config["fIsPasskeySupportEnabled"] == .bool(true))
        #expect(page.config["urlFidoLogin"]?.string == simulator.identityProviderURL + "/common/fido/get?uiflavor=Web")
        #expect(page.config["urlPostAad"]?.string?.hasSuffix("/\(simulator.tenantId)/login") == true)
        #expect(page.config["urlPostMsa"]?.string != nil)
        #expect(page.config["urlResume"]?.string != nil)
        #expect(page.config["iAllowedIdentities"]?.number == 2)
        #expect(page.config["sFidoChallenge"] == nil)  // only with login_hint

        let fido = try await Self.fidoGet(browser, page)
        #expect(fido.config["arrFidoAllowList"]?.array?.isEmpty == true)
        #expect(fido.config["sCrossDomainCanary"]?.string?.isEmpty == false)
        #expect(fido.config["sCtx"]?.string == page.config["sCtx"]?.string)
        #expect(fido.config["sFT"]?.string != page.config["sFT"]?.string)  // rotated
        #expect(fido.config["urlPost"]?.string == simulator.identityProviderURL + "/common/login")
        let challenge = try #require(fido.config["sFidoChallenge"]?.string)
        #expect(challenge.utf8.allSatisfy { $0 < 0x80 })
        // The page's script starts right at `$Config=` (a Python tool cuts it out at fixed offsets).
        #expect(fido.answer.body.contains("<script type=\"text/javascript\">//<![CDATA[\n$Config={"))

        let (assertion, used) = try Self.entraAssertion(simulator, credential, challenge: challenge)
        let kmsi = try await Self.postAssertion(browser, fido, assertion: assertion)
        #expect(try await Self.finish(simulator, browser, kmsi) == 200)
        #expect(simulator.fidoCredentials(for: "alice@contoso.test").first?.signCount == used.signCount)
        #expect(used.signCount == 1)
        #expect(simulator.fidoSignIns(for: "alice@contoso.test") == 1)
        #expect(simulator.passwordSignIns(for: "alice@contoso.test") == 0)

        // With a hint: the page names the registered credential; fido/get's own challenge signed.
        let hinted = Self.browser()
        let hintPage = try await Self.signInPage(simulator, hinted, hint: "alice@contoso.test")
        let standard = Data(credential.credentialID).base64EncodedString()
        #expect(hintPage.config["oGetCredTypeResult"]?["Credentials"]?["HasPassword"] == .bool(true))
        #expect(hintPage.config["oGetCredTypeResult"]?["Credentials"]?["PrefCredential"]?.number == 1)
        #expect(hintPage.config["arrFidoAllowList"] == .array([.string(standard)]))
        let hintFido = try await Self.fidoGet(hinted, hintPage, username: "alice@contoso.test", credentials: standard)
        let (hintAssertion, _) = try Self.entraAssertion(
            simulator, used, challenge: hintFido.config["sFidoChallenge"]?.string ?? "")
        let hintKMSI = try await Self.postAssertion(hinted, hintFido, assertion: hintAssertion)
        #expect(try await Self.finish(simulator, hinted, hintKMSI) == 200)
        #expect(simulator.fidoSignIns(for: "alice@contoso.test") == 2)
    }

    @Test func aProvisionedPasskeyOnlyUserWithALoginHint() async throws {
        // A credential made up front and put in the users JSON, as a test provisions one.
        let credential = try Self.unregisteredCredential()
        let point = try P256PrivateKey(
            pem: Array(
                try #require(
                    try Self.wire(String(decoding: credential.fileContents(), as: UTF8.self))["privateKey"]?
                        .stringValue
                ).utf8)
        ).publicPoint()
        let usersJSON = """
            [{"email": "erin@contoso.test", "displayName": "Erin Passkey",
              "fido": [{"credentialId": "\(Base64URL.encode(credential.credentialID))",
                        "publicKey": "\(Base64URL.encode(point))",
                        "userHandle": "\(Base64URL.encode(credential.userHandle))", "signCount": 0}]}]
            """
        let users = try JSONDecoder().decode([SimulatedUser].self, from: Data(usersJSON.utf8))
        #expect(users[0].hasPassword == false)
        let simulator = try Self.start(users: [SimulatedUser].defaults + users)
        defer { simulator.stop() }
        let browser = Self.browser()
        let page = try await Self.signInPage(simulator, browser, hint: "erin@contoso.test")
        let result = try #require(page.config["oGetCredTypeResult"])
        #expect(result["Credentials"]?["HasFido"] == .bool(true))
        #expect(result["Credentials"]?["HasPassword"] == .bool(false))
        #expect(result["Credentials"]?["PrefCredential"]?.number == 7)
        let standard = Data(credential.credentialID).base64EncodedString()
        #expect(result["Credentials"]?["FidoParams"]?["AllowList"] == .array([.string(standard)]))
        #expect(result["FlowToken"]?.string == page.config["sFT"]?.string)
        #expect(page.config["arrFidoAllowList"] == .array([.string(standard)]))
        #expect(page.config["sPOST_Username"]?.string == "erin@contoso.test")
        let pageChallenge = try #require(page.config["sFidoChallenge"]?.string)

        // GetCredentialType says the same when the page says it supports FIDO, and nothing of FIDO otherwise.
        for supported in [true, false] {
            let answer = try await browser.request(
                try #require(page.config["urlGetCredentialType"]?.string), headers: ["Content-Type: application/json"],
                body: Array(
                    #"{"username":"erin@contoso.test","isFidoSupported":\#(supported),"originalRequest":"\#(page.config["sCtx"]?.string ?? "")"}"#
                        .utf8))
            #expect(answer.json?["Credentials"]?["HasFido"] == .bool(supported))
            #expect(answer.json?["Credentials"]?["HasPassword"] == .bool(false))
            #expect(answer.json?["Credentials"]?["PrefCredential"]?.number == (supported ? 7 : 1))
        }
        // No password matches a passkey-only account, not even an empty one.
        let empty = try await Drivers.entraPostCredentials(browser, page, user: "erin@contoso.test", password: "")
        #expect(empty.config["sErrorCode"]?.string == "50126")

        // The tools' way: fido/get with the user, then the page's own challenge signed.
        let again = try await Self.signInPage(simulator, browser, hint: "erin@contoso.test")
        let hinted = try #require(again.config["sFidoChallenge"]?.string)
        #expect(hinted != pageChallenge)
        let fido = try await Self.fidoGet(browser, again, username: "erin@contoso.test", credentials: standard)
        #expect(fido.config["arrFidoAllowList"] == .array([.string(standard)]))
        let (assertion, _) = try Self.entraAssertion(simulator, credential, challenge: hinted)
        let kmsi = try await Self.postAssertion(browser, fido, assertion: assertion)
        #expect(try await Self.finish(simulator, browser, kmsi) == 200)
        #expect(simulator.fidoCredentials(for: "erin@contoso.test").first?.signCount == 1)
    }

    @Test func webAuthnAsTheSecondFactor() async throws {
        let simulator = try Self.start()
        defer { simulator.stop() }
        let credential = try await Self.register(simulator, user: "bob.mfa@contoso.test")

        // A user agent Entra deems not FIDO-capable sees neither the keys nor FidoKey.
        let curl = Browser()
        let plain = try await Drivers.entraSignInPage(simulator, curl)
        #expect(plain.config["fIsFidoSupported"] == nil && plain.config["urlFidoLogin"] == nil)
        let plainTFA = try await Drivers.entraPostCredentials(
            curl, plain, user: "bob.mfa@contoso.test", password: Self.password)
        #expect(plainTFA.pgid == "ConvergedTFA")
        #expect(plainTFA.config["arrUserProofs"]?.array?.contains { $0["authMethodId"]?.string == "FidoKey" } == false)

        let browser = Self.browser()
        let page = try await Self.signInPage(simulator, browser)
        let tfa = try await Drivers.entraPostCredentials(
            browser, page, user: "bob.mfa@contoso.test", password: Self.password)
        #expect(tfa.pgid == "ConvergedTFA")
        let proofs = try #require(tfa.config["arrUserProofs"]?.array)
        #expect(proofs.contains { $0["authMethodId"]?.string == "FidoKey" })
        #expect(proofs.contains { $0["authMethodId"]?.string == "PhoneAppNotification" })
        let standard = Data(credential.credentialID).base64EncodedString()
        #expect(tfa.config["arrFidoAllowList"] == .array([.string(standard)]))
        #expect(tfa.config["iAllowedIdentities"]?.number == 2)
        let fido = try await Self.fidoGet(
            browser, tfa, username: "bob.mfa@contoso.test", credentials: standard, secondFactor: true)
        #expect(fido.config["urlPost"]?.string == simulator.identityProviderURL + "/common/SAS/ProcessAuth")
        let challenge = try #require(fido.config["sFidoChallenge"]?.string)
        let (assertion, _) = try Self.entraAssertion(simulator, credential, challenge: challenge)
        let kmsi = try await Self.postAssertion(browser, fido, assertion: assertion)
        #expect(try await Self.finish(simulator, browser, kmsi) == 200)
        #expect(simulator.fidoSignIns(for: "bob.mfa@contoso.test") == 1)

        // Another account's key does not complete Bob's second factor.
        let alices = try await Self.register(simulator, user: "alice@contoso.test")
        let other = Self.browser()
        let otherTFA = try await Drivers.entraPostCredentials(
            other, try await Self.signInPage(simulator, other), user: "bob.mfa@contoso.test", password: Self.password)
        let otherFido = try await Self.fidoGet(other, otherTFA, secondFactor: true)
        let (foreign, _) = try Self.entraAssertion(
            simulator, alices, challenge: otherFido.config["sFidoChallenge"]?.string ?? "")
        #expect(Self.refusal(try await Self.postAssertion(other, otherFido, assertion: foreign)) == "user")
        #expect(simulator.fidoCredentials(for: "alice@contoso.test").first?.signCount == 0)

    }

    @Test func aWrongKeyAReplayedCounterAndUVZeroAreRefused() async throws {
        let simulator = try Self.start()
        defer { simulator.stop() }
        let credential = try await Self.register(simulator, user: "alice@contoso.test")

        // Another key's signature under the registered credential's id.
        let stranger = try Self.unregisteredCredential()
        do {
            let browser = Self.browser()
            let fido = try await Self.fidoGet(browser, try await Self.signInPage(simulator, browser))
            let challenge = try #require(fido.config["sFidoChallenge"]?.string)
            let (signed, _) = try Self.entraAssertion(simulator, stranger, challenge: challenge)
            let swapped = signed.replacingOccurrences(
                of: Base64URL.encode(stranger.credentialID), with: Base64URL.encode(credential.credentialID))
            #expect(Self.refusal(try await Self.postAssertion(browser, fido, assertion: swapped)) == "signature")
        }
        // A good sign-in raises the stored counter to 1; the same counter again is a clone's.
        let (first, used) = try await Self.signIn(simulator, Self.browser(), credential)
        #expect(first.pgid == "KmsiInterrupt")
        #expect(used.signCount == 1)
        let (replayed, _) = try await Self.signIn(simulator, Self.browser(), credential)
        #expect(Self.refusal(replayed) == "counter")
        #expect(simulator.fidoCredentials(for: "alice@contoso.test").first?.signCount == 1)  // not updated on refusal
        let (next, _) = try await Self.signIn(simulator, Self.browser(), used)
        #expect(next.pgid == "KmsiInterrupt")

        // UV=0 is refused by default; a wrong origin always.
        for (flags, origin, check) in [
            (UInt8(0x01), simulator.identityProviderURL, "uv"), (0x05, "https://127.0.0.2", "origin"),
            (0x04, simulator.identityProviderURL, "up"),
        ] {
            let browser = Self.browser()
            let fido = try await Self.fidoGet(browser, try await Self.signInPage(simulator, browser))
            let assertion = try Self.handmadeAssertion(
                credential, challenge: fido.config["sFidoChallenge"]?.string ?? "", origin: origin, flags: flags,
                count: 100)
            #expect(Self.refusal(try await Self.postAssertion(browser, fido, assertion: assertion)) == check)
        }
    }

    @Test func userVerificationCanBeOptional() async throws {
        var fido = FidoOptions()
        fido.requireUserVerification = false
        let simulator = try Self.start(fido: fido)
        defer { simulator.stop() }
        // Without UV the passkey is one factor: an MFA user meets ConvergedTFA after it, with UV they do not.
        for (user, flags, pgid) in [
            ("alice@contoso.test", UInt8(0x01), "KmsiInterrupt"), ("bob.mfa@contoso.test", 0x01, "ConvergedTFA"),
            ("bob.mfa@contoso.test", 0x05, "KmsiInterrupt"),
        ] {
            let credential = try await Self.register(simulator, user: user)
            let browser = Self.browser()
            let answer = try await Self.fidoGet(browser, try await Self.signInPage(simulator, browser))
            let assertion = try Self.handmadeAssertion(
                credential, challenge: answer.config["sFidoChallenge"]?.string ?? "",
                origin: simulator.identityProviderURL, flags: flags)
            #expect(try await Self.postAssertion(browser, answer, assertion: assertion).pgid == pgid)
        }
    }

    static func cborHead(_ major: UInt8, _ count: Int) -> [UInt8] {
        count < 24
            ? [major << 5 | UInt8(count)]
            : count < 256
                ? [major << 5 | 24, UInt8(count)] : [major << 5 | 25, UInt8(count >> 8), UInt8(count & 0xff)]
    }

    static func cborText(_ text: String) -> [UInt8] { cborHead(3, text.utf8.count) + Array(text.utf8) }
    static func cborBytes(_ bytes: [UInt8]) -> [UInt8] { cborHead(2, bytes.count) + bytes }

    /// The registration with a `packed` attestation in place of `none`: a self attestation signed by the
    /// credential's key (over another message when `forged`), or with a stand-in `x5c` (Graph's chain is not checked).
    static func packed(
        _ made: (credential: PasskeyCredential, registration: WireJSON, options: WireJSON), x5c: Bool = false,
        forged: Bool = false
    ) throws -> WireJSON {
        let response = try #require(made.registration["response"])
        let authenticatorData = try #require(response["authenticatorData"]?.stringValue.flatMap(Base64URL.decode))
        let clientData = try #require(response["clientDataJSON"]?.stringValue.flatMap(Base64URL.decode))
        let file = try wire(String(decoding: made.credential.fileContents(), as: UTF8.self))
        let key = try P256PrivateKey(pem: Array((file["privateKey"]?.stringValue ?? "").utf8))
        let signature = try key.sign(
            (forged ? [0] : []) + authenticatorData + MessageDigest.hash(.sha256, clientData))
        var statement = cborHead(5, x5c ? 3 : 2) + cborText("alg") + [0x26] + cborText("sig") + cborBytes(signature)
        if x5c { statement += cborText("x5c") + cborHead(4, 1) + cborBytes([UInt8](repeating: 0x30, count: 8)) }
        let object =
            cborHead(5, 3) + cborText("fmt") + cborText("packed") + cborText("attStmt") + statement
            + cborText("authData") + cborBytes(authenticatorData)
        let old = try #require(response["attestationObject"]?.stringValue)
        return try wire(made.registration.serialized().replacingOccurrences(of: old, with: Base64URL.encode(object)))
    }

    @Test func packedAttestationSelfOrWithACertificate() async throws {
        let simulator = try Self.start()
        defer { simulator.stop() }
        let token = try await Self.graphToken(simulator)
        let user = "alice@contoso.test"
        let selfAttested = try await Self.postRegistration(
            simulator, user: user, token: token,
            try Self.packed(try await Self.makeCredential(simulator, user: user, token: token)))
        #expect(selfAttested.status == 201, "\(selfAttested.body)")
        #expect(selfAttested.json?["attestationLevel"]?.string == "notAttested")
        let forged = try await Self.postRegistration(
            simulator, user: user, token: token,
            try Self.packed(try await Self.makeCredential(simulator, user: user, token: token), forged: true))
        #expect(forged.status == 400)

        var enforcing = FidoOptions()
        enforcing.enforceAttestation = true
        let strict = try Self.start(fido: enforcing)
        defer { strict.stop() }
        let strictToken = try await Self.graphToken(strict)
        let refused = try await Self.postRegistration(
            strict, user: user, token: strictToken,
            try Self.packed(try await Self.makeCredential(strict, user: user, token: strictToken)))
        #expect(refused.status == 400)
        let made = try await Self.makeCredential(strict, user: user, token: strictToken)
        let attested = try await Self.postRegistration(
            strict, user: user, token: strictToken, try Self.packed(made, x5c: true))
        #expect(attested.status == 201, "\(attested.body)")
        #expect(attested.json?["attestationLevel"]?.string == "attested")
        // The attested key signs in.
        let (page, _) = try await Self.signIn(strict, Self.browser(), made.credential)
        #expect(page.pgid == "KmsiInterrupt")
    }

    @Test func aChallengeIsSpentOnceAndBoundToItsSession() async throws {
        // The default lifetime here (a loaded machine must not see a challenge expire), one second for the stale one.
        let simulator = try Self.start()
        defer { simulator.stop() }
        let credential = try await Self.register(simulator, user: "alice@contoso.test")
        // Spent: a refused assertion (UV=0) spends its challenge; the right one with it is refused after.
        let browser = Self.browser()
        let fido = try await Self.fidoGet(browser, try await Self.signInPage(simulator, browser))
        let challenge = try #require(fido.config["sFidoChallenge"]?.string)
        let unverified = try Self.handmadeAssertion(
            credential, challenge: challenge, origin: simulator.identityProviderURL, flags: 0x01)
        #expect(Self.refusal(try await Self.postAssertion(browser, fido, assertion: unverified)) == "uv")
        let (again, _) = try Self.entraAssertion(simulator, credential, challenge: challenge)
        #expect(Self.refusal(try await Self.postAssertion(browser, fido, assertion: again)) == "challenge")

        // Foreign: another session's fresh challenge, posted in this one's flow, is refused and stays the other's.
        let victim = Self.browser()
        let victimFido = try await Self.fidoGet(victim, try await Self.signInPage(simulator, victim))
        let victimChallenge = try #require(victimFido.config["sFidoChallenge"]?.string)
        let attacker = Self.browser()
        let attackerFido = try await Self.fidoGet(attacker, try await Self.signInPage(simulator, attacker))
        let (foreign, _) = try Self.entraAssertion(simulator, credential, challenge: victimChallenge)
        #expect(Self.refusal(try await Self.postAssertion(attacker, attackerFido, assertion: foreign)) == "challenge")
        let (own, _) = try Self.entraAssertion(simulator, credential, challenge: victimChallenge)
        #expect(try await Self.postAssertion(victim, victimFido, assertion: own).pgid == "KmsiInterrupt")

        // Stale: past its lifetime (one second here).
        var fast = FidoOptions()
        fast.challengeLifetimeSeconds = 1
        let quick = try Self.start(fido: fast)
        defer { quick.stop() }
        let quickCredential = try await Self.register(quick, user: "alice@contoso.test")
        let slow = Self.browser()
        let slowFido = try await Self.fidoGet(slow, try await Self.signInPage(quick, slow))
        try await Task.sleep(for: .milliseconds(2_100))
        let (late, _) = try Self.entraAssertion(
            quick, quickCredential, challenge: slowFido.config["sFidoChallenge"]?.string ?? "")
        #expect(Self.refusal(try await Self.postAssertion(slow, slowFido, assertion: late)) == "challenge")
    }

    @Test func unknownBlockedAndDisabledCredentialsHaveTheirCodes() async throws {
        // 500344: a credential Entra never registered.
        do {
            let simulator = try Self.start()
            defer { simulator.stop() }
            let (page, _) = try await Self.signIn(simulator, Self.browser(), try Self.unregisteredCredential())
            #expect(page.pgid == "ConvergedError")
            #expect(page.config["sErrorCode"]?.string == "500344")
            #expect(page.config["iErrorCode"]?.string == "500344")
            #expect(page.config["strServiceExceptionMessage"]?.string?.hasPrefix("AADSTS500344") == true)
        }
        // 135016: the tenant's policy blocks FIDO2.
        do {
            var fido = FidoOptions()
            fido.blockedByPolicy = true
            let simulator = try Self.start(fido: fido)
            defer { simulator.stop() }
            let credential = try await Self.register(simulator, user: "alice@contoso.test")
            let (page, _) = try await Self.signIn(simulator, Self.browser(), credential)
            #expect(page.config["sErrorCode"]?.string == "135016")
            #expect(page.config["sErrTxt"]?.string?.contains("FidoBlockedByPolicy") == true)
        }
        // 135011: an administrator disabled the device.
        do {
            let credential = try Self.unregisteredCredential()
            let file = try Self.wire(String(decoding: credential.fileContents(), as: UTF8.self))
            let point = try P256PrivateKey(pem: Array((file["privateKey"]?.stringValue ?? "").utf8)).publicPoint()
            var user = SimulatedUser(email: "frank@contoso.test", password: Self.password, displayName: "Frank")
            user.fido = [
                FidoCredentialProfile(
                    credentialId: Base64URL.encode(credential.credentialID), publicKey: Base64URL.encode(point),
                    disabled: true)
            ]
            let simulator = try Self.start(users: [user])
            defer { simulator.stop() }
            let (page, _) = try await Self.signIn(simulator, Self.browser(), credential)
            #expect(page.config["sErrorCode"]?.string == "135011")
            #expect(
                page.config["sErrTxt"]?.string == "AADSTS135011: Device used during the authentication is disabled.")
        }
    }

    @Test func graphNeedsATokenForGraphWithAPasskeyPermission() async throws {
        let legacy = "88888888-8888-4888-8888-888888888888"
        let reader = "99999999-9999-4999-8999-999999999999"
        let simulator = try Self.start(
            apps: [SimulatedApp].defaults + [
                SimulatedApp(
                    appId: legacy, displayName: "legacy", secret: "legacy-secret-0123456789",
                    roles: ["UserAuthenticationMethod.ReadWrite.All"]),
                SimulatedApp(
                    appId: reader, displayName: "reader", secret: "reader-secret-0123456789", roles: ["User.Read.All"]),
            ])
        defer { simulator.stop() }
        let url = Self.graph(simulator, "/users/alice@contoso.test/authentication/fido2Methods/creationOptions")
        let none = try await Browser().request(url)
        #expect(none.status == 401)
        #expect(none.json?["error"]?["code"]?.string == "InvalidAuthenticationToken")
        let readerToken = try await Self.graphToken(simulator, appId: reader, secret: "reader-secret-0123456789")
        let denied = try await Browser().request(url, headers: ["Authorization: Bearer \(readerToken)"])
        #expect(denied.status == 403)
        #expect(denied.json?["error"]?["code"]?.string == "accessDenied")
        #expect(denied.json?["error"]?["innerError"]?["request-id"]?.string != nil)
        let sharePointToken = try await Self.graphToken(simulator, scope: simulator.siteURL + "/.default")
        let audience = try await Browser().request(url, headers: ["Authorization: Bearer \(sharePointToken)"])
        #expect(audience.status == 401)
        #expect(audience.json?["error"]?["message"]?.string?.contains("audience") == true)
        let legacyToken = try await Self.graphToken(simulator, appId: legacy, secret: "legacy-secret-0123456789")
        let allowed = try await Browser().request(url, headers: ["Authorization: Bearer \(legacyToken)"])
        #expect(allowed.status == 200, "\(allowed.body)")
        // The creation options Graph documents.
        let options = try #require(allowed.json?["publicKey"])
        #expect(options["rp"]?["id"]?.string == "127.0.0.2")
        #expect(options["rp"]?["name"]?.string == "Microsoft")
        #expect(options["attestation"]?.string == "direct")
        #expect(options["pubKeyCredParams"]?[0]?["alg"]?.number == -7)
        #expect(options["authenticatorSelection"]?["requireResidentKey"] == .bool(true))
        #expect(options["authenticatorSelection"]?["userVerification"]?.string == "required")
        let handle = try #require(options["user"]?["id"]?.string.flatMap(Base64URL.decode))
        #expect(handle.prefix(3) == Array("ON:".utf8)[...] && handle.count == 3 + 16 + 32)
        #expect(allowed.json?["challengeTimeoutDateTime"]?.string?.hasSuffix("Z") == true)
        // By object id too, and beta's timeout; v1.0 has no parameter and beta keeps it within 5–43200 minutes.
        let beta = try await Browser().request(
            Self.graph(
                simulator,
                "/users/alice@contoso.test/authentication/fido2Methods/creationOptions(challengeTimeoutInMinutes=10)",
                version: "beta"), headers: ["Authorization: Bearer \(legacyToken)"])
        #expect(beta.status == 200)
        #expect(beta.json?["publicKey"]?["timeout"]?.number == 600_000)
        let tooShort = try await Browser().request(
            Self.graph(
                simulator,
                "/users/alice@contoso.test/authentication/fido2Methods/creationOptions(challengeTimeoutInMinutes=2)",
                version: "beta"), headers: ["Authorization: Bearer \(legacyToken)"])
        #expect(tooShort.status == 400)
        let unknown = try await Browser().request(
            Self.graph(simulator, "/users/nobody@contoso.test/authentication/fido2Methods/creationOptions"),
            headers: ["Authorization: Bearer \(legacyToken)"])
        #expect(unknown.status == 404)
    }

    @Test func registrationChecksAndEnforcedAttestation() async throws {
        var enforcing = FidoOptions()
        enforcing.enforceAttestation = true
        let strict = try Self.start(fido: enforcing)
        defer { strict.stop() }
        let token = try await Self.graphToken(strict)
        let made = try await Self.makeCredential(strict, user: "alice@contoso.test", token: token)
        let refused = try await Self.postRegistration(
            strict, user: "alice@contoso.test", token: token, made.registration)
        #expect(refused.status == 400)
        #expect(refused.json?["error"]?["message"]?.string?.contains("attestation") == true)
        #expect(strict.fidoCredentials(for: "alice@contoso.test").isEmpty)

        let simulator = try Self.start()
        defer { simulator.stop() }
        let graphToken = try await Self.graphToken(simulator)
        // The wrong origin (the served one: a Graph registration names https://{rp.id}).
        let elsewhere = try await Self.makeCredential(
            simulator, user: "alice@contoso.test", token: graphToken, origin: simulator.identityProviderURL)
        let wrongOrigin = try await Self.postRegistration(
            simulator, user: "alice@contoso.test", token: graphToken, elsewhere.registration)
        #expect(wrongOrigin.status == 400)
        // Another user's challenge, and a format Graph does not take.
        let bobs = try await Self.makeCredential(simulator, user: "bob.mfa@contoso.test", token: graphToken)
        let otherUser = try await Self.postRegistration(
            simulator, user: "alice@contoso.test", token: graphToken, bobs.registration)
        #expect(otherUser.status == 400)
        let made2 = try await Self.makeCredential(simulator, user: "alice@contoso.test", token: graphToken)
        let attestation = try #require(made2.registration["response"]?["attestationObject"]?.stringValue)
        var bytes = try #require(Base64URL.decode(attestation))
        let none = [0x64] + Array("none".utf8)
        let at = try #require((0...(bytes.count - none.count)).first { Array(bytes[$0..<$0 + none.count]) == none })
        bytes.replaceSubrange(at..<at + none.count, with: [0x64] + Array("tpmx".utf8))
        let patched = try Self.wire(
            made2.registration.serialized().replacingOccurrences(of: attestation, with: Base64URL.encode(bytes)))
        let unsupported = try await Self.postRegistration(
            simulator, user: "alice@contoso.test", token: graphToken, patched)
        #expect(unsupported.status == 400)
        #expect(unsupported.json?["error"]?["message"]?.string?.contains("tpmx") == true)
        // The challenge was spent by the refused attempt: a new one registers.
        let good = try await Self.makeCredential(simulator, user: "alice@contoso.test", token: graphToken)
        let created = try await Self.postRegistration(
            simulator, user: "alice@contoso.test", token: graphToken, good.registration)
        #expect(created.status == 201, "\(created.body)")
        #expect(created.json?["id"]?.string == Base64URL.encode(good.credential.credentialID))
        #expect(created.json?["displayName"]?.string == "spconnect key")
        #expect(created.json?["aaGuid"]?.string == "00000000-0000-0000-0000-000000000000")
        #expect(created.json?["attestationLevel"]?.string == "notAttested")
        #expect(created.json?["passkeyType"]?.string == "deviceBound")
        let again = try await Self.postRegistration(
            simulator, user: "alice@contoso.test", token: graphToken, good.registration)
        #expect(again.status == 400)  // the challenge is spent
        let list = try await Browser().request(
            Self.graph(simulator, "/users/alice@contoso.test/authentication/fido2Methods"),
            headers: ["Authorization: Bearer \(graphToken)"])
        #expect(list.json?["value"]?.array?.count == 1)
        // The next creation options exclude it.
        #expect(
            (try await Self.makeCredential(simulator, user: "alice@contoso.test", token: graphToken)).options[
                "publicKey"]?["excludeCredentials"]?[0]?["id"]?.stringValue
                == Base64URL.encode(good.credential.credentialID))
        // Deleted, it signs in no more.
        let deleted = try await Browser().request(
            Self.graph(
                simulator,
                "/users/alice@contoso.test/authentication/fido2Methods/\(Base64URL.encode(good.credential.credentialID))"
            ),
            method: "DELETE", headers: ["Authorization: Bearer \(graphToken)"])
        #expect(deleted.status == 204)
        let (page, _) = try await Self.signIn(simulator, Self.browser(), good.credential)
        #expect(page.config["sErrorCode"]?.string == "500344")
    }
}
