import AuthFlow
import Foundation
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Where `spconnect` takes one-time codes from, in order: `--otp-command CMD` (or `SPCONNECT_OTP_COMMAND`, for
/// renewals in a job), then a no-echo prompt when standard input is a terminal. Never from argv (a code in a
/// command line would outlive its 30 seconds in shell history), never traced: every code is remembered by
/// ``ErrorOutput`` and removed from what the engine reports.
enum OneTimeCodeSources {
    /// The `--otp-command` option.
    static let option = OptionSpec.value(
        "otp-command", "CMD",
        "run CMD (with /bin/sh) for a one-time code; its first output line is the code (oathtool, pass otp, a vault)")

    /// The source for this run: the command given or from the environment, else the terminal, else none.
    static func source(
        _ arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> OneTimeCodeSource? {
        let command =
            arguments.value("otp-command")
            ?? environment["SPCONNECT_OTP_COMMAND"].flatMap {
                $0.isEmpty ? nil : $0
            }
        return source(command: command)
    }

    /// The source for a command (nil: the terminal when there is one).
    static func source(command: String?) -> OneTimeCodeSource? {
        if let command {
            return { request in
                let code = await run(command)
                if let code { ErrorOutput.remember(code) }
                if code == nil {
                    printError(
                        "spconnect: --otp-command gave no code for \(request.fieldName) (attempt \(request.attempt))")
                }
                return code
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

    /// Runs `command` with `/bin/sh -c`, standard input closed, for at most 60 s; its first non-empty output
    /// line, trimmed, or nil.
    static func run(_ command: String) async -> Secret? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
            Thread.detachNewThread {
                let bytes = output.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(returning: bytes)
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { process.terminate() }
        guard process.terminationStatus == 0 else { return nil }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        return line.map(Secret.init)
    }
}
