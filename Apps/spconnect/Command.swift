import Foundation

/// Exit codes, documented in docs/cli.md. Only the app maps errors to these.
enum ExitCode: Int32 {
    case ok = 0
    case failure = 1
    case usage = 2
    case invalidCredentials = 3
    case interactionRequired = 4
    case unknownPage = 5
    case network = 6
    case policyRefused = 7
    case notFound = 8
    case conflict = 9
    case throttled = 10
    case signInRequired = 11
    case accessDenied = 12
    case httpError = 13
    /// `add --from` / `update --from`: one or more rows could not be written (the others were).
    case rowsFailed = 14
    /// `download -r` / `upload -r`: another spconnect run holds the local folder's lock (longer than `--wait`).
    case locked = 15
}

/// One `spconnect` subcommand: its name, help text, options, examples and what it runs.
struct Command: Sendable {
    let name: String
    let summary: String
    /// The synopsis after `spconnect NAME`, e.g. `FILE [--url URL]`.
    let synopsis: String
    let options: [OptionSpec]
    /// Whole command lines shown under `examples:` in the help and the man page, e.g.
    /// `spconnect items Tasks --all -o csv > tasks.csv`.
    let examples: [String]
    /// Left out of the overview, the completions and the man page (tools for the installer, such as `man`).
    let hidden: Bool
    let run: @Sendable (ParsedArguments) async throws -> ExitCode

    init(
        name: String, summary: String, synopsis: String, options: [OptionSpec], examples: [String] = [],
        hidden: Bool = false, run: @escaping @Sendable (ParsedArguments) async throws -> ExitCode
    ) {
        self.name = name
        self.summary = summary
        self.synopsis = synopsis
        self.options = options
        self.examples = examples
        self.hidden = hidden
        self.run = run
    }

    /// Whether the command talks to a server: it takes the connection options (`--timeout` is one of them).
    var talksToServer: Bool { options.contains { $0.name == timeoutOption.name } }

    /// Every option the command accepts: its own, and `--verbose` and `--retries` when it talks to a server.
    var acceptedOptions: [OptionSpec] { options + (talksToServer ? NetworkOptions.options : []) }

    /// The `--help` text of this command.
    var help: String {
        var lines = ["usage: spconnect \(name) \(synopsis)", "", summary]
        if !acceptedOptions.isEmpty {
            lines.append("")
            lines.append("options:")
            for option in acceptedOptions {
                lines.append("  " + padded(option.label, to: 28) + " " + option.help)
            }
        }
        if !examples.isEmpty {
            lines.append("")
            lines.append("examples:")
            for example in examples { lines.append("  " + example) }
        }
        return lines.joined(separator: "\n")
    }
}

extension OptionSpec {
    /// How the help shows the option: `-o, --output FORMAT`.
    var label: String {
        var label = "--\(name)"
        switch kind {
        case .flag: break
        case .value(let placeholder), .repeatable(let placeholder): label += " \(placeholder)"
        }
        if let short { label = "-\(short), " + label }
        return label
    }

    /// Whether the option takes a value.
    var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }
}

/// `text` followed by spaces up to `width` characters (at least one space).
func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
}
