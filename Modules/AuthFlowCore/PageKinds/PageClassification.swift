public import HTML

/// Where a page sends the browser by itself.
public enum PageNavigation: Sendable, Equatable {
    case metaRefresh(url: String, delay: Double)
    case scriptRedirect(url: String)
}

/// A page's kind, the form to act on, the signals behind the decision and a short human reason.
public struct PageClassification: Sendable, Equatable {
    /// The page kind.
    public let kind: PageKind
    /// Index into `HTMLPage.forms` of the form the decision is about.
    public let formIndex: Int?
    /// Why: one short sentence naming the structural evidence.
    public let reason: String
    /// The generic signals that decided it, in the order they were weighed (`autocomplete=one-time-code`,
    /// `aria-invalid=true`, `protocol fields SAMLResponse`…).
    public let signals: [String]
    /// The page's own navigation (followed by a browser without user action), if any.
    public let navigation: PageNavigation?
}

extension HTMLPage {
    /// What kind of sign-in page this is, and why (``PageClassifier``).
    public var classification: PageClassification { PageClassifier.classify(self) }
}
