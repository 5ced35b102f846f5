// Fuzz target: the CSV writer (Modules/Presentation/CSVWriter.swift) on fuzzed records, its output read back.
//
// The input decodes to options, columns and records (see `decode`): text cells, numbers, booleans, dates, nulls and
// JSON cells. The output is read back with an RFC 4180 reader (fields separated by commas, records by the chosen
// line ending, quoted fields with doubled quotes). Oracle: the same number of records, and each field is exactly
// (scalar for scalar) the cell's text, with the formula guard's leading `'` when the guard is on and the text starts
// with `=`, `+`, `-`, `@`, a tab or a carriage return; a header line of the column titles when asked for.
//
// The same output read by `CSVReader` (Modules/Presentation/CSVReader.swift, what `add|update --from FILE.csv`
// reads) gives the same records, but for those it skips as blank lines (one column, an empty cell). And the input
// bytes themselves, read by `CSVReader`: when they read, the records written again with every field quoted read back
// the same.
import Foundation
import FuzzSupport
import JSON

@testable import Presentation

func fuzzCSV(_ bytes: [UInt8]) {
    let (options, columns, records) = decode(bytes)
    let sink = CollectingSink()
    let writer = CSVWriter(sink, columns: columns, options: options)
    for record in records { writer.write(record) }
    let output = Fuzz.text(sink.bytes)

    var expected: [[String]] = []
    if options.includesHeader { expected.append(columns.map { guarded($0.title, options) }) }
    for record in records {
        expected.append(
            columns.map { column in
                let cell = record[column.field] ?? .null
                let text = CellText.plain(cell) ?? ""
                switch cell {
                case .string, .json: return guarded(text, options)
                default: return text
                }
            })
    }
    guard let parsed = readCSV(output, lineEnding: options.lineEnding) else {
        Fuzz.check(false, "the CSV output is not RFC 4180: \(output.debugDescription)")
        return
    }
    Fuzz.check(parsed.count == expected.count, "\(parsed.count) records read back, \(expected.count) written")
    for (line, (got, want)) in zip(parsed, expected).enumerated() {
        Fuzz.check(
            got.map { Array($0.unicodeScalars) } == want.map { Array($0.unicodeScalars) },
            "record \(line) reads back as \(got.debugDescription), written \(want.debugDescription)")
    }
    do {
        let read = try CSVReader.records(sink.bytes)
        let kept = expected.filter { $0.count != 1 || !$0[0].isEmpty }
        Fuzz.check(sameRecords(read, kept), "CSVReader reads \(read.debugDescription) from \(output.debugDescription)")
    } catch {
        Fuzz.check(false, "CSVReader refuses the writer's output (\(error)): \(output.debugDescription)")
    }
    fuzzCSVReader(bytes)
}

/// `CSVReader` on any bytes: what reads, written again with every field quoted, reads back the same.
func fuzzCSVReader(_ bytes: [UInt8]) {
    guard let records = try? CSVReader.records(bytes) else { return }
    let written = records.map { fields in
        fields.map { field in
            var quoted = String.UnicodeScalarView(["\""])
            for scalar in field.unicodeScalars {
                if scalar == "\"" { quoted.append("\"") }
                quoted.append(scalar)
            }
            quoted.append("\"")
            return String(quoted)
        }.joined(separator: ",") + "\r\n"
    }.joined()
    do {
        let again = try CSVReader.records(Array(written.utf8))
        Fuzz.check(sameRecords(again, records), "CSVReader reads \(written.debugDescription) differently")
    } catch {
        Fuzz.check(false, "CSVReader refuses fully quoted records (\(error)): \(written.debugDescription)")
    }
}

/// Equal records, field by field and scalar for scalar.
func sameRecords(_ a: [[String]], _ b: [[String]]) -> Bool {
    a.map { $0.map { Array($0.unicodeScalars) } } == b.map { $0.map { Array($0.unicodeScalars) } }
}

func guarded(_ text: String, _ options: CSVOptions) -> String {
    guard options.guardsAgainstFormulas, let first = text.unicodeScalars.first,
        ["=", "+", "-", "@", "\t", "\r"].contains(first)
    else { return text }
    return "'" + text
}

