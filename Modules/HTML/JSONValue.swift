/// A decoded JSON value (used for Entra ID's `$Config` object and for command output).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object; nil otherwise.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The text of a string value.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an array value.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members of an object value.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Parses one JSON text (RFC 8259). Nil when it is not valid JSON.
    public static func parse(_ text: String) -> JSONValue? {
        var parser = JSONParser(scalars: Array(text.unicodeScalars))
        guard let value = parser.parseValue() else { return nil }
        parser.skipWhitespace()
        return parser.position == parser.scalars.count ? value : nil
    }

    /// Serialises the value; object members sorted by key so output is stable.
    public func serialized(pretty: Bool = false, indent: String = "") -> String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .string(let value): return JSONValue.quote(value)
        case .array(let values):
            if values.isEmpty { return "[]" }
            if !pretty { return "[" + values.map { $0.serialized() }.joined(separator: ",") + "]" }
            let inner = indent + "  "
            return "[\n" + values.map { inner + $0.serialized(pretty: true, indent: inner) }.joined(separator: ",\n")
                + "\n" + indent + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let keys = members.keys.sorted()
            if !pretty {
                return "{" + keys.map { JSONValue.quote($0) + ":" + members[$0]!.serialized() }.joined(separator: ",")
                    + "}"
            }
            let inner = indent + "  "
            return "{\n"
                + keys.map { inner + JSONValue.quote($0) + ": " + members[$0]!.serialized(pretty: true, indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

private struct JSONParser {
    let scalars: [Unicode.Scalar]
    var position = 0

    mutating func skipWhitespace() {
        while position < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[position]) { position += 1 }
    }

    mutating func parseValue() -> JSONValue? {
        skipWhitespace()
        guard position < scalars.count else { return nil }
        switch scalars[position] {
        case "{": return parseObject()
        case "[": return parseArray()
        case "\"": return parseString().map(JSONValue.string)
        case "t": return literal("true", .bool(true))
        case "f": return literal("false", .bool(false))
        case "n": return literal("null", .null)
        default: return parseNumber()
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
        let wordScalars = Array(word.unicodeScalars)
        guard position + wordScalars.count <= scalars.count,
            Array(scalars[position..<position + wordScalars.count]) == wordScalars
        else { return nil }
        position += wordScalars.count
        return value
    }

    private mutating func parseNumber() -> JSONValue? {
        let start = position
        while position < scalars.count, "+-0123456789.eE".unicodeScalars.contains(scalars[position]) { position += 1 }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<position])
        guard let value = Double(text) else { return nil }
        return .number(value)
    }

    private mutating func parseString() -> String? {
        guard scalars[position] == "\"" else { return nil }
        position += 1
        var result = ""
        while position < scalars.count {
            let scalar = scalars[position]
            position += 1
            if scalar == "\"" { return result }
            if scalar != "\\" {
                result.unicodeScalars.append(scalar)
                continue
            }
            guard position < scalars.count else { return nil }
            let escape = scalars[position]
            position += 1
            switch escape {
            case "\"": result += "\""
            case "\\": result += "\\"
            case "/": result += "/"
            case "b": result += "\u{08}"
            case "f": result += "\u{0C}"
            case "n": result += "\n"
            case "r": result += "\r"
            case "t": result += "\t"
            case "u":
                guard var code = hex4() else { return nil }
                if (0xD800..<0xDC00).contains(code), position + 1 < scalars.count, scalars[position] == "\\",
                    scalars[position + 1] == "u"
                {
                    position += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                result.unicodeScalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: return nil
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard position + 4 <= scalars.count else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[position..<position + 4])
        position += 4
        return UInt32(text, radix: 16)
    }

    private mutating func parseArray() -> JSONValue? {
        position += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if position < scalars.count, scalars[position] == "]" {
            position += 1
            return .array(values)
        }
        while true {
            guard let value = parseValue() else { return nil }
            values.append(value)
            skipWhitespace()
            guard position < scalars.count else { return nil }
            if scalars[position] == "," {
                position += 1
                continue
            }
            if scalars[position] == "]" {
                position += 1
                return .array(values)
            }
            return nil
        }
    }

    private mutating func parseObject() -> JSONValue? {
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < scalars.count, scalars[position] == "}" {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < scalars.count, let key = parseString() else { return nil }
            skipWhitespace()
            guard position < scalars.count, scalars[position] == ":" else { return nil }
            position += 1
            guard let value = parseValue() else { return nil }
            members[key] = value  // as in JavaScript, a repeated key keeps its last value
            skipWhitespace()
            guard position < scalars.count else { return nil }
            if scalars[position] == "," {
                position += 1
                continue
            }
            if scalars[position] == "}" {
                position += 1
                return .object(members)
            }
            return nil
        }
    }
}
