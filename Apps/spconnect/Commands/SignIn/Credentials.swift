import AppSupport
import AuthFlow
import CommandLineKit
import Foundation
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Where a login's password comes from: never argv. In order: `--password-stdin`, `--password-file F` (refused
/// when group- or world-readable), `--password-command CMD`, then the chain renewals use (``PasswordChain``:
/// `SPCONNECT_PASSWORD`, `SPCONNECT_PASSWORD_FILE`, `SPCONNECT_PASSWORD_COMMAND`, a no-echo prompt on a terminal).
enum PasswordSource {
    /// Whether any password source is there: a flag, or a source of the chain (a terminal to ask on included).
    static func isGiven(_ arguments: ParsedArguments) -> Bool {
        arguments.has(PasswordOptions.stdin.key) || arguments.value(PasswordOptions.file.key) != nil
            || arguments.value(.passwordCommand) != nil
            || PasswordChain(
                session: nil, environment: ProcessInfo.processInfo.environment, terminal: isatty(STDIN_FILENO) == 1
            ).first != nil
    }

    static func read(_ arguments: ParsedArguments, user: String) throws(UsageError) -> Secret {
        let secret = try obtain(arguments, user: user)
        ErrorOutput.remember(secret)
        return secret
    }

    private static func obtain(_ arguments: ParsedArguments, user: String) throws(UsageError) -> Secret {
        if arguments.has(PasswordOptions.stdin.key) {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw UsageError(description: "--password-stdin was given but standard input had no password line")
            }
            return Secret(line)
        }
        if let path = arguments.value(PasswordOptions.file.key) {
            return try readFile(path)
        }
        if let command = arguments.value(.passwordCommand) {
            switch PasswordCommand.run(command) {
            case .success(let secret): return secret
            case .failure(let failure):
                throw UsageError(description: "--password-command gave no password: \(failure.description)")
            }
        }
        // No flag: the chain renewals use, as far as a first login has it (no saved command, no keyring yet).
        let chain = PasswordChain(
            session: nil, environment: ProcessInfo.processInfo.environment, terminal: isatty(STDIN_FILENO) == 1)
        var typed: Result<Secret, UsageError>?
        switch chain.password(ask: {
            do throws(UsageError) {
                guard let typed = TerminalPrompt.secret("Password for \(user): ") else {
                    throw UsageError(description: "no password entered")
                }
                return typed
            } catch {
                typed = .failure(error)
                return nil
            }
        }) {
        case .password(let secret, _): return secret
        case .failed(let source, let reason):
            if case .failure(let error)? = typed { throw error }
            throw UsageError(description: "\(source) gave no password: \(reason)")
        case .none:
            throw UsageError(
                description:
                    "no password: use --password-stdin, --password-file FILE (mode 0600), --password-command CMD, "
                    + "SPCONNECT_PASSWORD, SPCONNECT_PASSWORD_FILE, SPCONNECT_PASSWORD_COMMAND, or run on a terminal "
                    + "to be asked")
        }
    }

    /// A password file's first line (``PasswordFile``: refused when others can read it).
    static func readFile(_ path: String) throws(UsageError) -> Secret {
        do {
            return try PasswordFile.read(path)
        } catch {
            throw UsageError(description: error.description)
        }
    }
}

/// A no-echo prompt on the terminal: the question on standard error, the answer from standard input.
enum TerminalPrompt {
    /// The line typed after `question`, without echo when standard input is a terminal; nil when nothing was.
    @Sendable static func secret(_ question: String) -> Secret? {
        FileHandle.standardError.write(Data(question.utf8))
        var saved = termios()
        let haveTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if haveTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        }
        let line = readLine(strippingNewline: true)
        if haveTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        FileHandle.standardError.write(Data("\n".utf8))
        guard let line, !line.isEmpty else { return nil }
        return Secret(line)
    }
}
