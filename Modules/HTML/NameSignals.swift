/// What the names an element is given (its id and each of its classes) tell the page readers: whether a word of them
/// names an error container, a message box or a heading, says an error's severity or says wrong, and whether a whole
/// name marks an error container or says the credentials are wrong. The words are ``SignInLexicon/tokens(of:)`` of
/// each name; the sets stay where their rules are documented, and ``NameWordTable`` is built from them.
///
/// Every element of a page is asked, so an ASCII name (nearly all of them) is read on its bytes, its words looked up
/// as they are scanned, and a page's `class` attributes, which repeat from element to element, are read once each
/// (``Memo``).
struct NameSignals: OptionSet {
    let rawValue: UInt16

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
    /// A word of the names is `tooltip` or `popover`.
    static let tooltipWord = NameSignals(rawValue: 1 << 7)
    /// A class is one the common CSS frameworks hide with (``Visibility/hidingClasses``, in any case).
    static let hidingClass = NameSignals(rawValue: 1 << 8)
    /// A class names a tooltip or a popover (shown on hover only): a word of it is `tooltip` or `popover`.
    static let tooltipClass = NameSignals(rawValue: 1 << 9)

    /// The signals of an element's id and classes.
    static func of(_ node: DOMNode) -> NameSignals {
        var signals = of(name: node.attribute("id") ?? "")
        for name in node.classTokens { signals.formUnion(of(className: name)) }
        return signals
    }

    /// The signals of one class: those of its name, and what a class says alone (it hides, it is a tooltip's).
    static func of(className name: String) -> NameSignals {
        var signals = of(name: name)
        if signals.contains(.tooltipWord) { signals.insert(.tooltipClass) }
        if Visibility.hidingClasses.contains(name.lowercased()) { signals.insert(.hidingClass) }
        return signals
    }

    /// ``of(className:)`` of an ASCII class, on its bytes; nil when a byte is beyond ASCII.
    static func ofASCII(className bytes: UnsafeBufferPointer<UInt8>) -> NameSignals? {
        guard var signals = ofASCII(name: bytes) else { return nil }
        if signals.contains(.tooltipWord) { signals.insert(.tooltipClass) }
        if hidingClassBytes.contains(where: { hiding in
            hiding.count == bytes.count
                && zip(hiding, bytes).allSatisfy { $0 == ($1 >= 0x41 && $1 <= 0x5A ? $1 + 0x20 : $1) }
        }) {
            signals.insert(.hidingClass)
        }
        return signals
    }

    private static let hidingClassBytes = Visibility.hidingClasses.map { Array($0.utf8) }

    /// The signals of one name (an id, or one class).
    static func of(name: String) -> NameSignals {
        guard !name.isEmpty else { return [] }
        var bytes = name
        if let signals = bytes.withUTF8({ ofASCII(name: $0) }) { return signals }
        var signals: NameSignals = []
        for word in SignInLexicon.tokens(of: name) {
            signals.formUnion(NameWordTable.shared.signals(of: word))
            if saysWrong(word) { signals.insert(.wrongWord) }
        }
        if ErrorTextReader.namesAnError(name) { signals.insert(.errorName) }
        // A name beyond ASCII may hold a phrase of a script written without spaces.
        if SignInLexicon.saysCredentialsWrong(name) { signals.insert(.credentialsWrongName) }
        return signals
    }

    /// ``of(name:)`` of an ASCII name, read on its bytes; nil when a byte is beyond ASCII. The words are those of
    /// ``SignInLexicon/tokens(of:)``: runs of letters and digits, split again where a capital follows a small letter or
    /// a digit, and each two neighbours joined.
    static func ofASCII(name bytes: UnsafeBufferPointer<UInt8>) -> NameSignals? {
        guard !bytes.isEmpty else { return [] }
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let table = NameWordTable.shared
        var signals: NameSignals = []
        var previous: Range<Int>?
        func word(_ range: Range<Int>) {
            signals.formUnion(table.signals(of: bytes, range))
            if let before = previous { signals.formUnion(table.signals(of: bytes, before, then: range)) }
            previous = range
        }
        SignInLexicon.forEachASCIIWord(in: bytes, word)
        if ErrorTextReader.mentionsAnErrorWord(bytes),
            ErrorTextReader.namesAnError(String(decoding: bytes, as: UTF8.self))
        {
            signals.insert(.errorName)
        }
        // Only an ASCII name with a word for wrong can say the credentials are wrong: its words are all the lexicon
        // reads of it.
        if signals.contains(.wrongWord),
            SignInLexicon.saysCredentialsWrong(String(decoding: bytes, as: UTF8.self))
        {
            signals.insert(.credentialsWrongName)
        }
        return signals
    }

    private static let saysWrong = SignInLexicon.wordTest(for: .wrong)

    /// One page's `class` attributes, each read once: elements of a page share their classes.
    struct Memo {
        private var byClassAttribute: [String: NameSignals] = [:]

        /// ``NameSignals/of(_:)`` of `node`.
        mutating func signals(of node: DOMNode) -> NameSignals {
            var signals: NameSignals = []
            if let id = node.attribute("id"), !id.isEmpty { signals = NameSignals.of(name: id) }
            if let classes = node.attribute("class"), !classes.isEmpty {
                if let known = byClassAttribute[classes] {
                    signals.formUnion(known)
                } else {
                    let fromClasses = Self.signals(ofClasses: classes, node: node)
                    byClassAttribute[classes] = fromClasses
                    signals.formUnion(fromClasses)
                }
            }
            return signals
        }

