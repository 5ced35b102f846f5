/// A block of CSS declarations (a `style` attribute, or a rule's body) as its `property: value` pairs in order,
/// lower-cased, whitespace and `!important` removed: what ``HidingDeclarations`` and the error reader's red-text check
/// read.
enum StyleDeclarations {
    static func pairs(of text: String) -> [(property: String, value: String)] {
        if let pairs = printableASCIIPairs(of: text) { return pairs }
        return text.lowercased().split(separator: ";").compactMap { declaration in
            guard let colon = declaration.firstIndex(of: ":") else { return nil }
            var value = declaration[declaration.index(after: colon)...]
            if let important = value.range(of: "!important") { value = value[..<important.lowerBound] }
            return (
                declaration[..<colon].filter { !$0.isWhitespace }, value.filter { !$0.isWhitespace }
            )
        }
    }

    /// ``pairs(of:)`` on the bytes, for text of printable ASCII, tabs and line breaks (nearly every style): there each
    /// byte is a character of its own or part of CR LF (white space either way, and no delimiter), so the bytes give
    /// what the characters give. Nil for any other text.
    private static func printableASCIIPairs(of text: String) -> [(property: String, value: String)]? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let bytes = text.utf8
        guard bytes.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || isSpace($0) }) else { return nil }
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let important = Array("!important".utf8)
        var pairs: [(property: String, value: String)] = []
        for declaration in lowered.split(separator: UInt8(ascii: ";")) {
            guard let colon = declaration.firstIndex(of: UInt8(ascii: ":")) else { continue }
            var value = declaration[(colon + 1)...]
            if let cut = firstIndex(of: important, in: value) { value = value[..<cut] }
            pairs.append(
                (
                    String(decoding: declaration[..<colon].filter { !isSpace($0) }, as: UTF8.self),
                    String(decoding: value.filter { !isSpace($0) }, as: UTF8.self)
                ))
        }
        return pairs
    }

    /// Where `pattern` first occurs in `bytes`.
    private static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in bytes.startIndex...(bytes.endIndex - pattern.count)
        where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }
}
