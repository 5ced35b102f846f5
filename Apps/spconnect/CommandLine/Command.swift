import CommandLineKit

/// Exit codes, documented in docs/cli.md. Only the app maps errors to these. ``summary`` is the one short
/// description the man page prints; the drift test (CLIDeclarationTests) checks docs/cli.md lists every code.
enum ExitCode: Int32, CaseIterable {
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

    /// What the code means, in one line (docs/cli.md's "Exit codes" says it at length).
    var summary: String {
        switch self {
        case .ok: "success"
        case .failure: "failure not covered below"
        case .usage: "usage error: unknown command or option, missing value, a bad config file line"
        case .invalidCredentials: "invalid credentials, at login or when a renewal's password is refused"
        case .interactionRequired: "interaction required (MFA, Conditional Access, consent, ...)"
        case .unknownPage: "unknown page or loop during the sign-in"
        case .network: "network or TLS failure after the --retries, --timeout"
        case .policyRefused: "refused by the sign-in policy"
        case .notFound: "not found"
        case .conflict: "conflict: changed since read, exists or locked"
        case .throttled: "throttled after the retries"
        case .signInRequired: "sign-in required: run spconnect login"
        case .accessDenied: "access denied"
        case .httpError: "the server refused the request"
        case .rowsFailed: "add --from / update --from: at least one row could not be written"
        case .locked: "download -r / upload -r: another spconnect run is using the local folder (see --wait)"
        }
    }
}

/// One `spconnect` subcommand: what it declares (name, summary, synopsis, its own options, examples, positionals,
/// whether it is hidden: read as `command.name` and so on) and what it runs.
@dynamicMemberLookup
struct Command: Sendable {
    /// The declaration, with the command's own options (``acceptedOptions`` adds the network ones).
    let declared: CommandDescription
    let run: @Sendable (ParsedArguments) async throws -> ExitCode

    init(
        name: String, summary: String, synopsis: String, options: [OptionSpec], examples: [String] = [],
        positionals: OptionSpec.Values = .text, hidden: Bool = false,
        run: @escaping @Sendable (ParsedArguments) async throws -> ExitCode
    ) {
        declared = CommandDescription(
            name: name, summary: summary, synopsis: synopsis, options: options, examples: examples,
            positionals: positionals, hidden: hidden)
        self.run = run
    }

    /// A part of the declaration (`command.name`, `command.options`, …).
    subscript<Value>(dynamicMember keyPath: KeyPath<CommandDescription, Value>) -> Value { declared[keyPath: keyPath] }

    /// Whether the command talks to a server: it takes the connection options (`--timeout` is one of them).
    var talksToServer: Bool { declared.options.contains { $0.key == timeoutOption.key } }

    /// Every option the command accepts: its own, and `--verbose` and `--retries` when it talks to a server.
    var acceptedOptions: [OptionSpec] { declared.options + (talksToServer ? NetworkOptions.options : []) }

    /// What the help, the completions and the man page show of this command.
    var description: CommandDescription {
        CommandDescription(
            name: declared.name, summary: declared.summary, synopsis: declared.synopsis, options: acceptedOptions,
            examples: declared.examples, positionals: declared.positionals, hidden: declared.hidden)
    }

    /// The `--help` text of this command, with the declared defaults.
    var help: String { help(resolved: [:]) }

    /// The `--help` text, each option's default as `resolved` has it (``ArgumentDefaults/resolved(for:environment:)``).
    func help(resolved: [OptionKey: ResolvedDefault]) -> String {
        description.help(program: "spconnect", resolved: resolved)
    }
}
