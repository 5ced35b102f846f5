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

/// `spconnect completion bash|zsh|fish`: the completion script for a shell, generated from the command table.
let completionCommand = Command(
    name: "completion", summary: "Print the shell completion script for bash, zsh or fish.",
    synopsis: "bash|zsh|fish", options: [],
    examples: [
        "source <(spconnect completion bash)                 # in ~/.bashrc",
        "spconnect completion zsh > ~/.zfunc/_spconnect      # with fpath+=(~/.zfunc) before compinit",
        "spconnect completion fish > ~/.config/fish/completions/spconnect.fish",
    ]
) { arguments in
    let names = ShellCompletion.Shell.allCases.map(\.rawValue)
    guard arguments.positionals.count == 1, let shell = ShellCompletion.Shell(rawValue: arguments.positionals[0])
    else {
        let given = arguments.positionals.first.map { " '\($0)'." + Suggestions.didYouMean($0, in: names) } ?? ""
        throw UsageError(description: "give the shell: \(names.joined(separator: ", ")).\(given)")
    }
    print(ShellCompletion.script(for: shell, commands: commands), terminator: "")
    return .ok
}

/// `spconnect man`: the manual page (roff) made from the same help text; `scripts/install.sh` installs it.
let manCommand = Command(
    name: "man", summary: "Print the spconnect(1) manual page in roff, made from the command help.", synopsis: "",
    options: [], examples: ["spconnect man | man -l -"], hidden: true
) { arguments in
    _ = try positionals(arguments)
    print(ManPage.render(commands: commands, version: version), terminator: "")
    return .ok
}

/// The command called `name`, or a usage error that suggests the closest one.
func commandNamed(_ name: String) throws(UsageError) -> Command {
    guard let command = commands.first(where: { $0.name == name }) else {
        let hint = Suggestions.didYouMean(name, in: commands.filter { !$0.hidden }.map(\.name))
        throw UsageError(description: "unknown command '\(name)'.\(hint) Run 'spconnect --help' for the list.")
    }
    return command
}
