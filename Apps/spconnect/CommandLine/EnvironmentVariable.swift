/// An environment variable spconnect reads: the one list the man page prints and the drift test
/// (CLIDeclarationTests) checks against docs/cli.md.
struct EnvironmentVariable: Sendable {
    /// The variable's name, e.g. `SPCONNECT_PROFILE`.
    let name: String
    /// What it sets, in one line.
    let summary: String

    /// Every variable, in the order the man page lists them.
    static let all: [EnvironmentVariable] = [
        EnvironmentVariable(
            name: "SPCONNECT_PROFILE", summary: "the profile used when --profile is not given (default: default)"),
        EnvironmentVariable(name: "SPCONNECT_PASSWORD", summary: "the password for login and for renewing a session"),
        EnvironmentVariable(
            name: "SPCONNECT_PASSWORD_FILE", summary: "a file holding the password (not readable by others)"),
        EnvironmentVariable(
            name: "SPCONNECT_PASSWORD_COMMAND",
            summary: "a command whose first output line is the password, for sessions signed in otherwise"),
        EnvironmentVariable(
            name: "SPCONNECT_KEYRING_TIMEOUT",
            summary: "seconds a keyring call may take, unlock prompt included (default 60)"),
        EnvironmentVariable(
            name: "SPCONNECT_COMMAND_TIMEOUT",
            summary: "seconds a password or one-time code command may run (default 60, at most 100)"),
        EnvironmentVariable(name: "SPCONNECT_USER_AGENT", summary: "the User-Agent when --user-agent is not given"),
        EnvironmentVariable(
            name: "SPCONNECT_OTP_COMMAND", summary: "a command printing one-time codes for a second factor"),
        EnvironmentVariable(
            name: "SPCONNECT_TOTP_SECRET_FILE", summary: "a TOTP secret file for the built-in code generator"),
        EnvironmentVariable(name: "XDG_CONFIG_HOME", summary: "where the config file is (default ~/.config)"),
        EnvironmentVariable(name: "XDG_STATE_HOME", summary: "where the sessions are (default ~/.local/state)"),
        EnvironmentVariable(name: "NO_COLOR", summary: "no ANSI bold in tables"),
    ]
}