/// Options from the first byte; then columns and records. Byte 1: column count (1...8) and record count (0...7).
/// Each column is its field name up to 0x00 (a title after 0x01 in it, when present). Each cell is a tag byte and a
/// payload: text up to 0x00, an 8-byte integer, double or date, a boolean byte, or JSON text up to 0x00.
func decode(_ bytes: [UInt8]) -> (CSVOptions, [Column], [Record]) {
    var reader = FuzzReader(bytes)
    let flags = reader.byte()
    let options = CSVOptions(
        lineEnding: flags & 1 == 0 ? .crlf : .lf, includesHeader: flags & 2 == 0, guardsAgainstFormulas: flags & 4 == 0)
    let shape = reader.byte()
    let columnCount = Int(shape & 7) + 1
    let recordCount = Int(shape >> 3 & 7)
    var columns: [Column] = []
    for index in 0..<columnCount {
        let spec = reader.bytes(upTo: 0)
        let parts = Fuzz.split(spec, at: 1)
        // Field names are unique (a record's first field of a name wins); the title is free text.
        let field = "c\(index)" + Fuzz.text(parts[0])
        columns.append(
            Column(field, title: parts.count > 1 ? Fuzz.text(Array(parts[1...].joined(separator: [1]))) : nil))
    }
    var records: [Record] = []
    for _ in 0..<recordCount {
        var fields: [Presentation.Field] = []
        for column in columns {
            let tag = reader.byte()
            let cell: Cell
            switch tag % 7 {
            case 0: cell = .string(reader.text(upTo: 0))
            case 1: cell = .int(Int(truncatingIfNeeded: reader.uint64()))
            case 2: cell = .double(Double(bitPattern: reader.uint64()))
            case 3: cell = .bool(reader.byte() & 1 == 1)
            case 4: cell = .date(date(reader.uint64()))
            case 5: cell = .null
            default: cell = .json((try? JSONValue.parse(reader.text(upTo: 0))) ?? .string("not json"))
            }
            if tag & 0x80 == 0 { fields.append(Presentation.Field(column.field, cell)) }  // else: the field is absent
        }
        records.append(Record(fields))
    }
    return (options, columns, records)
}

/// A date from 8 fuzz bytes: milliseconds within about ±18 million years of 1970. (A `/Date(ms)/` value from
/// SharePoint may be wider, up to ±2^63 ms: the renderers' ISO 8601 text traps there, see docs/fuzzing.md.)
func date(_ raw: UInt64) -> Date {
    let milliseconds = Int64(bitPattern: raw) >> 4
    return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
}

/// RFC 4180 records of `text`, with `lineEnding` ending each record (the last one too); nil when a quoted field is
/// not closed, or a quote appears inside an unquoted field, or text follows a closing quote.
func readCSV(_ text: String, lineEnding: CSVOptions.LineEnding) -> [[String]]? {
    let scalars = Array(text.unicodeScalars)
    let end = Array(lineEnding.rawValue.unicodeScalars)
    var records: [[String]] = []
    var fields: [String] = []
    var field = String.UnicodeScalarView()
    var index = 0
    var atFieldStart = true
    func atLineEnd() -> Bool { scalars[index...].starts(with: end) }
    while index < scalars.count {
        if atFieldStart && scalars[index] == "\"" {
            index += 1
            while true {
                guard index < scalars.count else { return nil }
                if scalars[index] == "\"" {
                    if index + 1 < scalars.count && scalars[index + 1] == "\"" {
                        field.append("\"")
                        index += 2
                        continue
                    }
                    index += 1
                    break
                }
                field.append(scalars[index])
                index += 1
            }
            guard index < scalars.count, scalars[index] == "," || atLineEnd() else { return nil }
            atFieldStart = false
            continue
        }
        if scalars[index] == "," {
            fields.append(String(field))
            field = String.UnicodeScalarView()
            index += 1
            atFieldStart = true
        } else if atLineEnd() {
            fields.append(String(field))
            records.append(fields)
            fields = []
            field = String.UnicodeScalarView()
            index += end.count
            atFieldStart = true
        } else {
            if scalars[index] == "\"" || scalars[index] == "\n" || scalars[index] == "\r" { return nil }
            field.append(scalars[index])
            index += 1
            atFieldStart = false
        }
    }
    guard fields.isEmpty && field.isEmpty else { return nil }  // the last record has its line ending
    return records
}

final class CollectingSink: OutputSink {
    var bytes: [UInt8] = []
    func write(bytes: [UInt8]) { self.bytes += bytes }
    func write(_ text: String) { bytes += text.utf8 }
}

/// Options 0 (CRLF, header, guard) and 7, a few columns and records of every cell kind.
let seeds = [
    "\u{0}\u{1B}Title\u{1}Name, \"quoted\"\u{0}Count\u{0}Modified\u{0}"
        + "\u{0}=SUM(A1)\u{0}\u{1}\u{7}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{4}\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}"
        + "\u{0}line one\r\nline two\u{0}\u{2}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{F0}\u{3F}\u{5}\u{6}{\"a\":[1,2.5,\"x,y\"]}\u{0}",
    "\u{7}\u{12}a\u{0}b\u{1}-minus\u{0}\u{0}+plus\u{0}\u{3}\u{1}\u{80}\u{0}@at\u{0}\u{0}\ttab\u{0}",
]

@main enum Main {
    static func main() { Fuzz.main(fuzzCSV, seeds: seeds) }
}
