import CommandLineKit

/// The password flags of `login` and of `api --basic`, declared once so both commands' help, completion and docs
/// say the same (the password is never an argument: docs/cli.md, "Security").
enum PasswordOptions {
    /// `--password-stdin`: the first line of standard input.
    static let stdin = OptionSpec.flag(
        .passwordStdin, "read the password from the first line of standard input (api: with --basic)")
    /// `--password-file FILE`: the first line of a file only its owner can read.
    static let file = OptionSpec.path(
        .passwordFile, "FILE", "read the password from FILE (must not be readable by others; api: with --basic)")
    /// `--allow-http-loopback`: plain http to a loopback address is allowed to carry credentials.
    static let allowHTTPLoopback = OptionSpec.flag(
        .allowHttpLoopback, "allow plain http to loopback addresses (simulators, local services, tests)")
}
