import Presentation
import Testing

/// Records written one at a time, and one record on its own, in each format.
@Suite struct RecordStreamTests {
    let columns = [Column("id", title: "Id"), Column("title", title: "Title")]

    func record(_ id: Int, _ title: String) -> Record {
        Record([Field("id", .int(id)), Field("title", .string(title))])
    }

    @Test func aStreamWritesAsTheWholeSetWould() {
        for format in [OutputFormat.json, .ndjson, .csv, .table] {
            let sink = MemorySink()
            let stream = RecordStream(format: format, sink: sink, columns: columns, table: TableOptions())
            stream.write(record(1, "Plan"))
            stream.write(record(2, "Ship"))
            stream.finish()
            #expect(stream.count == 2)
            let whole = RecordRenderer.render(
                RecordSet(columns: columns, records: [record(1, "Plan"), record(2, "Ship")]), as: format)
            if format != .table { #expect(sink.text == whole, "\(format)") }
            #expect(sink.text.contains("Ship"), "\(format)")
        }
    }

    @Test func oneRecordIsAnObjectOrANameValueTable() {
        let json = MemorySink()
        RecordRenderer.renderOne(record(7, "Plan"), columns: columns, as: .json, to: json)
        #expect(json.text.hasPrefix("{") && json.text.contains("\"title\""))
        let table = MemorySink()
        RecordRenderer.renderOne(record(7, "Plan"), columns: columns, as: .table, to: table)
        #expect(table.text.contains("Field") && table.text.contains("Value") && table.text.contains("Title"))
    }
}
