import AppSupport
import AuthFlow
import CommandLineKit
import Foundation

/// `--otp-command CMD` and `--totp-secret-file FILE` (or `SPCONNECT_OTP_COMMAND`, `SPCONNECT_TOTP_SECRET_FILE`, for
/// renewals in a job): where `spconnect` takes one-time codes from (``AppSupport/OneTimeCodeSources``), never argv.
enum OneTimeCodeOptions {
    /// The `--otp-command` option.
    static let option = OptionSpec.value(
        .otpCommand, "CMD",
        "run CMD (with /bin/sh) for a one-time code; its first output line is the code (oathtool, pass otp, a vault)")

    /// The `--totp-secret-file` option.
    static let secretFileOption = OptionSpec.path(
        .totpSecretFile, "FILE",
        "make one-time codes from the base32 TOTP secret (or otpauth:// URI) in FILE (must not be readable by others)")

    /// The source for this run: the command, else the TOTP secret file (given or from the environment), else the
    /// terminal, else none (``AppSupport/OneTimeCodeSources``). A secret file that cannot be used is a usage error
    /// now, not at the code page; every code is remembered by ``ErrorOutput`` and removed from what is reported.
    static func source(
        _ arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> OneTimeCodeSource? {
        func given(_ option: OptionKey, _ variable: String) -> String? {
            arguments.value(option) ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        }
        do {
            return try AppSupport.OneTimeCodeSources.source(
                command: given(.otpCommand, "SPCONNECT_OTP_COMMAND"),
                totpSecretFile: given(.totpSecretFile, "SPCONNECT_TOTP_SECRET_FILE"),
                prompt: isatty(STDIN_FILENO) == 1 ? TerminalPrompt.secret : nil, remember: { ErrorOutput.remember($0) },
                report: { request, reason in
                    printError(
                        "spconnect: --otp-command gave no code for \(request.fieldName) (attempt \(request.attempt)): "
                            + reason)
                })
        } catch {
            throw UsageError(description: "--totp-secret-file: " + error.description)
        }
    }
}
