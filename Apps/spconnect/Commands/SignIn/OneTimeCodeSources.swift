import AppSupport
import AuthFlow
import CommandLineKit
import Cryptography
import Foundation
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Where `spconnect` takes one-time codes from, in order: `--otp-command CMD` (or `SPCONNECT_OTP_COMMAND`, for
/// renewals in a job), `--totp-secret-file FILE` (or `SPCONNECT_TOTP_SECRET_FILE`: a base32 secret or an
/// `otpauth://` URI, refused unless only its owner can read it; codes made by the built-in RFC 6238 generator),
/// then a no-echo prompt when standard input is a terminal. Never from argv (a code in a
/// command line would outlive its 30 seconds in shell history), never traced: every code is remembered by
/// ``ErrorOutput`` and removed from what the engine reports.
enum OneTimeCodeSources {
    /// The `--otp-command` option.
    static let option = OptionSpec.value(
        .otpCommand, "CMD",
        "run CMD (with /bin/sh) for a one-time code; its first output line is the code (oathtool, pass otp, a vault)")

    /// The `--totp-secret-file` option.
    static let secretFileOption = OptionSpec.path(
        .totpSecretFile, "FILE",
        "make one-time codes from the base32 TOTP secret (or otpauth:// URI) in FILE (must not be readable by others)")

    /// The source for this run: the command, else the TOTP secret file (given or from the environment), else the
    /// terminal, else none. A secret file that cannot be used is a usage error now, not at the code page.
    static func source(
        _ arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> OneTimeCodeSource? {
        func given(_ option: OptionKey, _ variable: String) -> String? {
            arguments.value(option) ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        }
        if let command = given(.otpCommand, "SPCONNECT_OTP_COMMAND") { return source(command: command) }
        if let path = given(.totpSecretFile, "SPCONNECT_TOTP_SECRET_FILE") { return try totpSource(path: path) }
        return source(command: nil)
    }

    /// Codes from the TOTP secret in `path`: the current one first; after a refusal, the next time step's.
    static func totpSource(path: String) throws(UsageError) -> OneTimeCodeSource {
        let secret: Secret
        do {
            secret = try PasswordFile.read(path)
        } catch {
            throw UsageError(description: "--totp-secret-file: \(error.description)")
        }
        ErrorOutput.remember(secret)
        let generator: TOTP
        do {
            generator = try TOTP(text: secret.revealedValue())
        } catch {
            throw UsageError(description: "--totp-secret-file \(path): \(error.description)")
        }
        return { request in
            if request.attempt > 1 {
                // The last code was refused: wait for the next time step (at most one period).
                let period = Double(generator.period)
                let now = Date().timeIntervalSince1970
                let wait = period - now.truncatingRemainder(dividingBy: period) + 0.5
                try? await Task.sleep(for: .milliseconds(Int(wait * 1000)))
            }
            let code = Secret(generator.code())
            ErrorOutput.remember(code)
            return code
        }
    }

    /// The source for a command (nil: the terminal when there is one).
    static func source(command: String?) -> OneTimeCodeSource? {
        if let command {
            return { request in
                switch await run(command) {
                case .success(let code):
                    ErrorOutput.remember(code)
                    return code
                case .failure(let failure):
                    printError(
                        "spconnect: --otp-command gave no code for \(request.fieldName) (attempt \(request.attempt)): "
                            + failure.description)
                    return nil
                }
            }
        }
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        return { request in
            let what = request.label.map { " (\($0))" } ?? ""
            let again = request.attempt > 1 ? "That code was refused. " : ""
            guard let code = try? PasswordPrompt.ask("\(again)One-time code\(what): ") else { return nil }
            ErrorOutput.remember(code)
            return code
        }
    }

    /// Runs `command` as a ``HelperCommand`` (`/bin/sh -c`, standard input closed, at most 64 KiB of output and
    /// `SPCONNECT_COMMAND_TIMEOUT` seconds, killed when the sign-in is cancelled); its first non-empty output line,
    /// trimmed, or why there is none.
    static func run(_ command: String) async -> Result<Secret, HelperCommand.Failure> {
        await HelperCommand.firstLineWaiting(for: command)
    }
}
