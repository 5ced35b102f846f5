public import LocalFiles

/// The lock file a tree transfer takes in its local folder (never uploaded, never deleted).
public let treeLockFileName = ".spconnect-download.lock"

/// Who holds a lock another run waited for: its PID when the lock file names one, and the lock file's path.
public struct LockHolder: Sendable, Equatable {
    /// The holder's process id, nil when its lock file does not say.
    public let pid: Int32?
    /// The lock file.
    public let lockPath: String
}

/// How taking a lock ended.
public enum LockAttempt: Sendable {
    /// This run has it until the lock is released.
    case acquired(FolderLock)
    /// Another run still had it when the wait ended.
    case held(LockHolder)
}

/// Takes the lock file `name` in `folder` (`flock(2)`, ``FolderLock``): while another run holds it, tries again
/// every tenth of a second for up to `seconds`, calling `waiting` once when it starts to wait.
///
/// - Throws: ``LocalFileError`` when the lock file cannot be made or opened.
public func takeLock(
    _ name: String, in folder: LocalFolder, waiting seconds: Double, _ waiting: (LockHolder) -> Void = { _ in }
) async throws(LocalFileError) -> LockAttempt {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var announced = false
    while true {
        let holder: LockHolder
        switch try FolderLock.attempt(name, in: folder) {
        case .acquired(let lock): return .acquired(lock)
        case .held(let pid): holder = LockHolder(pid: pid, lockPath: folder.path(of: name))
        }
        guard ContinuousClock.now < deadline, !Task.isCancelled else { return .held(holder) }
        if !announced {
            waiting(holder)
            announced = true
        }
        try? await Task.sleep(for: .milliseconds(100))
    }
}
