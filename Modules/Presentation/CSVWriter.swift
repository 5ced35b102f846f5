/// Options for ``CSVWriter``.
public struct CSVOptions: Sendable, Equatable {
    /// The record separator.
    public enum LineEnding: String, Sendable, Equatable {
        /// `\r\n`, as RFC 4180 specifies (the default).
        case crlf = "\r\n"
        /// `\n`, for Unix tools.
        case lf = "\n"
    }

    /// The record separator; RFC 4180's CRLF by default.
    public var lineEnding: LineEnding
    /// Whether the first line holds the column titles.
    public var includesHeader: Bool
    /// Spreadsheet formula-injection guard, on by default.
    ///
    /// A text cell (or header) that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a
    /// leading `'`, so Excel, LibreOffice and Google Sheets show it as text instead of evaluating it
    /// (`=cmd|' /C calc'!A0` becomes `'=cmd|' /C calc'!A0`). Numbers, booleans and dates are never changed, so `-5`
    /// stays a number. Turn it off when the file is read by programs, not spreadsheets, and must round-trip exactly.
    public var guardsAgainstFormulas: Bool

    /// Creates options; the defaults are CRLF, a header line and the formula guard on.
    public init(lineEnding: LineEnding = .crlf, includesHeader: Bool = true, guardsAgainstFormulas: Bool = true) {
        self.lineEnding = lineEnding
        self.includesHeader = includesHeader
        self.guardsAgainstFormulas = guardsAgainstFormulas
    }
}

/// Writes records as CSV (RFC 4180), one line per record as it is given.
///
/// A field is quoted when it contains a comma, a double quote, CR or LF, and inner quotes are doubled. `null` is an
/// empty field; dates are ISO 8601 in UTC; nested JSON is its compact text. Cell text is data, written as is
/// (control characters included); see ``CSVOptions/guardsAgainstFormulas``. Not thread-safe.
public final class CSVWriter {
    private let sink: any OutputSink
    private let columns: [Column]
    private let options: CSVOptions

    /// Creates a writer over `sink` and writes the header line (when ``CSVOptions/includesHeader``).
    public init(_ sink: any OutputSink, columns: [Column], options: CSVOptions = CSVOptions()) {
        self.sink = sink
        self.columns = columns
        self.options = options
        if options.includesHeader {
            sink.write(line(columns.map { escapeText($0.title) }))
        }
    }

    /// Writes one record: the columns' fields in column order.
    public func write(_ record: Record) {
        sink.write(line(columns.map { escape(record[$0.field] ?? .null) }))
    }

    private func line(_ fields: [String]) -> String {
        fields.joined(separator: ",") + options.lineEnding.rawValue
    }

    private func escape(_ cell: Cell) -> String {
        switch cell {
        case .string, .json: return escapeText(CellText.plain(cell) ?? "")
        default: return CSVWriter.quotedIfNeeded(CellText.plain(cell) ?? "")
        }
    }

    private func escapeText(_ text: String) -> String {
        var text = text
        if options.guardsAgainstFormulas, let first = text.unicodeScalars.first,
            ["=", "+", "-", "@", "\t", "\r"].contains(first)
        {
            text = "'" + text
        }
        return CSVWriter.quotedIfNeeded(text)
    }

    /// `field` quoted with doubled inner quotes when it holds a comma, a quote, CR or LF; else unchanged.
    public static func quotedIfNeeded(_ field: String) -> String {
        let special = field.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
        }
        guard special else { return field }
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in field.unicodeScalars {
            if scalar == "\"" { result.append("\"") }
            result.append(scalar)
        }
        result.append("\"")
        return String(result)
    }
}
