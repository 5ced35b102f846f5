import CommandLineKit
import Foundation
import Presentation

/// Defaults for options not given on the command line, strongest first: the flag itself, then the environment
/// (`SPCONNECT_PROFILE`; `SPCONNECT_USER_AGENT` is read where the client is made), then the config file
/// (``ConfigFile``), then the command's own default.
enum ArgumentDefaults {
    /// The defaults the environment and the config file give `command`'s options now, with where each comes from:
    /// what `--help` shows instead of the declared default. A config file that cannot be read gives none.
    static func resolved(
        for command: Command, environment: [String: String] = ProcessInfo.processInfo.environment,
        standardOutputIsTerminal: Bool = Terminal.isTerminal(1)
    ) -> [OptionKey: ResolvedDefault] {
        guard
            var given = try? ParsedArguments(
                [], specs: command.acceptedOptions, program: "spconnect", command: command.name),
            (try? apply(
                to: &given, for: command, environment: environment, standardOutputIsTerminal: standardOutputIsTerminal))
                != nil
        else { return [:] }
        var resolved: [OptionKey: ResolvedDefault] = [:]
        for option in command.acceptedOptions {
            guard let value = given.value(option.key) else { continue }
            let fromEnvironment = option.key == .profile && environment["SPCONNECT_PROFILE"] == value
            resolved[option.key] = ResolvedDefault(
                value: value, source: fromEnvironment ? "SPCONNECT_PROFILE" : "the config file")
        }
        return resolved
    }

    /// Fills in `arguments` for `command`. The config file is read only when the command takes one of its options,
    /// so `version`, `help` and `completion` work whatever it holds.
    ///
    /// The config file's `output` is the default on a terminal only; when standard output is a pipe or a file its
    /// `output-piped` is (else the command's own default, JSON), so a format chosen for reading never reaches a
    /// script that parses the output.
    static func apply(
        to arguments: inout ParsedArguments, for command: Command, environment: [String: String],
        standardOutputIsTerminal: Bool = Terminal.isTerminal(1)
    ) throws(ConfigFileError) {
        let accepted = Set(command.acceptedOptions.map(\.key))
        if accepted.contains(.profile), let profile = environment["SPCONNECT_PROFILE"], !profile.isEmpty {
            arguments.setDefault(.profile, profile)
        }
        guard SpconnectConfig.keys.contains(where: { accepted.contains(OptionKey(named: $0)) }),
            let config = try SpconnectConfig.load(environment: environment)
        else { return }
        for (key, value) in config.values {
            switch key {
            case "output" where !standardOutputIsTerminal, "output-piped" where standardOutputIsTerminal:
                continue
            case "output-piped":
                if accepted.contains(.output) { arguments.setDefault(.output, value) }
            case "user-agent" where !(environment["SPCONNECT_USER_AGENT"] ?? "").isEmpty:
                continue
            default:
                if accepted.contains(OptionKey(named: key)) { arguments.setDefault(OptionKey(named: key), value) }
            }
        }
    }
}
