import CommandLineKit

/// `spconnect help [COMMAND]`: the overview, or one command's help (the same text as `COMMAND --help`).
let helpCommand = Command(
    name: "help", summary: "Show the list of commands, or one command's help with its options and examples.",
    synopsis: "[COMMAND]", options: [],
    examples: ["spconnect help", "spconnect help items"]
) { arguments in
    guard let name = arguments.positionals.first else {
        print(overview())
        return .ok
    }
    guard arguments.positionals.count == 1 else { throw UsageError(description: "give one COMMAND, or none") }
    print(try commandNamed(name).help)
    return .ok
}
