import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `executable` with `arguments` to its end and returns its exit status (-1 when it could not be started or
/// was killed), waiting on a thread of its own, not the cooperative pool. posix_spawn and waitpid, not
/// Foundation's Process: a child that starts a daemon (Apache) or helpers of its own (Chromium) keeps inherited
/// descriptors, and Process then never reports the exit.
///
/// - Parameters:
///   - environment: the child's whole environment.
///   - standardInput: a file read as standard input, else `/dev/null`.
///   - standardOutput: a file that receives standard output (created or truncated), else `/dev/null`.
///   - standardError: a file that receives standard error (created or truncated), else `/dev/null`.
///   - timeout: the child is killed (SIGKILL, by its PID) when it runs longer.
public func spawnToExit(
    _ executable: String, _ arguments: [String], environment: [String: String], standardInput: String? = nil,
    standardOutput: String? = nil, standardError: String? = nil, timeout: Duration? = nil
) async -> Int32 {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(
                returning: spawnAndWait(
                    executable, arguments, environment: environment,
                    files: (standardInput, standardOutput, standardError), timeout: timeout))
        }
    }
}

/// Runs `executable` like ``spawnToExit(_:_:environment:standardInput:standardOutput:standardError:timeout:)``,
/// with standard input, output and error given as descriptors of this process (nil: `/dev/null` for input, inherited
/// for output and error; a negative descriptor, as `FileHandle.nullDevice` may have: `/dev/null`), as `Process`
/// would pass its handles and pipes.
public func spawnToExit(
    _ executable: String, _ arguments: [String], environment: [String: String],
    descriptors: (input: Int32?, output: Int32?, error: Int32?)
) async -> Int32 {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(
                returning: spawnAndWait(
                    executable, arguments, environment: environment, files: (nil, nil, nil), timeout: nil,
                    descriptors: descriptors))
        }
    }
}

private func spawnAndWait(
    _ executable: String, _ arguments: [String], environment: [String: String],
    files: (input: String?, output: String?, error: String?), timeout: Duration?,
    descriptors: (input: Int32?, output: Int32?, error: Int32?)? = nil
) -> Int32 {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Adding file actions only records them (it fails for want of memory); a bad file makes posix_spawn fail.
    if let descriptors {
        for (descriptor, target, flags) in [
            (descriptors.input ?? -1, Int32(0), O_RDONLY), (descriptors.output, 1, O_WRONLY),
            (descriptors.error, 2, O_WRONLY),
        ] {
            guard let descriptor else { continue }  // inherited
            if descriptor >= 0 {
                _ = posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            } else {
                _ = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", flags, 0)
            }
        }
    } else {
        _ = posix_spawn_file_actions_addopen(&actions, 0, files.input ?? "/dev/null", O_RDONLY, 0)
        _ = posix_spawn_file_actions_addopen(
            &actions, 1, files.output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = posix_spawn_file_actions_addopen(
            &actions, 2, files.error ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    var pid: pid_t = 0
    guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { return -1 }
    let exited = Exited()
    if let timeout {
        let (seconds, attoseconds) = timeout.components
        let child = pid
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            exited.killUnlessExited(child)
        }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        if errno != EINTR { break }
    }
    exited.markExited()
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}

/// Whether the child was reaped, so a late timeout never signals a PID the system has reused.
private final class Exited: Sendable {
    private let done = Mutex(false)

    func markExited() { done.withLock { $0 = true } }

    func killUnlessExited(_ pid: pid_t) {
        done.withLock {
            if !$0 { kill(pid, SIGKILL) }
        }
    }
}
