import JSON

/// The WebAuthn options a page carries for its scripts to hand to `navigator.credentials`: any object literal or
/// JSON object with a `challenge` member, wherever the page puts it (an inline script's variable, a
/// `<script type="application/json">` block, a `data-*` attribute, a hidden input's value, or a JSON text inside a
/// script's string literal that the script parses). Which of them are request or creation options is the sign-in
/// engine's to decide; this only finds them.
///
/// One lexer pass per text: the innermost `{` open at each `challenge` key is read as an object literal, and no byte
/// is read into two objects.
enum PasskeyOptionsReading {
    /// The most option objects read from one text (a page carries one or two).
    static let maximumObjects = 16

    /// The objects holding a `challenge` member in `text`, in the order they appear.
    static func objects(in text: String) -> [JSONValue] {
        objects(in: text, nested: 0)
    }

    private static func objects(in text: String, nested: Int) -> [JSONValue] {
        guard text.utf8.count >= 9 else { return [] }
        return ScriptStrings.withBytes(text) { bytes -> [JSONValue] in
            guard ScriptStrings.contains(bytes, "challenge") else { return [] }
            var found: [JSONValue] = []
            var lexer = ScriptLexer(bytes: bytes)
            var open: [Int] = []
            var readUpTo = 0
            var previous = ScriptToken.none
            while true {
                let token = lexer.next()
                if token.kind == .end { break }
                if token.isPunctuator(UInt8(ascii: "{")) {
                    open.append(token.start)
                } else if token.isPunctuator(UInt8(ascii: "}")) {
                    _ = open.popLast()
                } else if token.isPunctuator(UInt8(ascii: ":")), let start = open.last, start >= readUpTo,
                    found.count < maximumObjects, isChallengeKey(previous, bytes)
                {
                    // Each byte is read as part of an object at most once: a `challenge` inside an object already
                    // read is not read again, so nested objects cost one pass.
                    let (value, end) = ScriptObjectLiteral.read(bytes, at: start)
                    readUpTo = end
                    if let value, value["challenge"] != nil { found.append(value) }
                } else if token.kind == .string, nested == 0, token.end - token.start > 20 {
                    // JSON inside a string the script parses (`JSON.parse('{"challenge": …}')`).
                    let inner = ScriptStrings.value(bytes, token)
                    if inner.contains("challenge") { found += objects(in: inner, nested: nested + 1) }
                }
                previous = token
            }
            return found
        }
    }

    /// Whether `token` is the key `challenge` (written bare or quoted).
    private static func isChallengeKey(_ token: ScriptToken, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch token.kind {
        case .identifier:
            return token.end - token.start == 9
                && ScriptStrings.decode(bytes, from: token.start, to: token.end)
                    == "challenge"
        case .string:
            return token.end - token.start == 11 && ScriptStrings.value(bytes, token) == "challenge"
        default:
            return false
        }
    }
}
