/// What a command declares about itself, for its `--help`, the shell completions and the man page: its name, one-line
/// summary, synopsis, every option it accepts, examples, what its positional words are, and whether it is left out
/// of the listings. A plain value.
public struct CommandDescription: Sendable {
    public let name: String
    public let summary: String
    /// The synopsis after `PROGRAM NAME`, e.g. `FILE [--url URL]`.
    public let synopsis: String
    /// Every option the command accepts, in the order its help lists them.
    public let options: [OptionSpec]
    /// Whole command lines shown under `examples:`.
    public let examples: [String]
    /// What the positional words are: ``OptionSpec/Values/path`` where they are local files, for completion.
    public let positionals: OptionSpec.Values
    /// Left out of the overview, the completions and the man page.
    public let hidden: Bool

    /// A command's description.
    public init(
        name: String, summary: String, synopsis: String, options: [OptionSpec], examples: [String] = [],
        positionals: OptionSpec.Values = .text, hidden: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.synopsis = synopsis
        self.options = options
        self.examples = examples
        self.positionals = positionals
        self.hidden = hidden
    }

    /// The `--help` text: usage, summary, each option with its default (from `resolved` when the environment or a
    /// config file sets one), examples. `program` is the program's name (`spconnect`); `command` says whether the
    /// program has commands at all (a program without them is described by one description named after it).
    public func help(program: String, resolved: [OptionKey: ResolvedDefault] = [:]) -> String {
        let invocation = name == program ? program : "\(program) \(name)"
        var lines = ["usage: \(invocation) \(synopsis)", "", summary]
        if !options.isEmpty {
            lines.append("")
            lines.append("options:")
            for option in options {
                lines.append(
                    "  " + padded(option.label, to: 28) + " " + option.described(resolved: resolved[option.key]))
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

/// `text` followed by spaces up to `width` characters (at least one space).
public func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
}
