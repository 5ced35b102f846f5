// One file on purpose (about 400 lines): one recursive-descent parser and its error positions.

public import Foundation

/// A JSON syntax error: where the text stops being JSON, and why.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset (from the start of the UTF-8 text, a byte order mark included) of the first bad byte.
    public let offset: Int
    /// What was wrong there, e.g. `"expected ',' or '}'"`.
    public let reason: String

    /// Creates an error.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `"<reason> at byte <offset>"`.
    public var description: String { "\(reason) at byte \(offset)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects ``parse(_:)`` accepts; deeper input is refused rather
    /// than risking the stack.
    public static let maximumDepth = 512

    /// Parses UTF-8 JSON text (RFC 8259), keeping object member order. A leading UTF-8 byte order mark is skipped.
    ///
    /// - Throws: ``JSONSyntaxError`` naming the byte offset of the first syntax error; nesting deeper than
    ///   ``maximumDepth`` is an error too.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(data))
    }

    /// Parses JSON text given as a string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses UTF-8 JSON text given as bytes.
    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }
}

/// A recursive-descent RFC 8259 parser over UTF-8 bytes that keeps member order.
struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    /// Streaming mode (see ``JSONValue/parse(bytes:streaming:element:)``): the member paths whose arrays are
    /// handed over element by element, whether each was found, and the receiver.
    var streamPaths: [[String]] = []
    var streamed: [Bool] = []
    var onElement: ((Int, JSONValue) -> Void)?
    /// Skip the streamed arrays' elements instead of parsing them (``JSONValue/parse(bytes:skipping:)``).
    var skipsStreamedElements = false
    /// The most elements handed over per streamed array; later ones are skipped and counted in ``dropped``.
    var streamLimit: Int?
    /// Per stream path: elements handed over so far, and elements skipped past ``streamLimit``.
    var handed: [Int] = []
    var dropped: [Int] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is tolerated (some servers and editors write one).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// A parser in streaming mode for `paths`, none of them found yet.
    init(bytes: [UInt8], streaming paths: [[String]]) {
        self.init(bytes: bytes)
        streamPaths = paths
        streamed = Array(repeating: false, count: paths.count)
        handed = Array(repeating: 0, count: paths.count)
        dropped = Array(repeating: 0, count: paths.count)
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected data after the JSON value") }
        return value
    }

    mutating func parseStreamingDocument() throws(JSONSyntaxError) -> JSONValue {
        let value = try parseStreamingValue(level: 0, candidates: Array(streamPaths.indices))
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected data after the JSON value") }
        return value
    }

    /// A value at `level` (members from the root) whose route so far matches the paths in `candidates`.
    private mutating func parseStreamingValue(level: Int, candidates: [Int]) throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of data") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try parseObject(level: level, candidates: candidates)
        case UInt8(ascii: "["):
            guard let path = candidates.first(where: { streamPaths[$0].count == level }) else {
                return try parseValue()
            }
            streamed[path] = true
            return try parseArray(handingTo: path)
        default:
            return try parseValue()
        }
    }

    private func fail(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, reason: reason)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of data") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseKeyword("true", .bool(true))
        case UInt8(ascii: "f"): return try parseKeyword("false", .bool(false))
        case UInt8(ascii: "n"): return try parseKeyword("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    private mutating func parseKeyword(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let w = word.utf8
        guard bytes.count - index >= w.count, bytes[index..<index + w.count].elementsEqual(w) else {
            throw fail("invalid literal")
        }
        index += w.count
        return value
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONValue.maximumDepth { throw fail("nesting deeper than \(JSONValue.maximumDepth) levels") }
    }

    /// An object. In streaming mode, `candidates` are the stream paths whose route so far (`level` members from
    /// the root) leads here; a member on one of them is parsed as a streaming value.
    private mutating func parseObject(level: Int = 0, candidates: [Int] = []) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(String, JSONValue)] = []
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let name = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            // Only the first member of a name is on a path (the one `member(_:)` finds).
            let next =
                candidates.isEmpty || !seen.insert(name).inserted
                ? [] : candidates.filter { streamPaths[$0].count > level && streamPaths[$0][level] == name }
            members.append(
                (name, next.isEmpty ? try parseValue() : try parseStreamingValue(level: level + 1, candidates: next)))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    /// An array; with `path` (streaming mode) each element is handed to `onElement` instead of kept, and the
    /// array comes back empty.
    private mutating func parseArray(handingTo path: Int? = nil) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            if let path, skipsStreamedElements || handed[path] >= (streamLimit ?? .max) {
                try skipValue()
                if !skipsStreamedElements { dropped[path] += 1 }
            } else {
                if let path { handed[path] += 1 }
                let element = try parseValue()
                if let path { onElement?(path, element) } else { elements.append(element) }
            }
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw fail("expected ',' or ']'")
            }
        }
    }

    /// Moves past one value without building it: objects and arrays by their nesting, strings by their closing
    /// quote (escapes stepped over); scalars are parsed (they are short).
    private mutating func skipValue() throws(JSONSyntaxError) {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of data") }
        let first = bytes[index]
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") else {
            _ = try parseValue()
            return
        }
        var nesting = 0
        repeat {
            guard index < bytes.count else { throw fail("unexpected end of data") }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { throw fail("unterminated string") }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                nesting += 1
                guard depth + nesting <= JSONValue.maximumDepth else {
                    throw fail("nesting deeper than \(JSONValue.maximumDepth) levels")
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                nesting -= 1
            default:
                break
            }
            index += 1
        } while nesting > 0
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw fail("truncated \\u escape") }
        var v: UInt16 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | UInt16(digit)
            index += 1
        }
        return v
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        // Fast path: most strings have no escapes; they become a String straight from the input bytes.
        let start = index
        var scan = index
        while scan < bytes.count {
            let c = bytes[scan]
            if c == UInt8(ascii: "\"") {
                index = scan + 1
                return String(decoding: bytes[start..<scan], as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            scan += 1
        }
        var out: [UInt8] = Array(bytes[start..<scan])
        index = scan
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                break
            }
            if c < 0x20 { throw fail("control character in string") }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(try parseHex4())
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = UInt32(try parseHex4())
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00..<0xE000).contains(scalar) {
                    scalar = 0xFFFD
                }
                out += Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default: throw fail("invalid escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        guard isDigit(index) else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard isDigit(index) else { throw fail("invalid number") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { throw fail("invalid number") }
            while isDigit(index) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let i = Int64(text) { return .integer(i) }
        guard let d = Double(text) else { throw fail("invalid number") }
        return .double(d)
    }
}