        /// The signals of each class of a `class` attribute: split on its bytes where ``DOMNode/classTokens`` splits
        /// it so (ASCII without CR LF), else by those tokens.
        private static func signals(ofClasses classes: String, node: DOMNode) -> NameSignals {
            var text = classes
            let read = text.withUTF8 { bytes -> NameSignals? in
                guard bytes.allSatisfy({ $0 < 0x80 }), !ScriptStrings.contains(bytes, "\r\n") else { return nil }
                var signals: NameSignals = []
                var start = 0
                for index in 0...bytes.count {
                    let separator =
                        index == bytes.count || bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
                        || bytes[index] == 0x0D
                    guard separator else { continue }
                    if start < index {
                        let token = UnsafeBufferPointer(rebasing: bytes[start..<index])
                        signals.formUnion(NameSignals.ofASCII(className: token) ?? [])
                    }
                    start = index + 1
                }
                return signals
            }
            if let read { return read }
            return node.classTokens.reduce(into: []) { $0.formUnion(NameSignals.of(className: $1)) }
        }
    }
}

/// The words whose signals ``NameSignals`` looks for, in an open-addressing table looked up by a word's lower-cased
/// bytes while a name is scanned (no word is made a `String`): the words of the documented sets, the lexicon's ASCII
/// words for wrong, and its ASCII stems for wrong (a word longer than a stem and starting with it says wrong).
struct NameWordTable: Sendable {
    static let shared = NameWordTable()

    private struct Entry {
        let start: Int
        let count: Int
        let signals: NameSignals
    }

    private let pool: [UInt8]
    private let entries: [Entry]
    /// Entry index + 1 per slot; 0 is empty.
    private let slots: [Int32]
    private let wrongStems: [[UInt8]]
    /// One bit per pair of lower-cased ASCII bytes that opens a word or a stem of the table: a word of two bytes or
    /// more opening with any other pair is neither, and is not hashed. Words of one byte are looked up whole.
    private let openings: [UInt64]

    private init() {
        var words: [String: NameSignals] = [:]
        let sets: [(Set<String>, NameSignals)] = [
            (ErrorTextReader.errorNames, .errorWord), (ErrorTextReader.messageBoxNames, .messageBoxWord),
            (TextBlocks.headingNames, .headingWord), (ErrorTextReader.severeWords, .severeWord),
            (SignInLexicon.allWords[.wrong] ?? [], .wrongWord), (Visibility.tooltipWords, .tooltipWord),
        ]
        for (set, signal) in sets {
            for word in set where !word.isEmpty && word.utf8.allSatisfy({ $0 < 0x80 }) {
                words[word, default: []].insert(signal)
            }
        }
        var pool: [UInt8] = []
        var entries: [Entry] = []
        var size = 64
        while size < words.count * 4 { size *= 2 }
        var slots = [Int32](repeating: 0, count: size)
        for (word, signals) in words.sorted(by: { $0.key < $1.key }) {
            let bytes = Array(word.utf8)
            entries.append(Entry(start: pool.count, count: bytes.count, signals: signals))
            pool += bytes
            var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & (size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(entries.count)
        }
        self.pool = pool
        self.entries = entries
        self.slots = slots
        let stems = (SignInLexicon.catalog.asciiStems[.wrong] ?? []).filter { !$0.isEmpty }
        self.wrongStems = stems
        var openings = [UInt64](repeating: 0, count: 128 * 128 / 64)
        for opening in words.keys.map({ Array($0.utf8) }) + stems {
            // A one-byte entry opens any pair that starts with it.
            let pairs =
                opening.count > 1
                ? [Int(opening[0]) << 7 | Int(opening[1])] : (0..<128).map { Int(opening[0]) << 7 | $0 }
            for pair in pairs { openings[pair >> 6] |= 1 << UInt64(pair & 63) }
        }
        self.openings = openings
    }

    private static let seed: UInt64 = 0xCBF2_9CE4_8422_2325

    private static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(seed) { step($0, $1) }
    }

    /// One byte of FNV-1a.
    private static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }

    private static func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// The signals of the word `bytes[first]` followed by `bytes[second]` (a neighbouring pair joined), lower-cased.
    func signals(of bytes: UnsafeBufferPointer<UInt8>, _ first: Range<Int>, then second: Range<Int> = 0..<0)
        -> NameSignals
    {
        let count = first.count + second.count
        /// The word's byte at `offset`, lower-cased.
        func byte(_ offset: Int) -> UInt8 {
            Self.lowered(
                offset < first.count
                    ? bytes[first.lowerBound + offset] : bytes[second.lowerBound + offset - first.count])
        }
        if count > 1 {
            let pair = Int(byte(0)) << 7 | Int(byte(1))
            guard openings[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { return [] }
        }
        func matches(_ stored: ArraySlice<UInt8>) -> Bool {
            var offset = 0
            for storedByte in stored {
                if storedByte != byte(offset) { return false }
                offset += 1
            }
            return true
        }
        var hash = Self.seed
        for offset in 0..<count { hash = Self.step(hash, byte(offset)) }
        var signals: NameSignals = []
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let entry = entries[Int(slots[slot]) - 1]
            if entry.count == count && matches(pool[entry.start..<entry.start + count]) {
                signals = entry.signals
                break
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        if !signals.contains(.wrongWord), wrongStems.contains(where: { count > $0.count && matches($0[...]) }) {
            signals.insert(.wrongWord)
        }
        return signals
    }

    /// The signals of a whole word (any text), from the table and the stems.
    func signals(of word: String) -> NameSignals {
        var text = word
        return text.withUTF8 { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? signals(of: bytes, 0..<bytes.count).subtracting(.wrongWord) : []
        }
    }
}
