import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One running `/bin/sh -c COMMAND` for ``HelperCommand``: posix_spawn'd as the leader of a new process group
/// (so a kill reaches what it started too), standard input `/dev/null`, standard output a pipe read without
/// blocking, standard error inherited, SIGPIPE back to its default (this process ignores it, and an ignored signal
/// would be inherited). Belongs to one thread.
final class HelperProcess {
    private let pid: pid_t
    private let output: Int32
    /// The wait status once the process was reaped.
    private(set) var status: Int32 = 0
    private var reaped = false

    /// Starts `command`.
    init(_ command: String) throws(HelperCommand.Failure) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .notStarted(reason: String(cString: strerror(errno)))
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Neither end may leak into another child (the write end's copy on the child's standard output stays open).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Recording file actions fails only for want of memory; posix_spawn then fails and says so.
        _ = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        _ = posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        _ = posix_spawnattr_setsigdefault(&attributes, &defaults)
        _ = posix_spawnattr_setsigmask(&attributes, &unblocked)
        _ = posix_spawnattr_setpgroup(&attributes, 0)
        _ = posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let result = withSpawnStrings(arguments: ["/bin/sh", "-c", command]) { argv, envp in
            posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        }
        // Only the child writes: its end closes here, so the pipe ends when the child (and what it started) close it.
        _ = close(writeEnd)
        guard result == 0 else {
            _ = close(readEnd)
            throw .notStarted(reason: String(cString: strerror(result)))
        }
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
        self.pid = pid
        self.output = readEnd
    }

    deinit {
        _ = close(output)
    }

    /// Appends what the command wrote (waiting at most `wait` for something) to `bytes`, never beyond `limit`
    /// bytes in all; true when its output ended.
    func read(into bytes: inout [UInt8], atMost limit: Int, waitingAtMost wait: Duration) -> Bool {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let milliseconds = max(0, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        _ = poll(&descriptor, 1, Int32(min(milliseconds, 1000)))
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, min($0.count, limit)) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count == 0 {
                return true
            } else if errno == EINTR {
                continue
            } else {
                // EAGAIN: nothing more for now. Any other error ends the output as well.
                return errno != EAGAIN && errno != EWOULDBLOCK
            }
        }
        return false
    }

    /// Whether the command exited (it is then reaped, and ``status`` is its wait status).
    func hasExited() -> Bool {
        if reaped { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || (result < 0 && errno == ECHILD) {
            self.status = status
            reaped = true
        }
        return reaped
    }

    /// Kills the command's whole process group (by its ID, which is the command's PID), reaps it, and gives back
    /// `failure`. A command already reaped is not signalled: its ID may belong to another process by now.
    func kill(because failure: HelperCommand.Failure) -> HelperCommand.Failure {
        guard !reaped else { return failure }
        _ = Glibc.kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        self.status = status
        reaped = true
        return failure
    }
}
