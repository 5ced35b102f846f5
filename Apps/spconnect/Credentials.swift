import AuthFlow
import Foundation
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Where a password comes from: never argv. In order: `--password-stdin`, `--password-file F` (refused
/// when group- or world-readable), `SPCONNECT_PASSWORD`, then a no-echo prompt when stdin is a terminal.
enum PasswordSource {
    static func read(_ arguments: ParsedArguments, user: String) throws(UsageError) -> Secret {
        let secret = try obtain(arguments, user: user)
        ErrorOutput.remember(secret)
        return secret
    }

    private static func obtain(_ arguments: ParsedArguments, user: String) throws(UsageError) -> Secret {
        if arguments.has("password-stdin") {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw UsageError(description: "--password-stdin was given but standard input had no password line")
            }
            return Secret(line)
        }
        if let path = arguments.value("password-file") {
            return try readFile(path)
        }
        if let command = arguments.value("password-command") {
            switch PasswordCommand.run(command) {
            case .success(let secret): return secret
            case .failure(let failure):
                throw UsageError(description: "--password-command gave no password: \(failure.description)")
            }
        }
        if let value = ProcessInfo.processInfo.environment["SPCONNECT_PASSWORD"], !value.isEmpty {
            return Secret(value)
        }
        if isatty(STDIN_FILENO) == 1 {
            return try PasswordPrompt.ask("Password for \(user): ")
        }
        throw UsageError(
            description:
                "no password: use --password-stdin, --password-file FILE (mode 0600), --password-command CMD, "
                + "SPCONNECT_PASSWORD, or run on a terminal to be asked")
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

/// A no-echo password prompt on the terminal.
enum PasswordPrompt {
    static func ask(_ text: String) throws(UsageError) -> Secret {
        FileHandle.standardError.write(Data(text.utf8))
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
        guard let line, !line.isEmpty else { throw UsageError(description: "no password entered") }
        return Secret(line)
    }
}
