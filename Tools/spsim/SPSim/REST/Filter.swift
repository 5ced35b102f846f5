import Foundation

/// A literal in `$filter`.
enum FilterLiteral: Equatable {
    case string(String)
    case number(Double)
    case date(Int)
    case bool(Bool)
    case null
}

/// A parsed `$filter` expression.
indirect enum FilterExpression {
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    case not(FilterExpression)
    /// `field op literal`; `part` is nil or `year`/`month`/`day` for `year(Created) eq 2026`.
    case compare(field: String, part: String?, op: String, literal: FilterLiteral)
    case startsWith(field: String, prefix: String, expected: Bool)
    case substringOf(needle: String, field: String, expected: Bool)

    /// Every field name the expression reads.
    var fields: [String] {
        switch self {
        case .and(let lhs, let rhs), .or(let lhs, let rhs): return lhs.fields + rhs.fields
        case .not(let inner): return inner.fields
        case .compare(let field, _, _, _): return [field]
        case .startsWith(let field, _, _): return [field]
        case .substringOf(_, let field, _): return [field]
        }
    }
}

/// Tokenizer + recursive-descent parser for the subset of OData v3 `$filter` SharePoint accepts.
struct FilterParser {
    enum Token: Equatable {
        case identifier(String)
        case literal(FilterLiteral)
        case open, close, comma
    }

    var tokens: [Token] = []
    var position = 0

    static func parse(_ text: String) throws(RESTError) -> FilterExpression {
        var parser = FilterParser()
        parser.tokens = try tokenize(text)
        let expression = try parser.parseOr()
        guard parser.position == parser.tokens.count else {
            throw .invalidQuery("The expression \"\(text)\" is not valid.")
        }
        return expression
    }

    static func tokenize(_ text: String) throws(RESTError) -> [Token] {
        var tokens: [Token] = []
        let chars = Array(text)
        var index = 0
        func readQuoted() throws(RESTError) -> String {
            // chars[index] is the opening quote
            index += 1
            var value = ""
            while index < chars.count {
                if chars[index] == "'" {
                    if index + 1 < chars.count, chars[index + 1] == "'" {
                        value.append("'")
                        index += 2
                        continue
                    }
                    index += 1
                    return value
                }
                value.append(chars[index])
                index += 1
            }
            throw .invalidQuery("Unterminated string literal in $filter.")
        }
        while index < chars.count {
            let character = chars[index]
            if character == " " {
                index += 1
            } else if character == "(" {
                tokens.append(.open)
                index += 1
            } else if character == ")" {
                tokens.append(.close)
                index += 1
            } else if character == "," {
                tokens.append(.comma)
                index += 1
            } else if character == "'" {
                tokens.append(.literal(.string(try readQuoted())))
            } else if character.isNumber || (character == "-" && index + 1 < chars.count && chars[index + 1].isNumber) {
                var text = String(character)
                index += 1
                while index < chars.count, chars[index].isNumber || chars[index] == "." {
                    text.append(chars[index])
                    index += 1
                }
                if index < chars.count, "LlMmDdFf".contains(chars[index]) { index += 1 }
                tokens.append(.literal(.number(Double(text) ?? 0)))
            } else {
                var word = ""
                while index < chars.count,
                    chars[index].isLetter || chars[index].isNumber || chars[index] == "_"
                        || chars[index] == "/" || chars[index] == "."
                {
                    word.append(chars[index])
                    index += 1
                }
                guard !word.isEmpty else { throw .invalidQuery("Unexpected character '\(character)' in $filter.") }
                if index < chars.count, chars[index] == "'", word.lowercased() == "datetime" {
                    let value = try readQuoted()
                    guard let epoch = CivilTime.parse(value) else {
                        throw .invalidQuery("The DateTime literal '\(value)' is not valid.")
                    }
                    tokens.append(.literal(.date(epoch)))
                } else if word == "true" || word == "false" {
                    tokens.append(.literal(.bool(word == "true")))
                } else if word == "null" {
                    tokens.append(.literal(.null))
                } else {
                    tokens.append(.identifier(word))
                }
            }
        }
        return tokens
    }

    mutating func peekWord() -> String? {
        if position < tokens.count, case .identifier(let word) = tokens[position] { return word.lowercased() }
        return nil
    }

    mutating func parseOr() throws(RESTError) -> FilterExpression {
        var left = try parseAnd()
        while peekWord() == "or" {
            position += 1
            left = .or(left, try parseAnd())
        }
        return left
    }

    mutating func parseAnd() throws(RESTError) -> FilterExpression {
        var left = try parseUnary()
        while peekWord() == "and" {
            position += 1
            left = .and(left, try parseUnary())
        }
        return left
    }

    mutating func parseUnary() throws(RESTError) -> FilterExpression {
        if peekWord() == "not" {
            position += 1
            return .not(try parseUnary())
        }
        return try parsePrimary()
    }

    mutating func expect(_ token: Token) throws(RESTError) {
        guard position < tokens.count, tokens[position] == token else {
            throw .invalidQuery("Syntax error in $filter near token \(position + 1).")
        }
        position += 1
    }

