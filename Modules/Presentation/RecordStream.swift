/// Records written one at a time in any format, so long listings never sit in memory.
public final class RecordStream {
    private enum Writer {
        case table(TableWriter)
        case json(JSONArrayWriter)
        case ndjson(NDJSONWriter)
        case csv(CSVWriter)
    }
    private let writer: Writer
    private let sink: any OutputSink
    /// The records written so far.
    public private(set) var count = 0

    /// A stream of `format` into `sink` with `columns` (the table's options when `format` is a table).
    public init(format: OutputFormat, sink: any OutputSink, columns: [Column], table: TableOptions) {
        self.sink = sink
        switch format {
        case .table: writer = .table(TableWriter(sink, columns: columns, options: table))
        case .json: writer = .json(JSONArrayWriter(sink, columns: columns))
        case .ndjson: writer = .ndjson(NDJSONWriter(sink, columns: columns))
        case .csv: writer = .csv(CSVWriter(sink, columns: columns))
        }
    }

    /// Writes one record.
    public func write(_ record: Record) {
        count += 1
        switch writer {
        case .table(let w): w.write(record)
        case .json(let w): w.write(record)
        case .ndjson(let w): w.write(record)
        case .csv(let w): w.write(record)
        }
    }

    /// Pushes what is written so far (after each page, so a reader sees progress).
    public func flush() { sink.flush() }

    /// Ends the output (a table's last border, JSON's closing bracket) and flushes.
    public func finish() {
        switch writer {
        case .table(let w): w.finish()
        case .json(let w): w.finish()
        case .ndjson, .csv: break
        }
        sink.flush()
    }
}
