/// A block of CSS declarations (a `style` attribute, or a rule's body) as its `property: value` pairs in order,
/// lower-cased, whitespace and `!important` removed: what ``HidingDeclarations`` and the error reader's red-text check
/// read.
enum StyleDeclarations {
    static func pairs(of text: String) -> [(property: String, value: String)] {
        text.lowercased().split(separator: ";").compactMap { declaration in
            guard let colon = declaration.firstIndex(of: ":") else { return nil }
            var value = declaration[declaration.index(after: colon)...]
            if let important = value.range(of: "!important") { value = value[..<important.lowerBound] }
            return (
                declaration[..<colon].filter { !$0.isWhitespace }, value.filter { !$0.isWhitespace }
            )
        }
    }
}
