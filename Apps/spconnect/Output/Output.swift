import CommandLineKit
import Foundation
import Presentation

/// The output options every listing command understands.
let outputOptions: [OptionSpec] = [
    .choice(
        .output, "FORMAT", of: OutputFormat.self, short: "o",
        "\(OptionSpec.listed(OutputFormat.self)) (default: table on a terminal, json otherwise)"),
    outFileOption,
    .flag(.quiet, short: "q", "no progress bar and no messages on standard error, only results and errors"),
    .flag(.noColor, "no ANSI colour or bold (also when NO_COLOR is set)"),
]

/// How a command writes its results: the chosen format, colour, progress, and the standard output sink.
final class Output {
    let format: OutputFormat
    let quiet: Bool
    let colorEnabled: Bool
    /// Whether a progress bar may be drawn: standard error is a terminal and `--quiet` was not given.
    let progressEnabled: Bool
    let sink: FileDescriptorSink
    let environment: [String: String]

    init(_ arguments: ParsedArguments, forcing forced: OutputFormat? = nil) throws(UsageError) {
        let environment = ProcessInfo.processInfo.environment
        var requested: OutputFormat? = forced
        if let name = arguments.value(.output) {
            guard let format = OutputFormat(rawValue: name.lowercased()) else {
                throw UsageError(description: "unknown output format '\(name)'; use table, json, ndjson or csv")
            }
            requested = format
        }
        let outFile = arguments.value(.out)
        let stdoutIsTerminal = outFile == nil && Terminal.isTerminal(1)
        format = OutputFormat.resolve(requested: requested, standardOutputIsTerminal: stdoutIsTerminal)
        quiet = arguments.has(.quiet)
        colorEnabled = Terminal.isColorEnabled(
            noColorFlag: arguments.has(.noColor), environment: environment, outputIsTerminal: stdoutIsTerminal)
        progressEnabled = !quiet && Terminal.isTerminal(2)
        sink = try OutputFile.sink(arguments)
        writesToFile = outFile != nil
        self.environment = environment
    }

    /// Whether the results go to `--out FILE` (``OutputFile``) rather than standard output.
    let writesToFile: Bool

    deinit {
        sink.flush()
        if writesToFile { OutputFile.settled(sink) }
    }

    var tableOptions: TableOptions {
        TableOptions(terminalWidth: Terminal.width(environment: environment), colorEnabled: colorEnabled)
    }

    /// Renders a whole record set.
    func render(_ set: RecordSet) {
        RecordRenderer.render(set, as: format, to: sink, table: tableOptions)
    }

    /// One record: a table of one row, or one JSON object (not an array) for json.
    func renderOne(_ record: Record, columns: [Column]) {
        switch format {
        case .json:
            sink.write(JSONText.pretty(Record(columns.map { Presentation.Field($0.field, record[$0.field] ?? .null) })))
            sink.write("\n")
            sink.flush()
        case .table:
            // A two-column "name value" view reads better than one wide row.
            let rows = columns.map { column -> Record in
                Record([
                    Presentation.Field("field", .string(column.title)),
                    Presentation.Field("value", record[column.field] ?? .null),
                ])
            }
            RecordRenderer.render(
                RecordSet(columns: [Column("field", title: "Field"), Column("value", title: "Value")], records: rows),
                as: .table, to: sink, table: tableOptions)
        default:
            render(RecordSet(columns: columns, records: [record]))
        }
    }

    /// Plain lines, one value each, whatever the format (`sites --urls`: input for xargs and GNU parallel).
    func writeLines(_ lines: [String]) {
        for line in lines { sink.write(line + "\n") }
        sink.flush()
    }

    /// A message for people on standard error, unless `--quiet`.
    func note(_ message: String) {
        if !quiet { printError(message) }
    }

    /// A streaming writer in the chosen format.
    func stream(columns: [Column]) -> RecordStream {
        RecordStream(format: format, sink: sink, columns: columns, table: tableOptions)
    }
}

/// Records written one at a time in any format, so long listings never sit in memory.
final class RecordStream {
    private enum Writer {
        case table(TableWriter)
        case json(JSONArrayWriter)
        case ndjson(NDJSONWriter)
        case csv(CSVWriter)
    }
    private let writer: Writer
    private let sink: FileDescriptorSink
    private(set) var count = 0

    init(format: OutputFormat, sink: FileDescriptorSink, columns: [Column], table: TableOptions) {
        self.sink = sink
        switch format {
        case .table: writer = .table(TableWriter(sink, columns: columns, options: table))
        case .json: writer = .json(JSONArrayWriter(sink, columns: columns))
        case .ndjson: writer = .ndjson(NDJSONWriter(sink, columns: columns))
        case .csv: writer = .csv(CSVWriter(sink, columns: columns))
        }
    }

    func write(_ record: Record) {
        count += 1
        switch writer {
        case .table(let w): w.write(record)
        case .json(let w): w.write(record)
        case .ndjson(let w): w.write(record)
        case .csv(let w): w.write(record)
        }
    }

    /// Pushes what is written so far (after each page, so a reader sees progress).
    func flush() { sink.flush() }

    func finish() {
        switch writer {
        case .table(let w): w.finish()
        case .json(let w): w.finish()
        case .ndjson, .csv: break
        }
        sink.flush()
    }
}
