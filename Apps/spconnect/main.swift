import CommandLineKit
import Foundation
import Mirror
import Presentation
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

let version = "0.1.0"

/// The folders under `Commands/`, in the order the overview lists their commands.
let commandGroups = ["SignIn", "Sites", "Lists", "Files", "Writes", "People", "Tools"]

/// Every command: each `let … = Command(` under `Commands/`, listed at build time by the Registry plugin (a new
/// command is its own file), in the order of `commandGroups`, then by file.
let commands: [Command] = Command.registered.enumerated().sorted { left, right in
    let ranks = (commandGroups.firstIndex(of: left.element.folder), commandGroups.firstIndex(of: right.element.folder))
    return ((ranks.0 ?? commandGroups.count), left.offset) < ((ranks.1 ?? commandGroups.count), right.offset)
}.map(\.element.value)

/// The top-level help: every command with its one-line summary.
func overview() -> String {
    var lines = ["usage: spconnect COMMAND [OPTIONS]", "", "commands:"]
    for command in commands where !command.hidden {
        lines.append("  " + padded(command.name, to: 12) + command.summary)
    }
    lines.append("")
    lines.append(
        "Run 'spconnect help COMMAND' (or 'spconnect COMMAND --help') for a command's options and examples. "
            + "Exit codes: see docs/cli.md.")
    return lines.joined(separator: "\n")
}

func main() async -> ExitCode {
    var arguments = Array(CommandLine.arguments.dropFirst())
    if JSONErrors.requested(arguments) { ErrorOutput.useJSON() }
    guard let first = arguments.first else {
        printPartial(overview() + "\n")
        return .usage
    }
    arguments.removeFirst()
    switch first {
    case "--help", "-h":
        print(overview())
        return .ok
    case "--version":
        arguments = []
        return await run(versionCommand, arguments)
    default:
        let command: Command
        do {
            command = try commandNamed(first)
        } catch {
            printError("spconnect: \(error.description)")
            return .usage
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(command.help(resolved: ArgumentDefaults.resolved(for: command)))
            return .ok
        }
        return OutputFile.finish(await run(command, arguments))
    }
}

func run(_ command: Command, _ arguments: [String]) async -> ExitCode {
    do {
        var given = try ParsedArguments(
            arguments, specs: command.acceptedOptions, program: "spconnect", command: command.name)
        // `--out tasks.csv` without `-o` writes CSV, whatever the config file's default.
        if let path = given.value(.out), let format = OutputFile.format(forPath: path) {
            given.setDefault(.output, format)
        }
        try ArgumentDefaults.apply(
            to: &given, for: command, environment: ProcessInfo.processInfo.environment,
            standardOutputIsTerminal: given.value(.out) == nil && Terminal.isTerminal(1))
        // `output = json` in the config file counts as `-o json`.
        if let format = given.value(.output), JSONErrors.isJSON(format) { ErrorOutput.useJSON() }
        _ = try NetworkOptions.retryCount(given)
        let parsed = given
        guard let seconds = try commandTimeout(parsed) else { return try await command.run(parsed) }
        return try await withDeadline(seconds, command: command.name) { try await command.run(parsed) }
    } catch let error as UsageError {
        printError("spconnect \(command.name): \(error.description)")
        return .usage
    } catch let error as SiteAddressError {
        // A LIST, FOLDER or FILE word that names nothing on the site: the user's to fix, as a bad option is.
        printError("spconnect \(command.name): \(error.description)")
        return .usage
    } catch let error as ConfigFileError {
        printError("spconnect \(command.name): \(error.description)")
        return .usage
    } catch let error as ChangeTokenFileError {
        // A token file given on the command line that cannot be used: the user's to fix, as a bad option is.
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

// The command runs in a task while the main thread waits for signals. A top-level `await` would hand the main thread
// to `dispatch_main()`, which leaves it with `pthread_exit` and then parks it in `sigsuspend` from a thread-exit
// handler: the exit unwinds its stack through the program's unwind tables and maps them in, more than a megabyte at
// every run (issue #39). This parks it the same way without the exit: every signal blocked (dispatch's worker threads
// block them too), then `sigsuspend` with none blocked, so the default action of SIGINT or SIGTERM still ends the
// process here, and a signal the gateway ignores (`SIG_IGN`) and reads through a dispatch source is kept pending for
// it (a blocked signal is never discarded) rather than dropped.
Task.detached {
    let code = await main()
    ErrorOutput.finish(code)
    // Out without the libraries' exit handlers: MIT Kerberos destroys its mutexes in them, and a pool thread still
    // releasing a Negotiate transfer then aborts the process (a CI run: a good Kerberos sign-in ended in SIGABRT,
    // `k5_mutex_lock: Received error 22`). Buffered output is flushed first; nothing of spconnect's waits on an exit
    // handler.
    fflush(nil)
    _exit(code.rawValue)
}
var everySignal = sigset_t()
sigfillset(&everySignal)
pthread_sigmask(SIG_BLOCK, &everySignal, nil)
var noSignal = sigset_t()
sigemptyset(&noSignal)
while true { sigsuspend(&noSignal) }
