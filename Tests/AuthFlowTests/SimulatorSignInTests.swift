import AuthFlow
import Foundation
import SPSim
import Synchronization
import Testing
import Transport

/// The sign-in engine end to end against the simulator, in every sign-in mode, over real loopback HTTP.
@Suite struct SimulatorSignInTests {
    static let password = "Spring2026!"

    struct Run {
        let outcome: SignInOutcome
        let trace: [SignInTraceStep]
        let client: HTTPClient
    }

    static func signIn(
        _ simulator: Simulator, user: String, password: String = password, flow: SignInFlow = .auto,
        staySignedIn: Bool = false, loginURL: String? = nil, targetCookies: [String] = []
    ) async throws -> Run {
        let client = try HTTPClient()
        let steps = StepRecorder()
        let outcome = await SignIn(
            client: client,
            configuration: SignInConfiguration(
                siteURL: simulator.siteURL, username: user, password: Secret(password), flow: flow,
                policy: SignInPolicy(allowHTTPLoopback: true), staySignedIn: staySignedIn,
                targetCookies: targetCookies, loginURL: loginURL),
            options: SignIn.Options(trace: steps.add)
        ).run()
        return Run(outcome: outcome, trace: steps.all, client: client)
    }

    @Test(arguments: [SignInMode.entra, .adfs, .fba, .fbaWindows])
    func aliceSignsInAndTheSessionReadsTheWeb(mode: SignInMode) async throws {
        let simulator = try Simulator(SimulatorOptions(mode: mode))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: "alice@contoso.test")
        guard case .signedIn(let session) = run.outcome else {
            let steps = run.trace.map(\.jsonLine).joined(separator: "\n")
            Issue.record("\(mode): \(run.outcome.message)\n\(steps)")
            return
        }
        #expect(session.cookies.contains { $0.name == "FedAuth" })
        #expect(session.displayName?.isEmpty == false)
        let expectedFlow: [SignInMode: String] = [.entra: "entra", .adfs: "adfs", .fba: "fba", .fbaWindows: "fba"]
        #expect(session.flow == expectedFlow[mode])
        // The password went only to the host that served the sign-in form.
        let passwordHosts = Set(
            simulator.requestLog().filter { $0.formFields.contains { $0.value == Self.password } }.map(\.host))
        #expect(passwordHosts == [mode == .entra || mode == .adfs ? "127.0.0.2" : "127.0.0.1"])
        #expect(!simulator.requestLog().contains { $0.path.lowercased().contains("jsdisabled") })
        let web = try await run.client.execute(
            HTTPRequest(
                url: simulator.siteURL + "/_api/web?$select=Title",
                headers: ["Accept": "application/json;odata=nometadata"]))
        #expect(web.status == 200)
        let text = run.trace.map(\.jsonLine).joined(separator: "\n")
        #expect(!text.contains(Self.password))
        for cookie in session.cookies { #expect(!text.contains(cookie.value)) }
    }
}

extension SimulatorSignInTests {
    @Test(arguments: [SignInMode.entra, .adfs, .fba])
    func wrongPasswordCarriesThePagesMessage(mode: SignInMode) async throws {
        let simulator = try Simulator(SimulatorOptions(mode: mode))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: "alice@contoso.test", password: "Autumn2025?")
        guard case .invalidCredentials(let message, let code) = run.outcome else {
            Issue.record("\(mode): expected invalidCredentials, got \(run.outcome.message)")
            return
        }
        #expect(!message.isEmpty)
        #expect(!message.contains("<"), "markup leaked into the message: \(message)")
        if mode == .entra { #expect(code == "50126") }
    }

