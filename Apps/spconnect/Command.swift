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
}

/// One `spconnect` subcommand: its name, help text, options and what it runs.
struct Command: Sendable {
    let name: String
    let summary: String
    /// The synopsis after `spconnect NAME`, e.g. `FILE [--url URL]`.
    let synopsis: String
    let options: [OptionSpec]
    let run: @Sendable (ParsedArguments) async throws -> ExitCode

    /// The `--help` text of this command.
    var help: String {
        var lines = ["usage: spconnect \(name) \(synopsis)", "", summary]
        if !options.isEmpty {
            lines.append("")
            lines.append("options:")
            for option in options {
                var label = "--\(option.name)"
                switch option.kind {
                case .flag: break
                case .value(let placeholder), .repeatable(let placeholder): label += " \(placeholder)"
                }
                if let short = option.short { label = "-\(short), " + label }
                lines.append("  " + padded(label, to: 28) + " " + option.help)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// `text` followed by spaces up to `width` characters (at least one space).
func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
}
