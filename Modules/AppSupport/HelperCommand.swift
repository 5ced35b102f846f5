import Foundation
import Synchronization
package import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// A command the user names to print a secret (`--password-command`, `--otp-command`), run with `/bin/sh -c` in a
/// process group of its own, standard input closed, standard error passed through. Its standard output is read
/// while it runs (a command that prints a lot never blocks on a full pipe while this side waits for its exit), at
/// most ``outputLimit`` bytes. It is stopped, its whole process group killed by its ID, when it prints more, runs
/// longer than ``timeout(environment:)`` or its caller is cancelled. Nothing of its output is printed, and no
/// message quotes the command (a command line can hold a secret).
package enum HelperCommand {
    /// The most output read: a password or a code is one short line; more is an error.
    package static let outputLimit = 64 << 10

    /// The time a command may take by default, well below a sign-in's 120 s.
    package static let defaultTimeout = 60.0

    /// The longest time `SPCONNECT_COMMAND_TIMEOUT` may give, still below a sign-in's 120 s.
    package static let longestTimeout = 100.0

    /// Seconds a command may run: `SPCONNECT_COMMAND_TIMEOUT` when it is a number greater than 0 (at most
    /// ``longestTimeout``), else ``defaultTimeout``.
    package static func timeout(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        guard let seconds = environment["SPCONNECT_COMMAND_TIMEOUT"].flatMap(Double.init), seconds > 0,
            seconds.isFinite
        else { return defaultTimeout }
        return min(seconds, longestTimeout)
    }

    /// Why a command gave no secret. The description is a clause: "gave no password: <description>".
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// `/bin/sh` could not be started.
        case notStarted(reason: String)
        /// It ran longer than the limit (seconds) and was killed.
        case timedOut(seconds: Double)
        /// It printed more than ``HelperCommand/outputLimit`` bytes and was killed.
        case tooMuchOutput
        /// Its caller gave up (the command's deadline); it was killed.
        case cancelled
        /// It exited with a status other than 0.
        case exited(status: Int32)
        /// A signal ended it.
        case killed(signal: Int32)
        /// It printed no non-empty line.
        case noOutput

        package var description: String {
            switch self {
            case .notStarted(let reason): return "it could not be started (\(reason))"
            case .timedOut(let seconds):
                return "it ran longer than \(Self.secondsText(seconds)) s and was stopped (SPCONNECT_COMMAND_TIMEOUT "
                    + "sets the limit, at most \(Self.secondsText(HelperCommand.longestTimeout)) s)"
            case .tooMuchOutput:
                return "it printed more than \(HelperCommand.outputLimit >> 10) KiB and was stopped (it should print "
                    + "one line)"
            case .cancelled: return "it was stopped before it finished"
            case .exited(let status): return "it exited with status \(status)"
            case .killed(let signal): return "it was ended by signal \(signal)"
            case .noOutput: return "it printed nothing"
            }
        }

        private static func secondsText(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        }
    }

    /// Runs `command` to its end on the calling thread; its first non-empty output line, trimmed.
    package static func firstLine(of command: String, timeout: Double = timeout()) throws(Failure) -> Secret {
        try firstLine(of: command, timeout: timeout, stop: StopSignal())
    }

    /// ``firstLine(of:timeout:)`` on a thread of its own (never the cooperative pool's); cancelling the calling task
    /// kills the command.
    package static func firstLineWaiting(for command: String, timeout: Double = timeout()) async -> Result<
        Secret, Failure
    > {
        let stop = StopSignal()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Secret, Failure>, Never>) in
                Thread.detachNewThread {
                    do throws(Failure) {
                        continuation.resume(
                            returning: .success(try firstLine(of: command, timeout: timeout, stop: stop)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            stop.raise()
        }
    }

    /// Asks a running command to be stopped (from another thread).
    final class StopSignal: Sendable {
        private let raised = Atomic(false)

        func raise() { raised.store(true, ordering: .relaxed) }

        var isRaised: Bool { raised.load(ordering: .relaxed) }
    }

    private static func firstLine(of command: String, timeout: Double, stop: StopSignal) throws(Failure) -> Secret {
        let output = try run(command, timeout: timeout, stop: stop)
        let line = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        guard let line else { throw .noOutput }
        return Secret(line)
    }

    /// The command's whole standard output once it exited with status 0.
    private static func run(_ command: String, timeout: Double, stop: StopSignal) throws(Failure) -> [UInt8] {
        let child = try HelperProcess(command)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        func stopped() -> Failure? {
            if stop.isRaised { return child.kill(because: .cancelled) }
            guard ContinuousClock.now < deadline else { return child.kill(because: .timedOut(seconds: timeout)) }
            return nil
        }
        var output: [UInt8] = []
        // Read while it runs, until its output ends, or until it exited and what it wrote before is read (a child
        // it left in the background may hold the pipe open).
        var ended = false
        while !ended {
            if let failure = stopped() { throw failure }
            let exited = child.hasExited()
            let wait = exited ? Duration.zero : min(.milliseconds(100), deadline - ContinuousClock.now)
            ended = child.read(into: &output, atMost: outputLimit + 1, waitingAtMost: wait) || exited
            if output.count > outputLimit { throw child.kill(because: .tooMuchOutput) }
        }
        // Its output ended: its exit, within the same limit.
        while !child.hasExited() {
            if let failure = stopped() { throw failure }
            usleep(10_000)
        }
        let status = child.status
        if status & 0x7f != 0 { throw .killed(signal: status & 0x7f) }
        guard (status >> 8) & 0xff == 0 else { throw .exited(status: (status >> 8) & 0xff) }
        return output
    }
}
