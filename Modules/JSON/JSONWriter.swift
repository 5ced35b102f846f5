public import Foundation

extension JSONValue {
    /// How ``serialized(options:level:)`` and ``encoded(options:)`` write JSON text.
    public struct WritingOptions: OptionSet, Sendable {
        public let rawValue: Int

        /// Creates options from their raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// One element or member per line, two spaces per level, `": "` after names; empty arrays and objects
        /// stay `[]` and `{}`.
        public static let prettyPrinted = WritingOptions(rawValue: 1 << 0)
        /// Object members sorted by name (`String` order; stable for equal names), for output that does not depend on how it was built.
        public static let sortedKeys = WritingOptions(rawValue: 1 << 1)
        /// Every ``JSONValue/double(_:)`` in Swift's shortest round-trip form (`2.0`, `0.1`, `1e+21`). Without it,
        /// integral doubles below 10^15 are written as integers (`2`).
        public static let doublesKeepFraction = WritingOptions(rawValue: 1 << 2)
    }

    /// JSON text for the value.
    ///
    /// Strings are written as UTF-8 with these escapes: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`; every other
    /// control character below U+0020, DEL (U+007F) and U+2028/U+2029 (valid JSON but line breaks in JavaScript)
    /// as `\u00XX`/`\u2028`. Non-finite doubles are written as `null`.
    ///
    /// - Parameters:
    ///   - options: layout, key order and number form; compact, in member order, by default.
    ///   - level: with ``WritingOptions/prettyPrinted``, the nesting level the value starts at (inner lines are
    ///     indented from there; the first line is not).
    public func serialized(options: WritingOptions = [], level: Int = 0) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out, options: options, level: level)
        return String(decoding: out, as: UTF8.self)
    }

    /// UTF-8 JSON text for the value (see ``serialized(options:level:)``); compact, in member order, by default.
    public func encoded(options: WritingOptions = []) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out, options: options, level: 0)
        return Data(out)
    }

    /// `text` as a quoted, escaped JSON string.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON text of the value (the bytes ``serialized(options:level:)`` returns) to `out`: lets a
    /// writer reuse one buffer instead of building a string per value.
    public func append(to out: inout [UInt8], options: WritingOptions = [], level: Int = 0) {
        write(to: &out, options: options, level: level)
    }

    /// Appends `text` as a quoted, escaped JSON string (the bytes ``quoted(_:)`` returns) to `out`.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        writeString(text, to: &out)
    }

    private func write(to out: inout [UInt8], options: WritingOptions, level: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): JSONValue.writeInteger(i, to: &out)
        case .double(let d):
            if !d.isFinite {
                out.append(contentsOf: "null".utf8)
            } else if !options.contains(.doublesKeepFraction) && d.rounded() == d && abs(d) < 1e15 {
                JSONValue.writeInteger(Int64(d), to: &out)
            } else {
                out.append(contentsOf: d.description.utf8)
            }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, options, level + 1)
                element.write(to: &out, options: options, level: level + 1)
            }
            JSONValue.newline(&out, options, level)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            let ordered =
                options.contains(.sortedKeys)
                ? members.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
                : members
            out.append(UInt8(ascii: "{"))
            for (i, (name, value)) in ordered.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, options, level + 1)
                JSONValue.writeString(name, to: &out)
                out.append(UInt8(ascii: ":"))
                if options.contains(.prettyPrinted) { out.append(UInt8(ascii: " ")) }
                value.write(to: &out, options: options, level: level + 1)
            }
            JSONValue.newline(&out, options, level)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ options: WritingOptions, _ level: Int) {
        guard options.contains(.prettyPrinted) else { return }
        out.append(0x0A)
        out += repeatElement(UInt8(ascii: " "), count: 2 * level)
    }

    /// Decimal digits of `value` (a small string: no heap allocation).
    private static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }

    /// Whether a UTF-8 byte may be copied as is: not `"`, `\`, a control character, DEL, or the lead byte of
    /// U+2028/U+2029.
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0x7F && byte != 0xE2
    }

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        // Fast path: nothing to escape, the UTF-8 is copied in one go (checked on the contiguous bytes: the
        // generic walk of a UTF-8 view cost a twentieth of a big NDJSON listing).
        if s.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(isPlain) }) ?? s.utf8.allSatisfy(isPlain) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        let bytes = Array(s.utf8)
        out.append(UInt8(ascii: "\""))
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20, 0x7F:
                out += Array("\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            case 0xE2 where bytes[index...].starts(with: [0x80, 0xA8]):  // U+2028 LINE SEPARATOR
                out += Array("\\u2028".utf8)
                index += 2
            case 0xE2 where bytes[index...].starts(with: [0x80, 0xA9]):  // U+2029 PARAGRAPH SEPARATOR
                out += Array("\\u2029".utf8)
                index += 2
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
