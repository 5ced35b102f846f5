#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output formats the apps can render.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// An aligned text table for people (``TableRenderer``, ``TableWriter``).
    case table
    /// One pretty JSON array of objects (``JSONArrayWriter``).
    case json
    /// One compact JSON object per line, streamed (``NDJSONWriter``).
    case ndjson
    /// RFC 4180 CSV with a header line and the formula guard (``CSVWriter``).
    case csv

    /// The format used when the user did not ask for one: a table for a person at a terminal, JSON for a program
    /// reading a pipe or a file.
    /// - Parameter standardOutputIsTerminal: whether standard output is a TTY (see ``Terminal/isTerminal(_:)``).
    public static func automatic(standardOutputIsTerminal: Bool) -> OutputFormat {
        standardOutputIsTerminal ? .table : .json
    }

    /// The requested format if there is one, else ``automatic(standardOutputIsTerminal:)``.
    public static func resolve(requested: OutputFormat?, standardOutputIsTerminal: Bool) -> OutputFormat {
        requested ?? automatic(standardOutputIsTerminal: standardOutputIsTerminal)
    }
}

/// Facts about the terminal, and the pure rules that turn them into rendering choices.
///
/// The rules take every fact as input so they can be tested; only ``isTerminal(_:)`` asks the system.
public enum Terminal {
    /// Whether `fileDescriptor` is a terminal (`isatty(3)`). Apps call this once and pass the answer on.
    public static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// Whether to use ANSI colour and bold.
    ///
    /// Off when `--no-color` was given, when `NO_COLOR` is set to a non-empty value (https://no-color.org),
    /// when `TERM` is `dumb`, or when the output is not a terminal.
    /// - Parameters:
    ///   - noColorFlag: the user passed `--no-color`.
    ///   - environment: the process environment (`ProcessInfo.processInfo.environment`).
    ///   - outputIsTerminal: the stream being coloured is a TTY.
    public static func isColorEnabled(noColorFlag: Bool, environment: [String: String], outputIsTerminal: Bool)
        -> Bool
    {
        if noColorFlag || !outputIsTerminal { return false }
        if let value = environment["NO_COLOR"], !value.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return true
    }

    /// The terminal width from `COLUMNS` when it holds a positive number, else `nil` (meaning "unlimited").
    public static func width(environment: [String: String]) -> Int? {
        guard let text = environment["COLUMNS"], let value = Int(text), value > 0 else { return nil }
        return value
    }
}