    mutating func identifier() throws(RESTError) -> String {
        guard position < tokens.count, case .identifier(let word) = tokens[position] else {
            throw .invalidQuery("A field name was expected in $filter.")
        }
        position += 1
        return word
    }

    mutating func literal() throws(RESTError) -> FilterLiteral {
        guard position < tokens.count, case .literal(let value) = tokens[position] else {
            throw .invalidQuery("A literal was expected in $filter.")
        }
        position += 1
        return value
    }

    /// Optional `eq true` / `eq false` after a boolean function.
    mutating func booleanSuffix() throws(RESTError) -> Bool {
        guard let word = peekWord(), word == "eq" || word == "ne" else { return true }
        position += 1
        guard case .bool(let flag) = try literal() else { throw .invalidQuery("A boolean was expected in $filter.") }
        return word == "eq" ? flag : !flag
    }

    mutating func parsePrimary() throws(RESTError) -> FilterExpression {
        if position < tokens.count, tokens[position] == .open {
            position += 1
            let inner = try parseOr()
            try expect(.close)
            return inner
        }
        let name = try identifier()
        switch name.lowercased() {
        case "startswith":
            try expect(.open)
            let field = try identifier()
            try expect(.comma)
            guard case .string(let prefix) = try literal() else { throw .invalidQuery("startswith needs a string.") }
            try expect(.close)
            return .startsWith(field: field, prefix: prefix, expected: try booleanSuffix())
        case "substringof":
            try expect(.open)
            guard case .string(let needle) = try literal() else { throw .invalidQuery("substringof needs a string.") }
            try expect(.comma)
            let field = try identifier()
            try expect(.close)
            return .substringOf(needle: needle, field: field, expected: try booleanSuffix())
        case "year", "month", "day":
            try expect(.open)
            let field = try identifier()
            try expect(.close)
            let op = try comparison()
            return .compare(field: field, part: name.lowercased(), op: op, literal: try literal())
        default:
            let op = try comparison()
            return .compare(field: name, part: nil, op: op, literal: try literal())
        }
    }

    mutating func comparison() throws(RESTError) -> String {
        guard let word = peekWord(), ["eq", "ne", "lt", "le", "gt", "ge"].contains(word) else {
            throw .invalidQuery("An operator (eq, ne, lt, le, gt, ge) was expected in $filter.")
        }
        position += 1
        return word
    }
}

/// `$filter` evaluated against a value lookup (items, lists, fields, files).
extension SimulatorCore {
    func evaluate(_ expression: FilterExpression, lookup: (String) -> FieldValue) -> Bool {
        switch expression {
        case .and(let lhs, let rhs): return evaluate(lhs, lookup: lookup) && evaluate(rhs, lookup: lookup)
        case .or(let lhs, let rhs): return evaluate(lhs, lookup: lookup) || evaluate(rhs, lookup: lookup)
        case .not(let inner): return !evaluate(inner, lookup: lookup)
        case .startsWith(let field, let prefix, let expected):
            guard case .text(let text) = lookup(field) else { return !expected }
            return text.lowercased().hasPrefix(prefix.lowercased()) == expected
        case .substringOf(let needle, let field, let expected):
            guard case .text(let text) = lookup(field) else { return !expected }
            return text.lowercased().contains(needle.lowercased()) == expected
        case .compare(let field, let part, let op, let literal):
            var value = lookup(field)
            if let part, case .date(let epoch) = value {
                let civil = CivilTime(epoch)
                value = .number(Double(part == "year" ? civil.year : part == "month" ? civil.month : civil.day))
            }
            let order = compare(value, literal)
            switch op {
            case "eq": return order == 0
            case "ne": return order != 0
            case "lt": return order.map { $0 < 0 } ?? false
            case "le": return order.map { $0 <= 0 } ?? false
            case "gt": return order.map { $0 > 0 } ?? false
            case "ge": return order.map { $0 >= 0 } ?? false
            default: return false
            }
        }
    }

    /// Three-way comparison of a stored value with a literal; nil when not comparable.
    func compare(_ value: FieldValue, _ literal: FilterLiteral) -> Int? {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
        switch (value, literal) {
        case (.null, .null): return 0
        case (.null, _), (_, .null): return nil
        case (.text(let a), .string(let b)): return sign(a.lowercased(), b.lowercased())
        case (.text(let a), .number(let b)): return Double(a).map { sign($0, b) }
        case (.number(let a), .number(let b)): return sign(a, b)
        case (.number(let a), .string(let b)): return Double(b).map { sign(a, $0) }
        case (.lookup(let a), .number(let b)): return sign(Double(a), b)
        case (.date(let a), .date(let b)): return sign(a, b)
        case (.date(let a), .string(let b)): return CivilTime.parse(b).map { sign(a, $0) }
        case (.bool(let a), .bool(let b)): return a == b ? 0 : 1
        case (.bool(let a), .number(let b)): return (a ? 1.0 : 0.0) == b ? 0 : 1
        default: return nil
        }
    }
}
