import CommandLineKit
import JSON

/// `spconnect declarations`: the command table as JSON (every command, its synopsis and options with their
/// placeholders and value sets, the exit codes, the environment variables), for the test that keeps docs/cli.md
/// in step with the CLI (CLIDeclarationTests). Hidden: a tool for the project, not for users.
let declarationsCommand = Command(
    name: "declarations", summary: "Print the command table as JSON (for the docs' drift test).", synopsis: "",
    options: [], examples: ["spconnect declarations | jq '.commands[].name'"], hidden: true
) { arguments in
    _ = try positionals(arguments)
    print(CommandDeclarations.json(commands).serialized(options: .prettyPrinted))
    return .ok
}

/// The command table as JSON.
enum CommandDeclarations {
    /// The options several commands share (the session, output, connection and network ones): the synopses
    /// leave them out, the drift test does not ask them there.
    static var sharedOptions: [OptionSpec] {
        SiteContext.options + connectionOptions + NetworkOptions.options + [profileOption]
    }

    /// `commands` with their options, the exit codes and the environment variables.
    static func json(_ commands: [Command]) -> JSONValue {
        .object([
            ("commands", .array(commands.map(command))),
            ("sharedOptions", .array(Set(sharedOptions.map(\.name)).sorted().map { .string($0) })),
            (
                "exitCodes",
                .array(
                    ExitCode.allCases.map {
                        .object([("code", .integer(Int64($0.rawValue))), ("summary", .string($0.summary))])
                    })
            ),
            ("environment", .array(EnvironmentVariable.all.map { .string($0.name) })),
        ])
    }

    private static func command(_ command: Command) -> JSONValue {
        .object([
            ("name", .string(command.name)), ("synopsis", .string(command.synopsis)), ("hidden", .bool(command.hidden)),
            ("options", .array(command.acceptedOptions.map(option))),
        ])
    }

    private static func option(_ option: OptionSpec) -> JSONValue {
        let placeholder: JSONValue
        var repeatable = false
        switch option.kind {
        case .flag: placeholder = .null
        case .value(let text): placeholder = .string(text)
        case .repeatable(let text):
            placeholder = .string(text)
            repeatable = true
        }
        let values: JSONValue =
            switch option.values {
            case .text: .string("text")
            case .path: .string("path")
            case .profile: .string("profile")
            case .choices(let list): .array(list.map { .string($0) })
            case .integer(let range): .string("integer \(range.lowerBound)...\(range.upperBound)")
            case .url: .string("url")
            }
        return .object([
            ("name", .string(option.name)), ("short", option.short.map { .string(String($0)) } ?? .null),
            ("placeholder", placeholder), ("repeatable", .bool(repeatable)), ("values", values),
        ])
    }
}
