import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One program run by the harness: its exit status (or the signal that ended it) and what it wrote.
struct ChildRun {
    let status: Int32
    /// Ended by the harness: on purpose (`killAfter`), or because it hung past the timeout.
    let killed: Bool
    /// It did not end within the timeout: a hang, which the soak counts as a discrepancy.
    let hung: Bool
    let stdout: String
    let stderr: String

    /// Runs `program` with `arguments` and `environment`, its output in files under `logs` named `label`; kills it
    /// with SIGKILL after `killAfter` when given, and after `timeout` in any case (a hang is a finding, not a wait).
    static func run(
        _ program: String, _ arguments: [String], environment: [String: String], logs: String, label: String,
        killAfter: Duration? = nil, timeout: Duration = .seconds(120), standardInput: String? = nil
    ) async throws -> ChildRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        let out = logs + "/\(label).out"
        let err = logs + "/\(label).err"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        if let standardInput { process.standardInput = FileHandle(forReadingAtPath: standardInput) }
        let ended = ProcessEnd()
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let limit = killAfter ?? timeout
        let finished = await ended.wait(upTo: limit)
        var killed = false
        if !finished {
            kill(process.processIdentifier, SIGKILL)
            killed = true
            _ = await ended.wait(upTo: .seconds(30))
        }
        let status = process.isRunning ? -1 : process.terminationStatus
        return ChildRun(
            status: status, killed: killed, hung: !finished && killAfter == nil,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}

/// A process's end, awaited with a limit.
private final class ProcessEnd: @unchecked Sendable {
    private let lock = NSCondition()
    private var done = false

    func signal() {
        lock.lock()
        done = true
        lock.broadcast()
        lock.unlock()
    }

    /// Whether the process ended within `limit`.
    func wait(upTo limit: Duration) async -> Bool {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                self.lock.lock()
                let deadline = Date().addingTimeInterval(seconds)
                while !self.done, self.lock.wait(until: deadline) {}
                let ended = self.done
                self.lock.unlock()
                continuation.resume(returning: ended)
            }
        }
    }
}
