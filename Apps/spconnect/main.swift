import Transport

#if canImport(Glibc)
    import Glibc
#endif

let version = "0.1.0"

let commands: [Command] = [
    Command(
        name: "version", summary: "Print the version of spconnect and the libraries it runs on.", synopsis: "",
        options: []
    ) { _ in
        print("spconnect \(version) (libcurl \(LibraryInfo.curlVersion))")
        return .ok
    },
    loginCommand, logoutCommand, statusCommand, whoamiCommand, webCommand, listsCommand, listCommand, fieldsCommand,
    itemsCommand, itemCommand, lsCommand, mkdirCommand, downloadCommand, uploadCommand, addCommand, updateCommand,
    deleteCommand,
    apiCommand, cookiesCommand, demoCommand, inspectCommand,
]

/// The top-level help: every command with its one-line summary.
func overview() -> String {
    var lines = ["usage: spconnect COMMAND [OPTIONS]", "", "commands:"]
    for command in commands {
        lines.append("  " + padded(command.name, to: 12) + command.summary)
    }
    lines.append("")
    lines.append("Run 'spconnect COMMAND --help' for a command's options. Exit codes: see docs/cli.md.")
    return lines.joined(separator: "\n")
}

func main() async -> ExitCode {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let first = arguments.first else {
        printPartial(overview() + "\n")
        return .usage
    }
    arguments.removeFirst()
    switch first {
    case "--help", "-h", "help":
        print(overview())
        return .ok
    case "--version":
        arguments = []
        return await run(commands[0], arguments)
    default:
        guard let command = commands.first(where: { $0.name == first }) else {
            printError("spconnect: unknown command '\(first)'. Run 'spconnect --help' for the list.")
            return .usage
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(command.help)
            return .ok
        }
        return await run(command, arguments)
    }
}

func run(_ command: Command, _ arguments: [String]) async -> ExitCode {
    do {
        let parsed = try ParsedArguments(arguments, specs: command.options, command: command.name)
        guard let seconds = try commandTimeout(parsed) else { return try await command.run(parsed) }
        return try await withDeadline(seconds, command: command.name) { try await command.run(parsed) }
    } catch let error as UsageError {
        printError("spconnect \(command.name): \(error.description)")
        return .usage
    } catch let error as SessionMissing {
        printError("spconnect \(command.name): \(error.description)")
        return .signInRequired
    } catch {
        printError("spconnect \(command.name): \(error)")
        return .failure
    }
}

exit(await main().rawValue)
