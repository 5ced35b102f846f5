/// JSON text for cells and records: keys in field order, stable output, strict escaping.
///
/// Escaped: `"` and `\`, every control character below U+0020 (as `\n`, `\t`… or `\u00XX`), DEL, and U+2028/U+2029
/// (valid in JSON but line breaks in JavaScript). Other characters are written as UTF-8. Dates are ISO 8601 strings
/// in UTC; non-finite doubles are `null`.
public enum JSONText {
    /// `text` as a quoted, escaped JSON string.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        appendQuoted(text, to: &result)
        return result
    }

    /// `value` as compact JSON (no spaces or newlines).
    public static func compact(_ value: JSONValue) -> String {
        var result = ""
        append(value, to: &result, indent: nil)
        return result
    }

    /// `value` as pretty JSON, two spaces per level, starting at nesting `level`.
    public static func pretty(_ value: JSONValue, level: Int = 0) -> String {
        var result = ""
        append(value, to: &result, indent: level)
        return result
    }

    /// `record` as a compact JSON object.
    public static func compact(_ record: Record) -> String {
        var result = ""
        appendObject(record, to: &result, indent: nil)
        return result
    }

    /// `record` as a pretty JSON object, starting at nesting `level`.
    public static func pretty(_ record: Record, level: Int = 0) -> String {
        var result = ""
        appendObject(record, to: &result, indent: level)
        return result
    }

    /// The JSON value a cell is rendered as.
    public static func value(of cell: Cell) -> JSONValue {
        switch cell {
        case .string(let value): return .string(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .bool(let value): return .bool(value)
        case .date(let value): return .string(CellText.iso8601(value))
        case .null: return .null
        case .json(let value): return value
        }
    }

    static func appendObject(_ record: Record, to result: inout String, indent: Int?) {
        appendMembers(
            record.fields.lazy.map { ($0.name, value(of: $0.value)) }, count: record.fields.count,
            to: &result, indent: indent)
    }

    private static func appendMembers(
        _ members: some Sequence<(String, JSONValue)>, count: Int, to result: inout String, indent: Int?
    ) {
        guard count > 0 else {
            result += "{}"
            return
        }
        result += "{"
        var first = true
        for (key, value) in members {
            if !first { result += "," }
            first = false
            newline(&result, indent.map { $0 + 1 })
            result += "\""
            appendQuoted(key, to: &result)
            result += indent == nil ? ":" : ": "
            append(value, to: &result, indent: indent.map { $0 + 1 })
        }
        newline(&result, indent)
        result += "}"
    }

    private static func newline(_ result: inout String, _ indent: Int?) {
        guard let indent else { return }
        result += "\n"
        result += String(repeating: "  ", count: indent)
    }

    static func append(_ value: JSONValue, to result: inout String, indent: Int?) {
        switch value {
        case .null: result += "null"
        case .bool(let value): result += value ? "true" : "false"
        case .int(let value): result += String(value)
        case .double(let value): result += value.isFinite ? CellText.number(value) : "null"
        case .string(let value):
            result += "\""
            appendQuoted(value, to: &result)
        case .array(let elements):
            guard !elements.isEmpty else {
                result += "[]"
                return
            }
            result += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { result += "," }
                newline(&result, indent.map { $0 + 1 })
                append(element, to: &result, indent: indent.map { $0 + 1 })
            }
            newline(&result, indent)
            result += "]"
        case .object(let members):
            appendMembers(members.lazy.map { ($0.key, $0.value) }, count: members.count, to: &result, indent: indent)
        }
    }

    /// Appends the escaped contents of `text` and the closing quote.
    private static func appendQuoted(_ text: String, to result: inout String) {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: scalars.append(contentsOf: "\\\"".unicodeScalars)
            case 0x5C: scalars.append(contentsOf: "\\\\".unicodeScalars)
            case 0x0A: scalars.append(contentsOf: "\\n".unicodeScalars)
            case 0x0D: scalars.append(contentsOf: "\\r".unicodeScalars)
            case 0x09: scalars.append(contentsOf: "\\t".unicodeScalars)
            case 0x08: scalars.append(contentsOf: "\\b".unicodeScalars)
            case 0x0C: scalars.append(contentsOf: "\\f".unicodeScalars)
            case 0x00..<0x20, 0x7F, 0x2028, 0x2029:
                scalars.append(contentsOf: "\\u".unicodeScalars)
                scalars.append(contentsOf: hex4(scalar.value).unicodeScalars)
            default: scalars.append(scalar)
            }
        }
        scalars.append("\"")
        result.unicodeScalars.append(contentsOf: scalars)
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}

/// Writes records as one pretty JSON array, record by record.
///
/// Output: `[`, then each record as an object indented two spaces, separated by commas, then `]` and a newline;
/// no records give `[]`. Call ``finish()`` once at the end. Not thread-safe.
public final class JSONArrayWriter {
    private let sink: any OutputSink
    private let columns: [Column]?
    private var count = 0
    private var finished = false

    /// Creates a writer over `sink`.
    /// - Parameter columns: when given, each record is reduced to these fields in this order, `null` where missing.
    public init(_ sink: any OutputSink, columns: [Column]? = nil) {
        self.sink = sink
        self.columns = columns
    }

    /// Writes one record.
    public func write(_ record: Record) {
        precondition(!finished, "JSONArrayWriter.write after finish()")
        let shown = columns.map { project(record, onto: $0) } ?? record
        var text = count == 0 ? "[\n  " : ",\n  "
        JSONText.appendObject(shown, to: &text, indent: 1)
        count += 1
        sink.write(text)
    }

    /// Closes the array. Further calls do nothing.
    public func finish() {
        guard !finished else { return }
        finished = true
        sink.write(count == 0 ? "[]\n" : "\n]\n")
    }
}

/// Writes records as NDJSON: one compact JSON object per line, each written as soon as it is given, so a listing
/// of any length is never held in memory. Not thread-safe.
///
/// ```swift
/// let writer = NDJSONWriter(sink)
/// for try await item in items { writer.write(Record(item)) }
/// ```
public final class NDJSONWriter {
    private let sink: any OutputSink
    private let columns: [Column]?

    /// Creates a writer over `sink`.
    /// - Parameter columns: when given, each record is reduced to these fields in this order, `null` where missing.
    public init(_ sink: any OutputSink, columns: [Column]? = nil) {
        self.sink = sink
        self.columns = columns
    }

    /// Writes one record and its newline.
    public func write(_ record: Record) {
        let shown = columns.map { project(record, onto: $0) } ?? record
        var text = ""
        JSONText.appendObject(shown, to: &text, indent: nil)
        text += "\n"
        sink.write(text)
    }
}
