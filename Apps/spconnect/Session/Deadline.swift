import CommandLineKit
import Foundation

/// `--timeout SECONDS`: the longest a whole command may take (every request, retry and renewal in it). A sign-in
/// stops after 120 s without it; other commands have no overall limit, only the per-request ones (15 s to connect,
/// 30 s of a stalled transfer).
let timeoutOption = OptionSpec.value(
    .timeout, "SECONDS", "stop the whole command after SECONDS (default: none; a sign-in stops after 120 s)")

/// The `--timeout` given, in seconds, or nil.
func commandTimeout(_ arguments: ParsedArguments) throws(UsageError) -> Double? {
    guard let text = arguments.value(.timeout) else { return nil }
    guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
        throw UsageError(description: "--timeout takes a number of seconds greater than 0, not '\(text)'")
    }
    return seconds
}

/// Runs `body`, cancelling it after `seconds`: its transfers are aborted, its temporary files removed, and the
/// command ends with exit 6 and a sentence that says so.
func withDeadline(
    _ seconds: Double, command: String, _ body: @escaping @Sendable () async throws -> ExitCode
) async throws -> ExitCode {
    try await withThrowingTaskGroup(of: ExitCode?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return nil
        }
        defer { group.cancelAll() }
        while let result = try await group.next() {
            if let code = result { return code }
            group.cancelAll()
            printError(
                "spconnect \(command): stopped after \(secondsText(seconds)) s (--timeout); the server was too "
                    + "slow or unreachable. Retry later, or give a longer --timeout.")
            return .network
        }
        return .network
    }
}

/// Seconds as a user wrote them: `5`, `2.5`.
func secondsText(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
}
