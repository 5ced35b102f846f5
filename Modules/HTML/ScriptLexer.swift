// One file on purpose (about 440 lines): the lexer is one state machine over the bytes, tokens and all.

/// A JavaScript token: a byte range of the script's UTF-8 and what it is.
struct ScriptToken {
    enum Kind: UInt8 {
        case end, identifier, string, template, number, regex, punctuator
    }

    var kind: Kind
    /// Byte offsets in the script's UTF-8; for strings and templates the quotes are included.
    var start: Int
    var end: Int
    /// For punctuators: the character, or a code for a multi-character one (see `ScriptLexer.Code`). For strings:
    /// the quote. For templates: 1 when the piece opens a `${` substitution.
    var code: UInt8
    /// Whether a line terminator separates this token from the previous one.
    var newlineBefore: Bool
    /// Strings only: whether the closing quote was found on the same line.
    var terminated: Bool

    static let none = ScriptToken(
        kind: .end, start: 0, end: 0, code: 0, newlineBefore: false, terminated: false)

    func isPunctuator(_ character: UInt8) -> Bool { kind == .punctuator && code == character }
}

/// A linear, allocation-light JavaScript lexer over UTF-8 bytes. It knows what it must know to never mistake a
/// string, a comment, a regular expression or a template for code: comments (`//`, `/* */`, and the HTML-like
/// `<!--` and line-initial `-->` that browsers accept in classic scripts), quoted strings with escapes, template
/// literals with nested `${…}` substitutions, and the regular-expression-or-division decision from the previous
/// token. Anything else is an identifier (keywords included), a number or a punctuator. It never fails: garbage
/// comes out as some tokens, each byte is looked at a bounded number of times.
struct ScriptLexer {
    /// Codes for multi-character punctuators (single ones are their own byte).
    enum Code {
        /// `==`, `===`
        static let equality = UInt8(ascii: "E")
        /// `!=`, `!==`
        static let inequality = UInt8(ascii: "N")
        /// `=>`
        static let arrow = UInt8(ascii: "A")
        /// `+=`, `-=`, `*=`, `&&=`, `??=`, `>>>=`…
        static let compoundAssignment = UInt8(ascii: "C")
        /// `&&`, `||`, `??`
        static let logical = UInt8(ascii: "L")
        /// `++`, `--`
        static let increment = UInt8(ascii: "I")
        /// `...`
        static let spread = UInt8(ascii: "S")
        /// `<=`, `>=`, `<<`, `>>`, `>>>`, `**`
        static let otherOperator = UInt8(ascii: "O")
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index: Int
    private var previous = ScriptToken.none
    /// Open braces inside each open template substitution, innermost last.
    private var templateBraces: [Int] = []

    init(bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) {
        self.bytes = bytes
        self.index = start
    }

    // MARK: Bytes

    @inline(__always) private func byte(_ offset: Int) -> UInt8 {
        offset < bytes.count ? bytes[offset] : 0
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x24
            || byte >= 0x80 || byte == 0x5C
    }

    static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }

    /// The length of a non-ASCII white space or line terminator at `offset` (NBSP, BOM, U+2000–U+200A, U+2028,
    /// U+2029, U+202F, U+205F, U+3000, U+1680), or 0.
    private func unicodeSpaceLength(at offset: Int) -> Int {
        let first = byte(offset)
        switch first {
        case 0xC2: return byte(offset + 1) == 0xA0 ? 2 : 0
        case 0xEF: return byte(offset + 1) == 0xBB && byte(offset + 2) == 0xBF ? 3 : 0
        case 0xE2:
            let second = byte(offset + 1)
            let third = byte(offset + 2)
            if second == 0x80 && ((third >= 0x80 && third <= 0x8A) || third == 0xA8 || third == 0xA9 || third == 0xAF) {
                return 3
            }
            return second == 0x81 && third == 0x9F ? 3 : 0
        case 0xE3: return byte(offset + 1) == 0x80 && byte(offset + 2) == 0x80 ? 3 : 0
        case 0xE1: return byte(offset + 1) == 0x9A && byte(offset + 2) == 0x80 ? 3 : 0
        default: return 0
        }
    }

    private func isLineTerminator(at offset: Int) -> Bool {
        let first = byte(offset)
        if first == 0x0A || first == 0x0D { return true }
        return first == 0xE2 && byte(offset + 1) == 0x80 && (byte(offset + 2) == 0xA8 || byte(offset + 2) == 0xA9)
    }

