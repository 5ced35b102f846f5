import Transport

/// One way of reading a sign-in page. Strategies are asked in order; the first that recognises the page
/// decides. They share the HTML module's form rules through `PageForm.submission`.
protocol SignInStrategy: Sendable {
    /// A short name for traces.
    var name: String { get }
    /// The next move for `page`, or nil when the page is not this strategy's.
    func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision?
    /// The next move for an answer that is not a page (JSON) to a request this strategy sent, or nil.
    func decide(onJSON response: SignInResponse, state: inout FlowState) -> StrategyDecision?
}

extension SignInStrategy {
    func decide(onJSON response: SignInResponse, state: inout FlowState) -> StrategyDecision? { nil }
}

/// What a strategy decided.
enum StrategyDecision {
    case send(SignInRequest, note: String)
    case finish(SignInOutcome)
    /// Ask the driver for a one-time code, then fill the pending form with it.
    case askCode(PendingCode)
}

/// What the machine remembers across pages of one sign-in.
struct FlowState: Sendable {
    let configuration: SignInConfiguration
    var usernameSubmitted = false
    var passwordSubmitted = false
    /// One-time codes sent so far (a code page shown again means the last was refused).
    var codesSubmitted = 0
    var interruptsAnswered = 0
    /// The flow recognised from the page that took the password (`entra`, `adfs`, `fba`, `forms`).
    var detectedFlow: SignInFlow?
    /// Entra's sign-in page whose `GetCredentialType` question is waiting for its JSON answer.
    var credentialTypeQuestion: PageFacts?
    /// `GetCredentialType` was asked once in this sign-in (it is not asked again).
    var credentialTypeAsked = false
    /// HTTP authentication the provider chooser's choice needs (NTLM after choosing Windows): the machine
    /// gives it to the redirect that answers the post-back, on the same host only.
    var providerAuthentication: Authentication?
}
