import HTML

/// One way of recognising a kind of page, from generic signals only (HTML semantics, field roles, the protocols'
/// fields, the words of ``SignInLexicon``), never one vendor's element ids or one page's wording.
///
/// The rules are asked in ``PageClassifier/rules``' order and the first that answers decides, so a rule may
/// take for granted that every earlier one declined the page. A rule that finds a kind of its own can also say
/// what the sign-in does on it (``decide(on:state:)``); the kinds the forms strategy knows keep their handling
/// there.
protocol PageRule: Sendable {
    /// The page's classification, or nil when the page is not this rule's.
    func classify(_ evidence: PageEvidence) -> PageClassification?
    /// The sign-in's next move on a page this rule classified, or nil to leave it to the forms strategy.
    func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision?
}

extension PageRule {
    func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision? { nil }
}
