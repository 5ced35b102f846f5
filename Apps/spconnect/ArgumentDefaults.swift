/// Defaults for options not given on the command line, strongest first: the flag itself, then the environment
/// (`SPCONNECT_PROFILE`; `SPCONNECT_USER_AGENT` is read where the client is made), then the config file
/// (``ConfigFile``), then the command's own default.
enum ArgumentDefaults {
    /// Fills in `arguments` for `command`. The config file is read only when the command takes one of its options,
    /// so `version`, `help` and `completion` work whatever it holds.
    static func apply(
        to arguments: inout ParsedArguments, for command: Command, environment: [String: String]
    ) throws(ConfigFileError) {
        let accepted = Set(command.acceptedOptions.map(\.name))
        if accepted.contains("profile"), let profile = environment["SPCONNECT_PROFILE"], !profile.isEmpty {
            arguments.setDefault("profile", profile)
        }
        guard ConfigFile.keys.contains(where: accepted.contains),
            let config = try ConfigFile.load(environment: environment)
        else { return }
        for (key, value) in config.values where accepted.contains(key) {
            if key == "user-agent", let agent = environment["SPCONNECT_USER_AGENT"], !agent.isEmpty { continue }
            arguments.setDefault(key, value)
        }
    }
}
