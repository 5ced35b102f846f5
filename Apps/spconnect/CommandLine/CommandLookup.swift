import CommandLineKit

/// The command called `name`, or a usage error that suggests the closest one.
func commandNamed(_ name: String) throws(UsageError) -> Command {
    guard let command = commands.first(where: { $0.name == name }) else {
        let hint = Suggestions.didYouMean(name, in: commands.filter { !$0.hidden }.map(\.name))
        throw UsageError(description: "unknown command '\(name)'.\(hint) Run 'spconnect --help' for the list.")
    }
    return command
}
