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

    /// One record: a two-column "name value" table, or one JSON object (not an array) for json.
    func renderOne(_ record: Record, columns: [Column]) {
        RecordRenderer.renderOne(record, columns: columns, as: format, to: sink, table: tableOptions)
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
