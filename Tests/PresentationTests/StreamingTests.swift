import Presentation
import Testing

/// Counts what it is given and keeps nothing, so memory stays flat however much is written.
final class CountingSink: OutputSink {
    private(set) var byteCount = 0
    private(set) var newlineCount = 0
    private(set) var writeCount = 0
    private(set) var largestWrite = 0

    func write(bytes: [UInt8]) {
        count(bytes)
    }

    func write(_ text: String) {
        count(text.utf8)
    }

    private func count(_ bytes: some Collection<UInt8>) {
        writeCount += 1
        byteCount += bytes.count
        largestWrite = max(largestWrite, bytes.count)
        newlineCount += bytes.lazy.filter { $0 == 0x0A }.count
    }
}

@Suite struct StreamingTests {
    /// Records made one at a time, the way a paged SharePoint listing arrives.
    struct Items: Sequence, IteratorProtocol {
        var index = 0
        let count: Int

        mutating func next() -> Record? {
            guard index < count else { return nil }
            defer { index += 1 }
            return ["Id": .int(index), "Title": .string("Item \(index)"), "Done": .bool(index % 2 == 0)]
        }
    }

    @Test func ndjsonStreamsOneHundredThousandRecordsRecordByRecord() {
        let sink = CountingSink()
        let writer = NDJSONWriter(sink)
        for record in Items(count: 100_000) { writer.write(record) }
        #expect(sink.writeCount == 100_000)
        #expect(sink.newlineCount == 100_000)
        // Each write is one short line: nothing is accumulated between records.
        #expect(sink.largestWrite <= 60)
        let first = #"{"Id":0,"Title":"Item 0","Done":true}"# + "\n"
        let last = #"{"Id":99999,"Title":"Item 99999","Done":false}"# + "\n"
        #expect(sink.byteCount > 100_000 * first.utf8.count)
        #expect(sink.byteCount < 100_000 * last.utf8.count)
    }

    @Test func ndjsonWriterWritesEachRecordImmediately() {
        let sink = MemorySink()
        let writer = NDJSONWriter(sink, columns: [Column("Title")])
        writer.write(["Id": 1, "Title": "a"])
        #expect(sink.text == "{\"Title\":\"a\"}\n")
        writer.write(["Title": "b\u{2028}"])
        #expect(sink.text == "{\"Title\":\"a\"}\n{\"Title\":\"b\\u2028\"}\n")
        #expect(sink.writeCount == 2)
    }

    @Test func jsonArrayAndCSVWritersAlsoStream() {
        let sink = CountingSink()
        let json = JSONArrayWriter(sink)
        for record in Items(count: 10_000) { json.write(record) }
        json.finish()
        json.finish()
        #expect(sink.writeCount == 10_001)
        #expect(sink.largestWrite < 100)

        let memory = MemorySink()
        let array = JSONArrayWriter(memory)
        array.write(["a": 1])
        array.write(["b": .json(.array([]))])
        array.finish()
        #expect(memory.text == "[\n  {\n    \"a\": 1\n  },\n  {\n    \"b\": []\n  }\n]\n")

        let csvSink = CountingSink()
        let csv = CSVWriter(csvSink, columns: [Column("Id"), Column("Title")])
        for record in Items(count: 10_000) { csv.write(record) }
        #expect(csvSink.writeCount == 10_001)
        #expect(csvSink.newlineCount == 10_001)
    }
}

@Suite struct TableWriterTests {
    @Test func matchesTheRendererWhenEveryRecordFitsTheSample() {
        let sink = MemorySink()
        let writer = TableWriter(sink, columns: Fixtures.recordSet.columns, sampleSize: 10)
        for record in Fixtures.records { writer.write(record) }
        #expect(sink.text.isEmpty)
        writer.finish()
        writer.finish()
        #expect(sink.text == TableRenderer.render(Fixtures.recordSet))
    }

    @Test func measuresTheSampleThenStreamsLaterRecordsCutToItsWidths() {
        let sink = MemorySink()
        let writer = TableWriter(sink, columns: [Column("Id"), Column("Title")], sampleSize: 2)
        writer.write(["Id": 1, "Title": "short"])
        #expect(sink.text.isEmpty)
        writer.write(["Id": 2, "Title": "longer"])
        #expect(sink.text == "Id  Title\n--  ------\n 1  short\n 2  longer\n")
        writer.write(["Id": 300, "Title": "much longer \u{1b}[1m title"])
        writer.finish()
        #expect(sink.text == "Id  Title\n--  ------\n 1  short\n 2  longer\n3…  much …\n")
    }

    @Test func holdsNoMoreThanTheSampleOnALongListing() {
        let sink = CountingSink()
        let writer = TableWriter(sink, columns: [Column("Id"), Column("Title"), Column("Done")], sampleSize: 100)
        for record in StreamingTests.Items(count: 20_000) { writer.write(record) }
        writer.finish()
        #expect(sink.newlineCount == 20_002)
        #expect(sink.writeCount == 20_001)
        #expect(sink.largestWrite < 100)
    }

    @Test func emptyListingStillGetsAHeader() {
        let sink = MemorySink()
        let writer = TableWriter(sink, columns: [Column("Name")])
        writer.finish()
        #expect(sink.text == "Name\n----\n")
    }
}
