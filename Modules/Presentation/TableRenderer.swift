/// Options for ``TableRenderer``.
public struct TableOptions: Sendable, Equatable {
    /// The widest a column may be, in terminal columns; longer text is cut with `…`. ``Column/maxWidth`` overrides it.
    public var maxColumnWidth: Int
    /// The terminal width, or `nil` for no limit. When the table is wider, the widest columns shrink (down to
    /// ``minimumColumnWidth``) until it fits.
    public var terminalWidth: Int?
    /// Whether the header row is bold (ANSI). Decide it with ``Terminal/isColorEnabled(noColorFlag:environment:outputIsTerminal:)``.
    public var colorEnabled: Bool
    /// Spaces between columns.
    public var columnGap: Int
    /// The narrowest a column shrinks to when fitting the terminal width.
    public var minimumColumnWidth: Int

    /// Creates options. Defaults: columns up to 40 wide, no terminal limit, no colour, two spaces between columns.
    public init(
        maxColumnWidth: Int = 40, terminalWidth: Int? = nil, colorEnabled: Bool = false, columnGap: Int = 2,
        minimumColumnWidth: Int = 4
    ) {
        self.maxColumnWidth = max(1, maxColumnWidth)
        self.terminalWidth = terminalWidth
        self.colorEnabled = colorEnabled
        self.columnGap = max(1, columnGap)
        self.minimumColumnWidth = max(1, minimumColumnWidth)
    }
}

/// Renders a ``RecordSet`` as a terminal table: a header row, a separator of `-`, then one line per record.
///
/// Widths are display widths (see ``TerminalText``); cell text is sanitised
/// (``TerminalText/sanitized(_:)``) so values cannot inject escape sequences; numbers are right-aligned; text too
/// long for its column ends in `…`. Lines carry no trailing spaces. Only the header uses ANSI codes, and only when
/// ``TableOptions/colorEnabled``. The whole set is measured first; use ``NDJSONWriter`` or ``CSVWriter`` to stream.
public enum TableRenderer {
    private static let bold = "\u{1B}[1m"
    private static let reset = "\u{1B}[0m"

    /// The table as a string, each line ending in `\n`. No columns give an empty string.
    public static func render(_ recordSet: RecordSet, options: TableOptions = TableOptions()) -> String {
        let sink = MemorySink()
        render(recordSet, to: sink, options: options)
        return sink.text
    }

    /// Writes the table to `sink`, line by line.
    public static func render(_ recordSet: RecordSet, to sink: any OutputSink, options: TableOptions = TableOptions())
    {
        let columns = recordSet.columns
        guard !columns.isEmpty else { return }
        let headers = columns.map { TerminalText.sanitized($0.title) }
        let rows = recordSet.records.map { record in
            columns.map { TerminalText.sanitized(CellText.plain(record[$0.field] ?? .null) ?? "") }
        }
        let alignments = columns.indices.map { index in
            columns[index].alignment ?? inferredAlignment(recordSet.records, field: columns[index].field)
        }
        let widths = columnWidths(columns: columns, headers: headers, rows: rows, options: options)

        var header = ""
        var separator = ""
        for index in columns.indices {
            let isLast = index == columns.count - 1
            if index > 0 {
                header += String(repeating: " ", count: options.columnGap)
                separator += String(repeating: " ", count: options.columnGap)
            }
            let text = TerminalText.truncated(headers[index], toWidth: widths[index])
            let styled = options.colorEnabled ? bold + text + reset : text
            header += place(styled, width: TerminalText.displayWidth(text), in: widths[index], alignments[index], isLast)
            separator += String(repeating: "-", count: widths[index])
        }
        sink.write(header + "\n" + separator + "\n")

        for row in rows {
            var line = ""
            for index in columns.indices {
                if index > 0 { line += String(repeating: " ", count: options.columnGap) }
                let text = TerminalText.truncated(row[index], toWidth: widths[index])
                line += place(
                    text, width: TerminalText.displayWidth(text), in: widths[index], alignments[index],
                    index == columns.count - 1)
            }
            while line.last == " " { line.removeLast() }
            sink.write(line + "\n")
        }
    }

    /// `text` (already `width` columns wide on screen) padded into a `columnWidth` cell.
    private static func place(
        _ text: String, width: Int, in columnWidth: Int, _ alignment: ColumnAlignment, _ isLast: Bool
    ) -> String {
        let padding = String(repeating: " ", count: max(0, columnWidth - width))
        switch alignment {
        case .right: return padding + text
        case .left: return isLast ? text : text + padding
        }
    }

    /// Right when the field has at least one value and every non-null value is a number.
    static func inferredAlignment(_ records: [Record], field: String) -> ColumnAlignment {
        var sawNumber = false
        for record in records {
            guard let cell = record[field], cell != .null else { continue }
            guard cell.isNumeric else { return .left }
            sawNumber = true
        }
        return sawNumber ? .right : .left
    }

    /// Natural widths, capped per column, then shrunk widest-first to fit the terminal.
    static func columnWidths(columns: [Column], headers: [String], rows: [[String]], options: TableOptions) -> [Int] {
        var natural = headers.map(TerminalText.displayWidth)
        for row in rows {
            for index in row.indices { natural[index] = max(natural[index], TerminalText.displayWidth(row[index])) }
        }
        var widths = columns.indices.map { index in
            max(1, min(natural[index], columns[index].maxWidth ?? options.maxColumnWidth))
        }
        guard let terminalWidth = options.terminalWidth else { return widths }
        var total = widths.reduce(0, +) + options.columnGap * (columns.count - 1)
        while total > terminalWidth {
            var widest: Int?
            for index in widths.indices where widths[index] > options.minimumColumnWidth {
                if widest == nil || widths[index] > widths[widest!] { widest = index }
            }
            guard let index = widest else { break }
            widths[index] -= 1
            total -= 1
        }
        return widths
    }
}
