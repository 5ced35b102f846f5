import TransportValues

/// One way of reading a sign-in page. Strategies are asked in order; the first that recognises the page
/// decides. They share the HTML module's form rules through `PageForm.submission`.
///
/// A strategy is a value the machine keeps for the whole sign-in: what only it needs to remember (a question it
/// asked and waits an answer for) is its own stored state, changed by its `mutating` decisions. What every
/// strategy reads (was the password sent, which flow took it) is the sign-in's ``FlowState``.
protocol SignInStrategy: Sendable {
    /// A short name for traces.
    var name: String { get }
    /// The next move for `page`, or nil when the page is not this strategy's.
    mutating func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision?
    /// The next move for an answer that is not a page (JSON) to a request this strategy sent, or nil.
    mutating func decide(onJSON response: SignInResponse, state: inout FlowState) -> StrategyDecision?
}

extension SignInStrategy {
    mutating func decide(onJSON response: SignInResponse, state: inout FlowState) -> StrategyDecision? { nil }
}

/// What a strategy decided.
enum StrategyDecision {
    case send(SignInRequest, note: String)
    case finish(SignInOutcome)
    /// Ask the driver for a one-time code, then fill the pending form with it.
    case askCode(PendingCode)
}

/// What the sign-in as a whole has done so far, shared by every strategy: the sign-in's own state, which the
/// page rules read ("after the password went, the same form back means a wrong password"). A strategy's private
/// memory lives in the strategy.
struct FlowState: Sendable {
    let configuration: SignInConfiguration
    var usernameSubmitted = false
    var passwordSubmitted = false
    /// What the sign-in may still spend: requests, interrupts answered, one-time codes sent.
    var budget: SignInBudget
    /// The flow recognised from the page that took the password (`entra`, `adfs`, `fba`, `forms`).
    var detectedFlow: SignInFlow?
    /// The page the user name or password was last typed on (see ``SubmittedPage``).
    var submittedPage: SubmittedPage?
    /// What each page rule remembers across pages, under the rule (see ``RememberingRule``).
    var ruleMemories = RuleMemories()

    init(configuration: SignInConfiguration) {
        self.configuration = configuration
        budget = SignInBudget(maxSteps: configuration.policy.maxSteps)
    }
}
