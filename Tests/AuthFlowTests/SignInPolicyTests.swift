import AuthFlow
import Testing

@Suite struct SignInPolicyTests {
    let page = "https://login.contoso.test/adfs/ls/?wa=wsignin1.0"

    @Test func postToTheFormsOwnHostOverHTTPSIsAllowed() throws {
        try SignInPolicy().checkCredentialSubmission(
            method: "post", action: "https://LOGIN.contoso.test/adfs/ls/", pageURL: page)
    }

    @Test(arguments: [
        (
            "GET", "https://login.contoso.test/adfs/ls/",
            SignInPolicy.Refusal.passwordInURL(action: "https://login.contoso.test/adfs/ls/")
        ),
        ("POST", "javascript:void(0)", .notHTTP(action: "javascript:void(0)")),
        ("POST", "http://login.contoso.test/adfs/ls/", .plainHTTP(action: "http://login.contoso.test/adfs/ls/")),
        (
            "POST", "https://evil.test/collect",
            .foreignHost(action: "https://evil.test/collect", formHost: "login.contoso.test")
        ),
    ])
    func refusals(method: String, action: String, expected: SignInPolicy.Refusal) {
        #expect(throws: expected) {
            try SignInPolicy().checkCredentialSubmission(method: method, action: action, pageURL: page)
        }
    }

    /// A user name alone may go in a GET query; the other rules still hold for it, and a password never may.
    @Test func aUsernameOnlySubmissionMayUseGetButNothingElseChanges() throws {
        let policy = SignInPolicy()
        try policy.checkCredentialSubmission(
            method: "GET", action: "https://login.contoso.test/next", pageURL: page, includesPassword: false)
        #expect(throws: SignInPolicy.Refusal.passwordInURL(action: "https://login.contoso.test/next")) {
            try policy.checkCredentialSubmission(
                method: "GET", action: "https://login.contoso.test/next", pageURL: page)
        }
        #expect(throws: SignInPolicy.Refusal.plainHTTP(action: "http://login.contoso.test/next")) {
            try policy.checkCredentialSubmission(
                method: "GET", action: "http://login.contoso.test/next", pageURL: page, includesPassword: false)
        }
        let foreign = SignInPolicy.Refusal.foreignHost(action: "https://evil.test/next", formHost: "login.contoso.test")
        #expect(throws: foreign) {
            try policy.checkCredentialSubmission(
                method: "GET", action: "https://evil.test/next", pageURL: page, includesPassword: false)
        }
    }

    @Test func allowedHostsOpenOneMoreDestination() throws {
        let policy = SignInPolicy(allowedHosts: ["STS.contoso.test"])
        try policy.checkCredentialSubmission(method: "POST", action: "https://sts.contoso.test/x", pageURL: page)
        #expect(throws: SignInPolicy.Refusal.self) {
            try policy.checkCredentialSubmission(method: "POST", action: "https://other.test/x", pageURL: page)
        }
    }

    /// Origin = scheme, host and port: a form's own host on another port is another destination, and
    /// `--allow-host HOST:PORT` names exactly one.
    @Test func theCredentialRuleIsPerOrigin() throws {
        let policy = SignInPolicy()
        #expect(throws: SignInPolicy.Refusal.self) {
            try policy.checkCredentialSubmission(
                method: "POST", action: "https://login.contoso.test:8443/x", pageURL: page)
        }
        try policy.checkCredentialSubmission(method: "POST", action: "https://login.contoso.test:443/x", pageURL: page)
        let withPort = SignInPolicy(allowedHosts: ["login.contoso.test:8443", "[::1]:9443"])
        try withPort.checkCredentialSubmission(
            method: "POST", action: "https://login.contoso.test:8443/x", pageURL: page)
        #expect(throws: SignInPolicy.Refusal.self) {
            try withPort.checkCredentialSubmission(
                method: "POST", action: "https://login.contoso.test:9443/x", pageURL: page)
        }
        #expect(withPort.mayShareCredentials(from: page, to: "https://[::1]:9443/y"))
        #expect(!withPort.mayShareCredentials(from: page, to: "https://[::1]/y"))
        #expect(
            !SignInPolicy(allowedHosts: ["sts.contoso.test"]).mayShareCredentials(
                from: page, to: "https://sts.contoso.test:8443/"))
    }

    @Test func plainHTTPOnlyToLoopbackAndOnlyWhenAllowed() throws {
        let loopbackPage = "http://127.0.0.2:8080/login"
        #expect(throws: SignInPolicy.Refusal.plainHTTP(action: "http://127.0.0.2:8080/post")) {
            try SignInPolicy().checkCredentialSubmission(
                method: "POST", action: "http://127.0.0.2:8080/post", pageURL: loopbackPage)
        }
        let relaxed = SignInPolicy(allowHTTPLoopback: true)
        try relaxed.checkCredentialSubmission(
            method: "POST", action: "http://127.0.0.2:8080/post", pageURL: loopbackPage)
        #expect(throws: SignInPolicy.Refusal.self) {
            try relaxed.checkCredentialSubmission(
                method: "POST", action: "http://example.test/post", pageURL: "http://example.test/login")
        }
    }

    @Test func downgradeStopsTheFlow() throws {
        try SignInPolicy().checkHop(from: "http://127.0.0.1/a", to: "https://127.0.0.1/b")
        #expect(throws: SignInPolicy.Refusal.downgrade(from: "https://a.test/", to: "http://a.test/")) {
            try SignInPolicy().checkHop(from: "https://a.test/", to: "http://a.test/")
        }
    }

    @Test func refusalsNameTheRemedyAsATypedHint() {
        let refusal = SignInPolicy.Refusal.foreignHost(action: "https://x.test:8443/", formHost: "login.test")
        #expect(refusal.hints == [.allowHost("x.test:8443")])
        #expect(SignInOutcome.policyRefused(refusal).hints == [.allowHost("x.test:8443")])
        #expect(SignInPolicy.Refusal.plainHTTP(action: "http://x.test/").hints == [.allowPlainHTTPOnLoopback])
        #expect(!refusal.description.contains("--"), "a CLI option in the engine's words: \(refusal.description)")
    }
}

/// The flow registry has one row per flow, and the help names each.
@Suite struct FlowRegistryTests {
    /// Every flow declared as a static member, and a name no row has.
    static let declared: [SignInFlow] = [
        .auto, .entra, .adfs, .fba, .forms, .ntlm, .basic, .kerberos, .anonymous, .legacySPO, .adfsWSTrust, .fbaSOAP,
    ]

    @Test func everyFlowHasOneRowAndAHelpLine() {
        for flow in Self.declared {
            #expect(SignInFlow(rawValue: flow.rawValue) == flow, "\(flow) has no row in the registry")
            #expect(SignInFlow.allCases.filter { $0 == flow }.count == 1, "\(flow) has several rows")
            #expect(SignInFlow.helpLines.contains { $0.hasPrefix(flow.rawValue + ": ") }, "\(flow)")
        }
        #expect(SignInFlow.helpLines.count == SignInFlow.allCases.count)
        #expect(SignInFlow(rawValue: "spnego") == nil)
    }
}
