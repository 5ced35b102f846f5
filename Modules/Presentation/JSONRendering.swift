public import JSON

/// JSON text for cells and records: keys in field order, stable output, strict escaping (the JSON module's writer).
///
/// Escaped: `"` and `\`, every control character below U+0020 (as `\n`, `\t`… or `\u00XX`), DEL, and U+2028/U+2029
/// (valid in JSON but line breaks in JavaScript). Other characters are written as UTF-8. Dates are ISO 8601 strings
/// in UTC; doubles keep their fraction (`2.0`, as in tables and CSV); non-finite doubles are `null`.
public enum JSONText {
    /// The writer options for compact output.
    static let compactOptions: JSONValue.WritingOptions = [.doublesKeepFraction]
    /// The writer options for pretty output.
    static let prettyOptions: JSONValue.WritingOptions = [.doublesKeepFraction, .prettyPrinted]

    /// `text` as a quoted, escaped JSON string.
    public static func quoted(_ text: String) -> String {
        JSONValue.quoted(text)
    }

    /// `value` as compact JSON (no spaces or newlines).
    public static func compact(_ value: JSONValue) -> String {
        value.serialized(options: compactOptions)
    }

    /// `value` as pretty JSON, two spaces per level, starting at nesting `level`.
    public static func pretty(_ value: JSONValue, level: Int = 0) -> String {
        value.serialized(options: prettyOptions, level: level)
    }

    /// `record` as a compact JSON object.
    public static func compact(_ record: Record) -> String {
        compact(object(record))
    }

    /// `record` as a pretty JSON object, starting at nesting `level`.
    public static func pretty(_ record: Record, level: Int = 0) -> String {
        pretty(object(record), level: level)
    }

    /// Appends `record` as a compact JSON object to `out`: the bytes of ``compact(_:)-(Record)``, of the record
    /// reduced to `columns` (in column order, `null` where missing) when they are given. Builds no intermediate
    /// record, value tree or string.
    static func appendCompact(_ record: Record, columns: [Column]?, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        if let columns {
            for (i, column) in columns.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendMember(column.field, record[column.field] ?? .null, to: &out)
            }
        } else {
            for (i, field) in record.fields.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendMember(field.name, field.value, to: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func appendMember(_ name: String, _ cell: Cell, to out: inout [UInt8]) {
        JSONValue.appendQuoted(name, to: &out)
        out.append(UInt8(ascii: ":"))
        value(of: cell).append(to: &out, options: compactOptions)
    }

    /// The JSON value a cell is rendered as.
    public static func value(of cell: Cell) -> JSONValue {
        switch cell {
        case .string(let value): return .string(value)
        case .int(let value): return .integer(Int64(value))
        case .double(let value): return .double(value)
        case .bool(let value): return .bool(value)
        case .date(let value): return .string(CellText.iso8601(value))
        case .null: return .null
        case .json(let value): return value
        }
    }

    /// The JSON object a record is rendered as: one member per field, in field order.
    static func object(_ record: Record) -> JSONValue {
        .object(record.fields.map { ($0.name, value(of: $0.value)) })
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
        let text = (count == 0 ? "[\n  " : ",\n  ") + JSONText.pretty(shown, level: 1)
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
    /// The line being built, reused from record to record.
    private var line: [UInt8] = []

    /// Creates a writer over `sink`.
    /// - Parameter columns: when given, each record is reduced to these fields in this order, `null` where missing.
    public init(_ sink: any OutputSink, columns: [Column]? = nil) {
        self.sink = sink
        self.columns = columns
    }

    /// Writes one record and its newline (one write of bytes to the sink).
    public func write(_ record: Record) {
        line.removeAll(keepingCapacity: true)
        JSONText.appendCompact(record, columns: columns, to: &line)
        line.append(0x0A)
        sink.write(bytes: line)
    }
}