    @Test(arguments: [
        ("carol.ca@contoso.test", InteractionKind.conditionalAccess), ("dave.expired@contoso.test", .passwordChange),
    ])
    func interruptsAreTyped(user: String, expected: InteractionKind) async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: user)
        guard case .interactionRequired(let kind, let pageId, _, _, _) = run.outcome else {
            Issue.record("\(user): expected interactionRequired, got \(run.outcome.message)")
            return
        }
        #expect(kind == expected)
        #expect(pageId?.isEmpty == false)
    }

    @Test func staySignedInAnswersKMSIWithYes() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: "alice@contoso.test", staySignedIn: true)
        guard case .signedIn = run.outcome else {
            Issue.record("\(run.outcome.message)")
            return
        }
        let answers = simulator.requestLog().compactMap { request in
            request.formFields.first { $0.name == "LoginOptions" && request.path.hasSuffix("/kmsi") }?.value
        }
        #expect(answers == ["1"])
    }

    @Test func adfsPostCarriesOnlyTheLoginFormsFields() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .adfs))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: "alice@contoso.test")
        guard case .signedIn = run.outcome else {
            Issue.record("\(run.outcome.message)")
            return
        }
        let post = try #require(
            simulator.requestLog().first { request in
                request.method == "POST" && request.formFields.contains { $0.name == "Password" }
            })
        let names = post.formFields.map(\.name)
        #expect(names.filter { $0 == "AuthMethod" }.count == 1)
        #expect(!names.contains("Kmsi"))
        #expect(Set(names).count == names.count)
    }

    @Test func fbaPostsTheClickedLoginButton() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .fba))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: "alice@contoso.test", flow: .fba)
        guard case .signedIn = run.outcome else {
            Issue.record("\(run.outcome.message)")
            return
        }
        let post = try #require(
            simulator.requestLog().first { request in
                request.method == "POST" && request.formFields.contains { $0.value == Self.password }
            })
        #expect(post.formFields.contains { $0.name == "ctl00$PlaceHolderMain$signInControl$login" })
        #expect(post.formFields.contains { $0.name == "__VIEWSTATE" && !$0.value.isEmpty })
        #expect(post.formFields.contains { $0.name == "__EVENTVALIDATION" && !$0.value.isEmpty })
    }

    @Test func basicFlowProvesWithTheCredentials() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .basic))
        defer { simulator.stop() }
        let good = try await Self.signIn(simulator, user: "alice@contoso.test", flow: .basic)
        guard case .signedIn(let session) = good.outcome else {
            Issue.record("\(good.outcome.message)")
            return
        }
        #expect(session.flow == "basic")
        let bad = try await Self.signIn(simulator, user: "alice@contoso.test", password: "nope", flow: .basic)
        guard case .invalidCredentials = bad.outcome else {
            Issue.record("expected invalidCredentials, got \(bad.outcome.message)")
            return
        }
    }
}

extension SimulatorSignInTests {
    @Test func legacyRouteSignsInWhenTheServerStillAllowsIt() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .legacySPO))
        defer { simulator.stop() }
        let run = try await Self.signIn(
            simulator, user: "alice@contoso.test", flow: .legacySPO, loginURL: simulator.identityProviderURL)
        guard case .signedIn(let session) = run.outcome else {
            Issue.record("\(run.outcome.message)")
            return
        }
        #expect(session.flow == "legacy-spo")
        #expect(Set(session.cookies.map(\.name)).isSuperset(of: ["FedAuth", "rtFa"]))
        #expect(!run.trace.map(\.jsonLine).joined().contains(Self.password))
    }

    @Test func legacyRouteTypedFailures() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .legacySPO))
        defer { simulator.stop() }
        let wrong = try await Self.signIn(
            simulator, user: "alice@contoso.test", password: "nope", flow: .legacySPO,
            loginURL: simulator.identityProviderURL)
        guard case .invalidCredentials(_, let code) = wrong.outcome else {
            Issue.record("expected invalidCredentials, got \(wrong.outcome.message)")
            return
        }
        #expect(code == "50126")
        let mfa = try await Self.signIn(
            simulator, user: "bob.mfa@contoso.test", flow: .legacySPO, loginURL: simulator.identityProviderURL)
        guard case .interactionRequired(.mfa, _, _, _, _) = mfa.outcome else {
            Issue.record("expected MFA, got \(mfa.outcome.message)")
            return
        }
    }

    @Test func legacyRouteRefusedAsOnlineNowDoesSaysWhatToUse() async throws {
        var options = SimulatorOptions(mode: .legacySPO)
        options.legacyRefused = true
        let simulator = try Simulator(options)
        defer { simulator.stop() }
        let run = try await Self.signIn(
            simulator, user: "alice@contoso.test", flow: .legacySPO, loginURL: simulator.identityProviderURL)
        guard case .unknownPage(let kind, _, _, _) = run.outcome else {
            Issue.record("expected a refusal, got \(run.outcome.message)")
            return
        }
        #expect(kind.contains("browser route"), "\(kind)")
        #expect(run.outcome.hints.contains(.tryFlows([.entra])), "\(run.outcome.hints)")
    }
}

