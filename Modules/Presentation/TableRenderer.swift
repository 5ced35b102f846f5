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
/// ``TableOptions/colorEnabled``. The whole set is measured first; ``TableWriter`` streams long listings.
public enum TableRenderer {
    /// The table as a string, each line ending in `\n`. No columns give an empty string.
    public static func render(_ recordSet: RecordSet, options: TableOptions = TableOptions()) -> String {
        let sink = MemorySink()
        render(recordSet, to: sink, options: options)
        return sink.text
    }

    /// Writes the table to `sink`: the header and separator, then one write per record.
    public static func render(_ recordSet: RecordSet, to sink: any OutputSink, options: TableOptions = TableOptions()) {
        guard !recordSet.columns.isEmpty else { return }
        let rows = recordSet.records.map { TableLayout.cells(of: $0, columns: recordSet.columns) }
        let layout = TableLayout(columns: recordSet.columns, sample: recordSet.records, rows: rows, options: options)
        sink.write(layout.header())
        for row in rows { sink.write(layout.line(row)) }
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
}

/// A terminal table written record by record, for listings too long to hold in memory.
///
/// The first `sampleSize` records are kept to measure column widths and alignments; then the header and those
/// records are written, and every later record is written as soon as it is given, cut to the measured widths.
/// Memory stays bounded by the sample. Output is identical to ``TableRenderer`` when all records fit in the sample.
/// Call ``finish()`` at the end (it writes a table of fewer records than the sample). Not thread-safe.
public final class TableWriter {
    private let sink: any OutputSink
    private let columns: [Column]
    private let options: TableOptions
    private let sampleSize: Int
    private var sample: [Record] = []
    private var layout: TableLayout?
    private var finished = false

    /// Creates a writer over `sink`.
    /// - Parameter sampleSize: how many records are measured before the first line is written (at least 1).
    public init(
        _ sink: any OutputSink, columns: [Column], options: TableOptions = TableOptions(), sampleSize: Int = 200
    ) {
        self.sink = sink
        self.columns = columns
        self.options = options
        self.sampleSize = max(1, sampleSize)
    }

    /// Adds one record; writes it at once after the sample has been measured.
    public func write(_ record: Record) {
        precondition(!finished, "TableWriter.write after finish()")
        guard !columns.isEmpty else { return }
        if let layout {
            sink.write(layout.line(TableLayout.cells(of: record, columns: columns)))
            return
        }
        sample.append(record)
        if sample.count >= sampleSize { start() }
    }

    /// Writes whatever is still held (the header at least). Further calls do nothing.
    public func finish() {
        guard !finished else { return }
        finished = true
        if layout == nil, !columns.isEmpty { start() }
    }

    private func start() {
        let rows = sample.map { TableLayout.cells(of: $0, columns: columns) }
        let layout = TableLayout(columns: columns, sample: sample, rows: rows, options: options)
        self.layout = layout
        sink.write(layout.header())
        for row in rows { sink.write(layout.line(row)) }
        sample = []
    }
}

/// Column widths and alignments measured on some rows, and the formatting of lines with them.
struct TableLayout {
    private static let bold = "\u{1B}[1m"
    private static let reset = "\u{1B}[0m"

    let headers: [String]
    let widths: [Int]
    let alignments: [ColumnAlignment]
    let options: TableOptions

    /// Measures `rows` (the sanitised cells of `sample`).
    init(columns: [Column], sample: [Record], rows: [[String]], options: TableOptions) {
        headers = columns.map { TerminalText.sanitized($0.title) }
        alignments = columns.map { $0.alignment ?? TableRenderer.inferredAlignment(sample, field: $0.field) }
        widths = TableLayout.columnWidths(columns: columns, headers: headers, rows: rows, options: options)
        self.options = options
    }

    /// The sanitised text of each column's cell in `record`.
    static func cells(of record: Record, columns: [Column]) -> [String] {
        columns.map { TerminalText.sanitized(CellText.plain(record[$0.field] ?? .null) ?? "") }
    }

    /// The header line and the separator line.
    func header() -> String {
        let separator = widths.map { String(repeating: "-", count: $0) }
            .joined(separator: String(repeating: " ", count: options.columnGap))
        return line(headers, styled: options.colorEnabled) + separator + "\n"
    }

    /// One line, cut and padded to the widths, without trailing spaces.
    func line(_ cells: [String], styled: Bool = false) -> String {
        var line = ""
        for index in widths.indices {
            if index > 0 { line += String(repeating: " ", count: options.columnGap) }
            let text = TerminalText.truncated(cells[index], toWidth: widths[index])
            let padding = String(repeating: " ", count: max(0, widths[index] - TerminalText.displayWidth(text)))
            let shown = styled ? TableLayout.bold + text + TableLayout.reset : text
            switch alignments[index] {
            case .right: line += padding + shown
            case .left: line += shown + (index == widths.count - 1 ? "" : padding)
            }
        }
        while line.last == " " { line.removeLast() }
        return line + "\n"
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
