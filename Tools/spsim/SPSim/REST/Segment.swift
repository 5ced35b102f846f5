import Foundation

/// One path segment of a REST URL: `getbytitle('Tasks')` → name `getbytitle`, argument `'Tasks'`.
struct Segment {
    var name: String
    var argument: String?
    var lower: String { name.lowercased() }

    /// The argument as an OData string literal (`'O''Brien'` → `O'Brien`), also `decodedurl='…'` / `url='…'`
    /// (the first named parameter's literal).
    var stringArgument: String? {
        guard let text = argument?.trimmingCharacters(in: .whitespaces) else { return nil }
        if !text.hasPrefix("'"), let first = Segment.arguments(text).first,
            let equals = Segment.unquotedIndex(of: "=", in: first)
        {
            return Segment.literal(String(first[first.index(after: equals)...]))
        }
        return Segment.literal(text)
    }

    /// Named parameters `a=1,b=guid'x',c='x, y'` (commas inside quoted literals do not separate).
    func parameter(_ wanted: String) -> String? {
        guard let argument else { return nil }
        for part in Segment.arguments(argument) {
            guard let equals = Segment.unquotedIndex(of: "=", in: part) else { continue }
            let key = part[..<equals].trimmingCharacters(in: .whitespaces)
            guard key.lowercased() == wanted.lowercased() else { continue }
            var value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.lowercased().hasPrefix("guid'") { value = String(value.dropFirst(4)) }
            return Segment.literal(value) ?? value
        }
        return nil
    }

    /// The text of an OData string literal `'…'` (`''` inside is one quote); nil when `text` is not one.
    static func literal(_ text: String) -> String? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 else { return nil }
        return String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
    }

    /// `argument` cut at the commas outside quoted literals (a doubled `''` inside a literal stays inside).
    static func arguments(_ argument: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuote = false
        for character in argument {
            if character == "'" { inQuote.toggle() }
            if character == ",", !inQuote {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// The first `character` of `text` outside quoted literals.
    static func unquotedIndex(of character: Character, in text: String) -> String.Index? {
        var inQuote = false
        for index in text.indices {
            if text[index] == "'" { inQuote.toggle() }
            if text[index] == character, !inQuote { return index }
        }
        return nil
    }

    /// `guid'…'` or a bare GUID.
    var guidArgument: String? {
        guard var text = argument?.trimmingCharacters(in: .whitespaces) else { return nil }
        if text.lowercased().hasPrefix("guid") { text = String(text.dropFirst(4)) }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "'")).lowercased()
    }

    static func split(_ path: String) -> [Segment] {
        var segments: [Segment] = []
        var current = ""
        var depth = 0
        var inQuote = false
        for character in path {
            if character == "'" { inQuote.toggle() }
            if !inQuote {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
            }
            if character == "/", depth == 0, !inQuote {
                if !current.isEmpty { segments.append(parse(current)) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { segments.append(parse(current)) }
        return segments
    }

    static func parse(_ text: String) -> Segment {
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return Segment(name: text) }
        return Segment(
            name: String(text[..<open]),
            argument: String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
    }
}
