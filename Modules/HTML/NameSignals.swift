/// What the names an element is given (its id and each of its classes) tell the page readers: whether a word of them
/// names an error container, a message box or a heading, says an error's severity or says wrong, and whether a whole
/// name marks an error container or says the credentials are wrong. The words are ``SignInLexicon/tokens(of:)`` of
/// each name; the sets stay where their rules are documented, and the table below is built from them.
///
/// A page repeats its ids' and classes' names from element to element: ``Memo`` works each name out once per page.
struct NameSignals: OptionSet {
    let rawValue: UInt8

    /// A word of the names is an error container's (``ErrorTextReader/errorNames``).
    static let errorWord = NameSignals(rawValue: 1 << 0)
    /// A word names a general message box (``ErrorTextReader/messageBoxNames``).
    static let messageBoxWord = NameSignals(rawValue: 1 << 1)
    /// A word makes a heading (``TextBlocks/headingNames``).
    static let headingWord = NameSignals(rawValue: 1 << 2)
    /// A word says an error's severity (``ErrorTextReader/severeWords``).
    static let severeWord = NameSignals(rawValue: 1 << 3)
    /// A word says wrong (``SignInLexicon/wordTest(for:)`` of ``SignInLexicon/Concept/wrong``).
    static let wrongWord = NameSignals(rawValue: 1 << 4)
    /// A whole name marks an error container (``ErrorTextReader/namesAnError(_:)``: `input-error…`, `errorlist`).
    static let errorName = NameSignals(rawValue: 1 << 5)
    /// A whole name says the credentials are wrong (``SignInLexicon/saysCredentialsWrong(_:)``).
    static let credentialsWrongName = NameSignals(rawValue: 1 << 6)

    /// The signals of an element's id and classes.
    static func of(_ node: DOMNode) -> NameSignals {
        var signals = of(name: node.attribute("id") ?? "")
        for name in node.classTokens { signals.formUnion(of(name: name)) }
        return signals
    }

    /// The signals of one name (an id, or one class).
    static func of(name: String) -> NameSignals {
        guard !name.isEmpty else { return [] }
        var signals: NameSignals = []
        for word in SignInLexicon.tokens(of: name) {
            signals.formUnion(wordTable[word] ?? [])
            if saysWrong(word) { signals.insert(.wrongWord) }
        }
        if ErrorTextReader.namesAnError(name) { signals.insert(.errorName) }
        // Only a name with a word for wrong, or a letter beyond ASCII (a phrase of a script written without spaces),
        // can say the credentials are wrong: the lexicon reads no other name whole.
        if signals.contains(.wrongWord) || name.utf8.contains(where: { $0 >= 0x80 }),
            SignInLexicon.saysCredentialsWrong(name)
        {
            signals.insert(.credentialsWrongName)
        }
        return signals
    }

    private static let saysWrong = SignInLexicon.wordTest(for: .wrong)

    /// Each word of the documented sets, with the signals it gives.
    private static let wordTable: [String: NameSignals] = {
        let sets: [(Set<String>, NameSignals)] = [
            (ErrorTextReader.errorNames, .errorWord), (ErrorTextReader.messageBoxNames, .messageBoxWord),
            (TextBlocks.headingNames, .headingWord), (ErrorTextReader.severeWords, .severeWord),
        ]
        var table: [String: NameSignals] = [:]
        for (words, signal) in sets {
            for word in words { table[word, default: []].insert(signal) }
        }
        return table
    }()

    /// One page's names, each worked out once (an id by its value, classes by the whole `class` attribute, then
    /// class by class).
    struct Memo {
        private var byName: [String: NameSignals] = [:]
        private var byClassAttribute: [String: NameSignals] = [:]

        /// ``NameSignals/of(_:)`` of `node`, from what this page has already worked out where it can.
        mutating func signals(of node: DOMNode) -> NameSignals {
            var signals: NameSignals = []
            if let id = node.attribute("id"), !id.isEmpty { signals = name(id) }
            if let classes = node.attribute("class"), !classes.isEmpty {
                if let known = byClassAttribute[classes] {
                    signals.formUnion(known)
                } else {
                    var fromClasses: NameSignals = []
                    for token in node.classTokens { fromClasses.formUnion(name(token)) }
                    byClassAttribute[classes] = fromClasses
                    signals.formUnion(fromClasses)
                }
            }
            return signals
        }

        private mutating func name(_ name: String) -> NameSignals {
            if let known = byName[name] { return known }
            let signals = NameSignals.of(name: name)
            byName[name] = signals
            return signals
        }
    }
}
