/// Renders a whole ``RecordSet`` in any ``OutputFormat``: the one call an app needs after choosing the format.
public enum RecordRenderer {
    /// Writes `recordSet` to `sink` as `format`, then flushes the sink.
    ///
    /// JSON and NDJSON use the columns' field names as keys (in column order); the table and CSV use their titles.
    public static func render(
        _ recordSet: RecordSet, as format: OutputFormat, to sink: any OutputSink,
        table: TableOptions = TableOptions(), csv: CSVOptions = CSVOptions()
    ) {
        switch format {
        case .table:
            TableRenderer.render(recordSet, to: sink, options: table)
        case .json:
            let writer = JSONArrayWriter(sink, columns: recordSet.columns)
            for record in recordSet.records { writer.write(record) }
            writer.finish()
        case .ndjson:
            let writer = NDJSONWriter(sink, columns: recordSet.columns)
            for record in recordSet.records { writer.write(record) }
        case .csv:
            let writer = CSVWriter(sink, columns: recordSet.columns, options: csv)
            for record in recordSet.records { writer.write(record) }
        }
        sink.flush()
    }

    /// `recordSet` rendered as `format`, as a string.
    public static func render(
        _ recordSet: RecordSet, as format: OutputFormat, table: TableOptions = TableOptions(),
        csv: CSVOptions = CSVOptions()
    ) -> String {
        let sink = MemorySink()
        render(recordSet, as: format, to: sink, table: table, csv: csv)
        return sink.text
    }

    /// One record: for json one object (not an array); for a table a two-column "name value" view, which reads
    /// better than one wide row; otherwise a set of one.
    public static func renderOne(
        _ record: Record, columns: [Column], as format: OutputFormat, to sink: any OutputSink,
        table: TableOptions = TableOptions()
    ) {
        switch format {
        case .json:
            sink.write(JSONText.pretty(Record(columns.map { Field($0.field, record[$0.field] ?? .null) })))
            sink.write("\n")
            sink.flush()
        case .table:
            let rows = columns.map { column -> Record in
                Record([Field("field", .string(column.title)), Field("value", record[column.field] ?? .null)])
            }
            render(
                RecordSet(columns: [Column("field", title: "Field"), Column("value", title: "Value")], records: rows),
                as: .table, to: sink, table: table)
        default:
            render(RecordSet(columns: columns, records: [record]), as: format, to: sink, table: table)
        }
    }
}
