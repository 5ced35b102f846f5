import AuthFlow
import CommandLineKit
import Transport

/// `login`'s Temporary Access Pass flags (Entra): the pass is never an argument, as a password is not.
enum AccessPassOptions {
    /// `--tap-stdin`: the first line of standard input.
    static let stdin = OptionSpec.flag(
        .tapStdin, "read a Temporary Access Pass (Entra) from the first line of standard input")
    /// `--tap-file FILE`: the first line of a file only its owner can read.
    static let file = OptionSpec.path(
        .tapFile, "FILE", "read a Temporary Access Pass from FILE (must not be readable by others)")

    /// The pass the flags give, nil without them; remembered so that no message can show it.
    static func read(_ arguments: ParsedArguments) throws(UsageError) -> Secret? {
        var pass: Secret?
        if arguments.has(.tapStdin) {
            guard !arguments.has(.passwordStdin) else {
                throw UsageError(
                    description: "--tap-stdin and --password-stdin would both read standard input: give the password "
                        + "with --password-file FILE or --password-command CMD")
            }
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw UsageError(description: "--tap-stdin was given but standard input had no pass")
            }
            pass = Secret(line)
        } else if let path = arguments.value(.tapFile) {
            pass = try PasswordSource.readFile(path)
        }
        if let pass { ErrorOutput.remember(pass) }
        return pass
    }

    /// Whether a password flag was given besides the pass (the pass alone needs no password, and none is asked for).
    static func hasPasswordFlag(_ arguments: ParsedArguments) -> Bool {
        arguments.has(.passwordStdin) || arguments.value(.passwordFile) != nil
            || arguments.value(.passwordCommand) != nil
    }
}
