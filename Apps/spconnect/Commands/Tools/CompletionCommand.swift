import CommandLineKit

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
    print(Manual.completion(commands: commands).script(for: shell), terminator: "")
    return .ok
}
