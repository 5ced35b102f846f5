/// Byte-level comparisons for the ASCII words the page rules look for in attribute values (`hidden`,
/// `display:none`, `tooltip`): the same answers as lower-casing and `contains`, without Foundation's string search
/// or Unicode case mapping on every element of a page.
enum ASCIIText {
    /// Whether `text` is `word` (lower-case ASCII) in any letter case.
    static func equalsIgnoringCase(_ text: String, _ word: StaticString) -> Bool {
        text.utf8.count == word.utf8CodeUnitCount && containsIgnoringCase(text, word)
    }

    /// Whether `text` contains `word` (lower-case ASCII), in any ASCII letter case.
    static func containsIgnoringCase(_ text: String, _ word: StaticString) -> Bool {
        var copy = text
        return copy.withUTF8 { containsIgnoringCase($0, word) }
    }

    /// `bytes` without leading and trailing ASCII white space (space, tab, LF, FF, CR), as
    /// ``Swift/String/trimmingASCIIWhitespace()`` trims text.
    static func trimmingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }
        var start = 0
        var end = bytes.count
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Whether `bytes` start with `word` (lower-case ASCII), in any ASCII letter case.
    static func startsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let expected = word.utf8Start
        for offset in 0..<count {
            let byte = bytes[offset]
            if (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) != expected[offset] { return false }
        }
        return true
    }

    /// Whether `bytes` contain `word` (lower-case ASCII), in any ASCII letter case.
    static func containsIgnoringCase(_ haystack: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        let needleCount = word.utf8CodeUnitCount
        return word.withUTF8Buffer { needle -> Bool in
            guard needleCount > 0 else { return true }
            guard haystack.count >= needleCount else { return false }
            for start in 0...(haystack.count - needleCount) {
                var matched = true
                for offset in 0..<needleCount {
                    let byte = haystack[start + offset]
                    if (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) != needle[offset] {
                        matched = false
                        break
                    }
                }
                if matched { return true }
            }
            return false
        }
    }

    /// Whether `text` contains `word` exactly (the scripts' byte search, which passes over eight places at a time).
    static func contains(_ text: String, _ word: StaticString) -> Bool {
        ScriptStrings.withBytes(text) { ScriptStrings.contains($0, word) }
    }
}