    private mutating func skipToLineEnd() {
        while index < bytes.count && !isLineTerminator(at: index) { index += 1 }
    }

    // MARK: Tokens

    /// The next token; `.end` (repeatedly) at the end of the bytes.
    mutating func next() -> ScriptToken {
        var newline = previous.kind == .end && previous.end == 0
        while index < bytes.count {
            let current = bytes[index]
            switch current {
            case 0x20, 0x09, 0x0B, 0x0C:
                index += 1
                continue
            case 0x0A, 0x0D:
                newline = true
                index += 1
                continue
            case UInt8(ascii: "/") where byte(index + 1) == UInt8(ascii: "/"):
                skipToLineEnd()
                continue
            case UInt8(ascii: "/") where byte(index + 1) == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && byte(index + 1) == UInt8(ascii: "/"))
                {
                    if isLineTerminator(at: index) { newline = true }
                    index += 1
                }
                index = min(index + 2, bytes.count)
                continue
            case UInt8(ascii: "<")
            where byte(index + 1) == UInt8(ascii: "!") && byte(index + 2) == UInt8(ascii: "-")
                && byte(index + 3) == UInt8(ascii: "-"):
                skipToLineEnd()
                continue
            case UInt8(ascii: "-")
            where newline && byte(index + 1) == UInt8(ascii: "-") && byte(index + 2) == UInt8(ascii: ">"):
                skipToLineEnd()
                continue
            case 0x23 where index == 0 && byte(1) == UInt8(ascii: "!"):  // #! hashbang
                skipToLineEnd()
                continue
            default:
                if current >= 0x80 {
                    let length = unicodeSpaceLength(at: index)
                    if length > 0 {
                        if isLineTerminator(at: index) { newline = true }
                        index += length
                        continue
                    }
                }
            }
            var token = lexToken(startingWith: current)
            token.newlineBefore = newline
            previous = token
            return token
        }
        let end = ScriptToken(
            kind: .end, start: bytes.count, end: bytes.count, code: 0, newlineBefore: newline, terminated: false)
        previous = end
        return end
    }

    private mutating func lexToken(startingWith current: UInt8) -> ScriptToken {
        let start = index
        func make(_ kind: ScriptToken.Kind, _ code: UInt8 = 0, terminated: Bool = true) -> ScriptToken {
            ScriptToken(kind: kind, start: start, end: index, code: code, newlineBefore: false, terminated: terminated)
        }
        func punctuator(_ code: UInt8, length: Int) -> ScriptToken {
            index += length
            return make(.punctuator, code)
        }
        let next = byte(index + 1)
        let equals = UInt8(ascii: "=")
        switch current {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            index += 1
            while index < bytes.count {
                let inside = bytes[index]
                if inside == UInt8(ascii: "\\") {
                    index += byte(index + 1) == 0x0D && byte(index + 2) == 0x0A ? 3 : 2
                    continue
                }
                if inside == current {
                    index += 1
                    return make(.string, current)
                }
                if inside == 0x0A || inside == 0x0D { break }
                index += 1
            }
            index = min(index, bytes.count)
            return make(.string, current, terminated: false)
        case UInt8(ascii: "`"):
            index += 1
            return lexTemplate(from: start)
        case UInt8(ascii: "}") where !templateBraces.isEmpty:
            if templateBraces[templateBraces.count - 1] == 0 {
                templateBraces.removeLast()
                index += 1
                return lexTemplate(from: start)
            }
            templateBraces[templateBraces.count - 1] -= 1
            return punctuator(current, length: 1)
        case UInt8(ascii: "{"):
            if !templateBraces.isEmpty { templateBraces[templateBraces.count - 1] += 1 }
            return punctuator(current, length: 1)
        case 0x30...0x39:
            return lexNumber(from: start)
        case UInt8(ascii: ".") where next >= 0x30 && next <= 0x39:
            return lexNumber(from: start)
        case UInt8(ascii: "."):
            if next == UInt8(ascii: ".") && byte(index + 2) == UInt8(ascii: ".") {
                return punctuator(Code.spread, length: 3)
            }
            return punctuator(current, length: 1)
        case UInt8(ascii: "/"):
            if regexAllowed(), let end = regexEnd(from: index) {
                index = end
                return make(.regex)
            }
            return next == equals ? punctuator(Code.compoundAssignment, length: 2) : punctuator(current, length: 1)
        case equals:
            if next == equals { return punctuator(Code.equality, length: byte(index + 2) == equals ? 3 : 2) }
            if next == UInt8(ascii: ">") { return punctuator(Code.arrow, length: 2) }
            return punctuator(current, length: 1)
        case UInt8(ascii: "!"):
            if next == equals { return punctuator(Code.inequality, length: byte(index + 2) == equals ? 3 : 2) }
            return punctuator(current, length: 1)
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            if next == current { return punctuator(Code.increment, length: 2) }
            if next == equals { return punctuator(Code.compoundAssignment, length: 2) }
            return punctuator(current, length: 1)
        case UInt8(ascii: "*"):
            if next == current {
                return byte(index + 2) == equals
                    ? punctuator(Code.compoundAssignment, length: 3) : punctuator(Code.otherOperator, length: 2)
            }
            return next == equals ? punctuator(Code.compoundAssignment, length: 2) : punctuator(current, length: 1)
        case UInt8(ascii: "%"), UInt8(ascii: "^"):
            return next == equals ? punctuator(Code.compoundAssignment, length: 2) : punctuator(current, length: 1)
        case UInt8(ascii: "&"), UInt8(ascii: "|"):
            if next == current {
                return byte(index + 2) == equals
                    ? punctuator(Code.compoundAssignment, length: 3) : punctuator(Code.logical, length: 2)
            }
            return next == equals ? punctuator(Code.compoundAssignment, length: 2) : punctuator(current, length: 1)
        case UInt8(ascii: "?"):
            if next == current {
                return byte(index + 2) == equals
                    ? punctuator(Code.compoundAssignment, length: 3) : punctuator(Code.logical, length: 2)
            }
            let after = byte(index + 2)
            if next == UInt8(ascii: ".") && !(after >= 0x30 && after <= 0x39) {
                return punctuator(UInt8(ascii: "."), length: 2)  // optional chaining reads like a member access
            }
            return punctuator(current, length: 1)
        case UInt8(ascii: "<"), UInt8(ascii: ">"):
            var length = 1
            while length < 3 && byte(index + length) == current && (current == UInt8(ascii: ">") || length < 2) {
                length += 1
            }
            if byte(index + length) == equals { return punctuator(Code.compoundAssignment, length: length + 1) }
            return length > 1 ? punctuator(Code.otherOperator, length: length) : punctuator(current, length: 1)
        default:
            if Self.isIdentifierStart(current) {
                index += 1
                while index < bytes.count {
                    let part = bytes[index]
                    if part < 0x80 {
                        guard Self.isIdentifierPart(part) else { break }
                    } else if unicodeSpaceLength(at: index) > 0 {
                        break
                    }
                    index += 1
                }
                return make(.identifier)
            }
            return punctuator(current, length: 1)
        }
    }

    /// A template piece from `start` (after its opening backtick or `}`) to its closing backtick or `${`.
    private mutating func lexTemplate(from start: Int) -> ScriptToken {
        while index < bytes.count {
            let inside = bytes[index]
            if inside == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if inside == UInt8(ascii: "`") {
                index += 1
                return ScriptToken(
                    kind: .template, start: start, end: index, code: 0, newlineBefore: false, terminated: true)
            }
            if inside == UInt8(ascii: "$") && byte(index + 1) == UInt8(ascii: "{") {
                index += 2
                templateBraces.append(0)
                return ScriptToken(
                    kind: .template, start: start, end: index, code: 1, newlineBefore: false, terminated: true)
            }
            index += 1
        }
        index = bytes.count
        return ScriptToken(kind: .template, start: start, end: index, code: 0, newlineBefore: false, terminated: false)
    }

    private mutating func lexNumber(from start: Int) -> ScriptToken {
        let hex = bytes[start] == UInt8(ascii: "0") && (byte(start + 1) | 0x20) == UInt8(ascii: "x")
        index += 1
        while index < bytes.count {
            let part = bytes[index]
            if Self.isIdentifierPart(part) && part < 0x80 && part != 0x24 && part != 0x5C || part == UInt8(ascii: ".") {
                index += 1
                if !hex && (part | 0x20) == UInt8(ascii: "e")
                    && (byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-"))
                {
                    index += 1
                }
                continue
            }
            break
        }
        return ScriptToken(kind: .number, start: start, end: index, code: 0, newlineBefore: false, terminated: true)
    }

    /// Whether a `/` here starts a regular expression rather than a division, from the previous token.
    private func regexAllowed() -> Bool {
        switch previous.kind {
        case .end: return true
        case .number, .string, .regex: return false
        case .template: return previous.code == 1
        case .punctuator:
            return
                !(previous.code == UInt8(ascii: ")") || previous.code == UInt8(ascii: "]")
                || previous.code == Code.increment)
        case .identifier:
            return ScriptWords.isExpressionKeyword(bytes, previous)
        }
    }

    /// The end of a regular expression literal starting at the `/` at `start` (flags included), or nil when
    /// the line ends first (then it was a division after all).
    private func regexEnd(from start: Int) -> Int? {
        var offset = start + 1
        var inClass = false
        while offset < bytes.count {
            let inside = bytes[offset]
            if inside == 0x0A || inside == 0x0D { return nil }
            if inside == UInt8(ascii: "\\") {
                offset += 2
                continue
            }
            if inside == UInt8(ascii: "[") {
                inClass = true
            } else if inside == UInt8(ascii: "]") {
                inClass = false
            } else if inside == UInt8(ascii: "/") && !inClass {
                offset += 1
                while offset < bytes.count && Self.isIdentifierPart(bytes[offset]) && bytes[offset] < 0x80 {
                    offset += 1
                }
                return offset
            }
            offset += 1
        }
        return nil
    }
}

