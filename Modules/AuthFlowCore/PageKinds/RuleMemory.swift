/// A page rule that remembers something across the pages of one sign-in (a choice it already tried): its memory is
/// its own type, kept in the sign-in's ``FlowState`` under the rule and read and written only by that rule, so a rule
/// with memory is still one file and the shared state gains no field for it.
protocol RememberingRule: PageRule {
    associatedtype Memory: Sendable
    /// What the rule remembers before the sign-in met any of its pages.
    static var initialMemory: Memory { get }
}

/// The memories of one sign-in's rules, each under its rule's type (see ``RememberingRule``).
struct RuleMemories: Sendable {
    private var memories: [ObjectIdentifier: any Sendable] = [:]

    subscript<Rule: RememberingRule>(_ rule: Rule.Type) -> Rule.Memory {
        get { memories[ObjectIdentifier(rule)] as? Rule.Memory ?? Rule.initialMemory }
        set { memories[ObjectIdentifier(rule)] = newValue }
    }
}
