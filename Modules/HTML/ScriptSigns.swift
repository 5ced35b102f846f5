/// Byte-level signs, read before a script is lexed, that it may navigate or submit a form: a script without the
/// sign cannot hold what ``ScriptScanner`` looks for, so it is not scanned at all. Each sign is a necessary condition
/// only, never the answer: what a sign lets through is read token by token as before.
///
/// A sign is a word followed by what must come next for the scanner to take it (`location` and `=`, `submit` and
/// `(`). Anything that may sit between two tokens and hide that (a comment, an escape, a space beyond ASCII) counts
/// as a sign too. Code inside a string handed to a timer (`setTimeout('location.href=\'…\'')`) is read after its
/// escapes are decoded, so a script that calls a timer and holds a backslash is also looked at decoded, once per
/// level of strings the scanner reads.
enum ScriptSigns {
    /// Whether `bytes` may assign the window's location (`location = '…'`, `location.href = '…'`) or call
    /// `location.replace(…)` / `location.assign(…)`.
    static func mayRedirect(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        mayRedirectOrSubmit(bytes, redirect: true, submit: false).redirect
    }

    /// Whether `bytes` may call `submit(…)`, `requestSubmit(…)` or `click(…)`.
    static func maySubmit(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        mayRedirectOrSubmit(bytes, redirect: false, submit: true).submit
    }

    // MARK: Levels

    /// ``mayRedirect(_:)`` (when `redirect` is asked) and ``maySubmit(_:)`` (when `submit` is): whether the sign holds
    /// in `bytes`, or, when a timer may read a string of it as code, in its text decoded as the scanner decodes such
    /// strings (each level only while a backslash is left to decode). The levels are decoded once for both.
    static func mayRedirectOrSubmit(_ bytes: UnsafeBufferPointer<UInt8>, redirect: Bool, submit: Bool)
        -> (redirect: Bool, submit: Bool)
    {
        var found = (redirect: redirect && holdsRedirectSign(bytes), submit: submit && holdsSubmissionSign(bytes))
        let backslash = UInt8(ascii: "\\")
        func open() -> Bool { (redirect && !found.redirect) || (submit && !found.submit) }
        guard open(), bytes.contains(backslash), callsTimer(bytes) else { return found }
        var level = decoded(bytes)
        for depth in 1...ScriptScanner.maximumDepth {
            level.withUnsafeBufferPointer { level in
                if redirect && !found.redirect { found.redirect = holdsRedirectSign(level) }
                if submit && !found.submit { found.submit = holdsSubmissionSign(level) }
            }
            guard open(), depth < ScriptScanner.maximumDepth, level.contains(backslash) else { return found }
            level = level.withUnsafeBufferPointer(decoded)
        }
        return found
    }

    /// `bytes` with every JavaScript escape decoded, as if the whole were one string literal: each string's decoded
    /// text is part of it, since no escape runs past the quote that opens a string.
    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        Array(ScriptStrings.decode(bytes, from: 0, to: bytes.count).utf8)
    }

    /// Whether `bytes` names one of the timers whose string argument the scanner reads as code.
    static func callsTimer(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ScriptStrings.contains(bytes, "setTimeout") || ScriptStrings.contains(bytes, "setInterval")
            || ScriptStrings.contains(bytes, "requestAnimationFrame") || ScriptStrings.contains(bytes, "setImmediate")
            || ScriptStrings.contains(bytes, "queueMicrotask")
    }

    // MARK: Signs

    private static func holdsRedirectSign(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while let found = ScriptStrings.firstIndex(of: "location", in: bytes, from: start) {
            start = found + 8
            var index = skipSpace(bytes, from: start)
            guard index < bytes.count else { return false }
            if mayHideToken(bytes[index]) || isAssignment(bytes, at: index) { return true }
            guard bytes[index] == UInt8(ascii: ".") else { continue }
            index = skipSpace(bytes, from: index + 1)
            guard index < bytes.count else { return false }
            if mayHideToken(bytes[index]) { return true }
            if startsWith("href", in: bytes, at: index) {
                index = skipSpace(bytes, from: index + 4)
                if index < bytes.count, mayHideToken(bytes[index]) || isAssignment(bytes, at: index) { return true }
            } else if startsWith("replace", in: bytes, at: index) || startsWith("assign", in: bytes, at: index) {
                index = skipSpace(bytes, from: index + (bytes[index] == UInt8(ascii: "r") ? 7 : 6))
                if index < bytes.count, mayHideToken(bytes[index]) || bytes[index] == UInt8(ascii: "(") {
                    return true
                }
            }
        }
        return false
    }

    private static func holdsSubmissionSign(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for word: StaticString in ["ubmit", "click"] {
            var start = 0
            while let found = ScriptStrings.firstIndex(of: word, in: bytes, from: start) {
                start = found + word.utf8CodeUnitCount
                let index = skipSpace(bytes, from: start)
                guard index < bytes.count else { break }
                if mayHideToken(bytes[index]) || bytes[index] == UInt8(ascii: "(") { return true }
            }
        }
        return false
    }

    // MARK: Bytes

    /// A byte that may start what the lexer passes over between two tokens beyond ASCII white space (a comment,
    /// `<!--`, `-->`, a space beyond ASCII) or an escape that decodes to anything.
    private static func mayHideToken(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: "-") || byte >= 0x80
    }

    /// `=` that is not the start of `==` or `===`.
    private static func isAssignment(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        bytes[index] == UInt8(ascii: "=") && (index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "="))
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || (bytes[index] >= 0x09 && bytes[index] <= 0x0D) {
            index += 1
        }
        return index
    }

    private static func startsWith(_ word: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pattern = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }
}