/// Comparing identifier tokens with words, without making strings.
enum ScriptWords {
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ token: ScriptToken, _ word: StaticString) -> Bool {
        guard token.kind == .identifier, token.end - token.start == word.utf8CodeUnitCount else { return false }
        let pointer = word.utf8Start
        for offset in 0..<word.utf8CodeUnitCount where bytes[token.start + offset] != pointer[offset] {
            return false
        }
        return true
    }

    static func isAny(_ bytes: UnsafeBufferPointer<UInt8>, _ token: ScriptToken, _ words: [StaticString]) -> Bool {
        guard token.kind == .identifier else { return false }
        for word in words where equals(bytes, token, word) { return true }
        return false
    }

    /// Keywords after which an expression starts (so `/` opens a regular expression and `{` an object).
    static let expressionKeywords: [StaticString] = [
        "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else",
        "yield", "await",
    ]

    static func isExpressionKeyword(_ bytes: UnsafeBufferPointer<UInt8>, _ token: ScriptToken) -> Bool {
        let length = token.end - token.start
        guard token.kind == .identifier, length >= 2, length <= 10 else { return false }
        return isAny(bytes, token, expressionKeywords)
    }

    /// Reserved words that cannot name a callee (`if (`, `return (`…).
    static let reserved: [StaticString] = [
        "if", "for", "while", "switch", "with", "catch", "function", "return", "typeof", "instanceof", "in", "of",
        "new", "delete", "void", "throw", "case", "do", "else", "yield", "await", "var", "let", "const", "try",
        "finally", "class", "extends", "export", "default", "import",
    ]

    static func isReserved(_ bytes: UnsafeBufferPointer<UInt8>, _ token: ScriptToken) -> Bool {
        let length = token.end - token.start
        guard token.kind == .identifier, length >= 2, length <= 10 else { return false }
        return isAny(bytes, token, reserved)
    }

    static let control: [StaticString] = ["if", "for", "while", "switch", "with", "catch"]
    static let timers: [StaticString] = [
        "setTimeout", "setInterval", "requestAnimationFrame", "setImmediate", "queueMicrotask",
    ]
    static let listenerReceivers: [StaticString] = ["window", "document", "self", "globalThis"]
    static let windowOrDocument: [StaticString] = ["window", "document"]
    static let jQueryListeners: [StaticString] = ["on", "one", "bind"]
    static let blockHeads: [StaticString] = ["else", "do", "try", "finally"]
    static let declarationHeads: [StaticString] = ["else", "do", "export", "default"]
    static let onloadReceivers: [StaticString] = ["window", "self", "top", "parent", "globalThis", "body"]
    static let locationOwners: [StaticString] = ["window", "self", "top", "parent", "document", "globalThis"]
    static let windows: [StaticString] = ["window", "self", "top", "parent"]
    static let windowsAndGlobal: [StaticString] = ["window", "self", "top", "parent", "globalThis"]
    static let locationMethods: [StaticString] = ["replace", "assign"]
    /// The frames a frame-buster moves.
    static let outerFrames: [StaticString] = ["top", "parent"]

    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ token: ScriptToken) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }
}