extension SimulatorSignInTests {
    @Test(arguments: [(SignInMode.fba, SignInFlow.fbaSOAP), (.adfs, .adfsWSTrust), (.fbaWindows, .ntlm)])
    func serviceRoutesSignInAndRejectWrongPasswords(mode: SignInMode, flow: SignInFlow) async throws {
        let simulator = try Simulator(SimulatorOptions(mode: mode))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: "alice@contoso.test", flow: flow)
        guard case .signedIn(let session) = run.outcome else {
            let steps = run.trace.map(\.jsonLine).joined(separator: "\n")
            Issue.record("\(flow): \(run.outcome.message)\n\(steps)")
            return
        }
        #expect(session.flow == flow.rawValue)
        #expect(session.cookies.contains { $0.name == "FedAuth" })
        // No HTML sign-in page was needed: the password never went into a form field.
        #expect(!simulator.requestLog().contains { $0.formFields.contains { $0.value == Self.password } })
        #expect(!run.trace.map(\.jsonLine).joined().contains(Self.password))

        let wrong = try await Self.signIn(simulator, user: "alice@contoso.test", password: "nope", flow: flow)
        guard case .invalidCredentials = wrong.outcome else {
            Issue.record("\(flow): expected invalidCredentials, got \(wrong.outcome.message)")
            return
        }
    }
}

final class StepRecorder: Sendable {
    private let steps = Mutex<[SignInTraceStep]>([])
    @Sendable func add(_ step: SignInTraceStep) { steps.withLock { $0.append(step) } }
    var all: [SignInTraceStep] { steps.withLock { $0 } }
}

extension SimulatorSignInTests {
    static let frank = SimulatedUser(
        email: "frank@fabrikam.test", password: "Autumn2026!", displayName: "Frank Federated", federated: true)

    /// A federated account: Entra's `GetCredentialType` names the organisation's ADFS, on a host of its own
    /// (127.0.0.3), whose form takes the password; its WS-Federation auto-post returns to Entra (127.0.0.2), which
    /// finishes the sign-in.
    @Test func federatedAccountSignsInAtItsOrganisationsADFS() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra, users: .defaults + [Self.frank]))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: Self.frank.email, password: Self.frank.password)
        let steps = run.trace.map(\.jsonLine).joined(separator: "\n")
        guard case .signedIn(let session) = run.outcome else {
            Issue.record("\(run.outcome.message)\n\(steps)")
            return
        }
        #expect(session.cookies.contains { $0.name == "FedAuth" })
        #expect(session.flow == "entra")
        let log = simulator.requestLog()
        // The password went to ADFS's own form on the organisation's host, and nowhere else: not to Entra.
        let withPassword = log.filter { request in
            request.formFields.contains { $0.value == Self.frank.password } || request.query.contains("Autumn2026")
        }
        #expect(withPassword.map(\.host) == ["127.0.0.3"])
        #expect(withPassword.map(\.path) == ["/adfs/ls/"])
        // The user name question (GetCredentialType, with the flow token) and every flow-token post went to Entra
        // only; the organisation's host was asked for its sign-in page and nothing else.
        let question = log.filter { $0.path.lowercased().hasSuffix("/getcredentialtype") }
        #expect(!question.isEmpty && question.allSatisfy { $0.host == "127.0.0.2" })
        let flowTokenPosts = log.filter { $0.formFields.contains { $0.name == "flowToken" } }
        #expect(!flowTokenPosts.isEmpty && flowTokenPosts.allSatisfy { $0.host == "127.0.0.2" })
        #expect(log.filter { $0.host == "127.0.0.3" }.allSatisfy { $0.path.lowercased() == "/adfs/ls/" })
        #expect(log.contains { $0.method == "POST" && $0.path.lowercased() == "/login.srf" && $0.host == "127.0.0.2" })
        // The trace shows the way: GetCredentialType, then the ADFS page named by Entra, then the form post.
        #expect(run.trace.contains { $0.decision?.contains("FederationRedirectUrl") == true })
        #expect(run.trace.contains { $0.method == "GET" && $0.url.contains("/adfs/ls/") })
        #expect(
            run.trace.contains {
                $0.method == "POST" && URLComponents(string: $0.url)?.host == "127.0.0.3"
                    && $0.url.contains("/adfs/ls/") && $0.fieldsSent.contains("Password")
            })
        #expect(!steps.contains(Self.frank.password))
    }

    @Test func federatedAccountWithAWrongPasswordGetsADFSsMessage() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra, users: .defaults + [Self.frank]))
        defer { simulator.stop() }
        let run = try await Self.signIn(simulator, user: Self.frank.email, password: "Winter2025?")
        guard case .invalidCredentials(let message, _) = run.outcome else {
            Issue.record("expected invalidCredentials, got \(run.outcome.message)")
            return
        }
        #expect(message.contains("Incorrect user ID or password"))
    }
}
