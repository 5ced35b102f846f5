import JSON

/// A tolerant reader of JavaScript object and array literals (`{urlPost:'https://…', sFTTag:'<input …/>', a:!0}`),
/// giving what `JSON.stringify` would: unquoted, quoted and numeric keys; single- and double-quoted strings with
/// JavaScript escapes; template literals without substitutions; numbers (decimal, hex, octal, binary, with `_`
/// separators); `true`, `false`, `null`, and the minifier's `!0`/`!1`; nested objects and arrays. Members it
/// cannot evaluate (functions, method shorthands, computed keys, spreads, expressions such as `'a' + b`) are
/// skipped, and array elements it cannot evaluate become `null`. JSON is read as JSON.
///
/// Linear in the literal's length (one lexer pass, nesting bounded by `JSONValue.maximumDepth`); garbage gives nil.
enum ScriptObjectLiteral {
    /// The object or array literal whose `{` or `[` is at `start`, and the offset just past its end; when it does
    /// not read, nil and the offset where reading gave up (past `start`), so that a caller scanning for literals
    /// can go on from there and stay linear.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (value: JSONValue?, end: Int) {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else {
            return (nil, min(start + 1, bytes.count))
        }
        var reader = Reader(bytes: bytes, start: start)
        guard case .value(let value) = reader.container(depth: 0) else {
            return (nil, min(max(reader.lastEnd, start + 1), bytes.count))
        }
        return (value, reader.lastEnd)
    }

    /// The literal that is the whole of `text` (white space, comments and a final `;` aside).
    static func parse(_ text: String) -> JSONValue? {
        ScriptStrings.withBytes(text) { bytes -> JSONValue? in
            var lexer = ScriptLexer(bytes: bytes)
            let first = lexer.next()
            guard first.kind == .punctuator else { return nil }
            let (value, end) = read(bytes, at: first.start)
            guard let value else { return nil }
            var rest = ScriptLexer(bytes: bytes, from: end)
            var token = rest.next()
            while token.isPunctuator(UInt8(ascii: ";")) { token = rest.next() }
            guard token.kind == .end else { return nil }
            return value
        }
    }

    private enum Outcome {
        case value(JSONValue)
        case skipped
        case failed
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var lexer: ScriptLexer
        var current: ScriptToken
        var lastEnd: Int

        init(bytes: UnsafeBufferPointer<UInt8>, start: Int) {
            self.bytes = bytes
            lexer = ScriptLexer(bytes: bytes, from: start)
            current = lexer.next()
            lastEnd = start
        }

        mutating func advance() {
            lastEnd = current.end
            current = lexer.next()
        }

        func isPunctuator(_ character: UInt8) -> Bool { current.isPunctuator(character) }

        /// An object or array at the current `{` or `[`.
        mutating func container(depth: Int) -> Outcome {
            guard depth < JSONValue.maximumDepth else { return .failed }
            return isPunctuator(UInt8(ascii: "{")) ? object(depth: depth) : array(depth: depth)
        }

        mutating func value(depth: Int) -> Outcome {
            let token = current
            switch token.kind {
            case .end:
                return .failed
            case .punctuator:
                switch token.code {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let outcome = container(depth: depth)
                    if case .value = outcome { return finish(outcome) }
                    return outcome
                case UInt8(ascii: "-"), UInt8(ascii: "+"):
                    advance()
                    guard current.kind == .number,
                        let number = number(current, negative: token.code == UInt8(ascii: "-"))
                    else { return skipRest() }
                    advance()
                    return finish(.value(number))
                case UInt8(ascii: "!"):
                    advance()
                    guard current.kind == .number, current.end == current.start + 1,
                        bytes[current.start] == UInt8(ascii: "0") || bytes[current.start] == UInt8(ascii: "1")
                    else { return skipRest() }
                    let truth = bytes[current.start] == UInt8(ascii: "0")
                    advance()
                    return finish(.value(.bool(truth)))
                default:
                    return skipRest()
                }
            case .string:
                guard token.terminated else { return .failed }
                let text = ScriptStrings.value(bytes, token)
                advance()
                return finish(.value(.string(text)))
            case .template:
                guard token.code == 0, token.terminated else { return skipRest() }
                let text = ScriptStrings.value(bytes, token)
                advance()
                return finish(.value(.string(text)))
            case .number:
                guard let number = number(token, negative: false) else { return skipRest() }
                advance()
                return finish(.value(number))
            case .identifier:
                let literal: JSONValue? =
                    if ScriptWords.equals(bytes, token, "true") {
                        .bool(true)
                    } else if ScriptWords.equals(bytes, token, "false") {
                        .bool(false)
                    } else if ScriptWords.equals(bytes, token, "null") {
                        .null
                    } else {
                        nil
                    }
                guard let literal else { return skipRest() }
                advance()
                return finish(.value(literal))
            case .regex:
                return skipRest()
            }
        }

        /// A value stands alone only when a `,` or its container's end follows; else it starts an expression.
        mutating func finish(_ outcome: Outcome) -> Outcome {
            if isPunctuator(UInt8(ascii: ",")) || isPunctuator(UInt8(ascii: "}")) || isPunctuator(UInt8(ascii: "]")) {
                return outcome
            }
            return skipRest()
        }

        /// Skips to the `,` or the closing bracket that ends the current member or element.
        mutating func skipRest() -> Outcome {
            var depth = 0
            while true {
                switch current.kind {
                case .end:
                    return .failed
                case .punctuator:
                    switch current.code {
                    case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                        depth += 1
                    case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                        if depth == 0 { return current.code == UInt8(ascii: ")") ? .failed : .skipped }
                        depth -= 1
                    case UInt8(ascii: ","):
                        if depth == 0 { return .skipped }
                    case UInt8(ascii: ";"):
                        if depth == 0 { return .failed }
                    default:
                        break
                    }
                default:
                    break
                }
                advance()
            }
        }

        mutating func object(depth: Int) -> Outcome {
            advance()
            var members: [(String, JSONValue)] = []
            while true {
                if isPunctuator(UInt8(ascii: "}")) {
                    advance()
                    return .value(.object(members))
                }
                var key: String?
                switch current.kind {
                case .identifier: key = ScriptWords.string(bytes, current)
                case .string where current.terminated: key = ScriptStrings.value(bytes, current)
                case .number: key = number(current, negative: false).map(Self.keyText)
                default: key = nil
                }
                if key != nil { advance() }
                if let key, isPunctuator(UInt8(ascii: ":")) {
                    advance()
                    switch value(depth: depth + 1) {
                    case .value(let member): members.append((key, member))
                    case .skipped: break
                    case .failed: return .failed
                    }
                } else if case .failed = skipRest() {
                    return .failed  // a shorthand, method, accessor, computed key or spread: not data
                }
                if isPunctuator(UInt8(ascii: ",")) {
                    advance()
                } else if !isPunctuator(UInt8(ascii: "}")) {
                    return .failed
                }
            }
        }

        mutating func array(depth: Int) -> Outcome {
            advance()
            var elements: [JSONValue] = []
            while true {
                if isPunctuator(UInt8(ascii: "]")) {
                    advance()
                    return .value(.array(elements))
                }
                if isPunctuator(UInt8(ascii: ",")) {
                    elements.append(.null)  // a hole
                    advance()
                    continue
                }
                switch value(depth: depth + 1) {
                case .value(let element): elements.append(element)
                case .skipped: elements.append(.null)
                case .failed: return .failed
                }
                if isPunctuator(UInt8(ascii: ",")) {
                    advance()
                } else if !isPunctuator(UInt8(ascii: "]")) {
                    return .failed
                }
            }
        }

        static func keyText(_ number: JSONValue) -> String {
            switch number {
            case .integer(let value): String(value)
            default: number.description
            }
        }

        /// A numeric literal's value: integral decimal, hex, octal and binary literals that fit are integers.
        func number(_ token: ScriptToken, negative: Bool) -> JSONValue? {
            var digits: [UInt8] = []
            digits.reserveCapacity(token.end - token.start)
            for offset in token.start..<token.end where bytes[offset] != UInt8(ascii: "_") {
                digits.append(bytes[offset])
            }
            if digits.last == UInt8(ascii: "n") { digits.removeLast() }  // BigInt
            guard !digits.isEmpty else { return nil }
            let text = String(decoding: digits, as: UTF8.self)
            if digits.count > 2 && digits[0] == UInt8(ascii: "0") {
                let radix: Int? =
                    switch digits[1] | 0x20 {
                    case UInt8(ascii: "x"): 16
                    case UInt8(ascii: "o"): 8
                    case UInt8(ascii: "b"): 2
                    default: nil
                    }
                if let radix {
                    guard let value = Int64(text.dropFirst(2), radix: radix) else { return nil }
                    return .integer(negative ? -value : value)
                }
            }
            let integral = !digits.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            if integral, let value = Int64((negative ? "-" : "") + text) { return .integer(value) }
            guard let value = Double(text), digits.allSatisfy({ $0 < 0x80 }) else { return nil }
            return .double(negative ? -value : value)
        }
    }
}
