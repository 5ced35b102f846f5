import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive `flock(2)` on a file in a ``LocalFolder``, so that two runs never work in one folder at once. The
/// lock file is opened by name from the folder's descriptor (never through a symbolic link), made mode 0600 when
/// missing, and holds the PID of the process that has the lock, for another run's message. The lock is the open
/// descriptor's: released when the last reference goes, and by the kernel when the process ends however it ends
/// (a killed run never leaves a stale lock). The file itself stays. Immutable, so it can be shared between tasks.
public final class FolderLock: Sendable {
    /// The lock file's path, for messages.
    public let path: String
    private let descriptor: Int32

    /// What an attempt to lock found.
    public enum Attempt: Sendable {
        /// The lock is this process's until the value goes.
        case acquired(FolderLock)
        /// Another process has it: its PID as written in the file, nil when it could not be read.
        case held(by: Int32?)
    }

    /// Whether this process's PID is in the file (when not, another run's message says the PID is unknown).
    public let pidWritten: Bool

    private init(path: String, descriptor: Int32, pidWritten: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.pidWritten = pidWritten
    }

    deinit { close(descriptor) }

    /// Tries once, without waiting, to lock the file `name` in `folder`.
    ///
    /// - Throws: ``LocalFileError`` when the file cannot be made or opened (a read-only folder, a symbolic link or
    ///   something that is not a regular file at `name`).
    public static func attempt(_ name: String, in folder: LocalFolder) throws(LocalFileError) -> Attempt {
        let path = folder.path(of: name)
        guard isSafe(name) else { throw LocalFileError(path: path, action: "use", code: EINVAL) }
        let fd = openat(folder.descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LocalFileError(path: path, action: "open the lock file", code: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw LocalFileError(path: path, action: "use the lock file", code: EINVAL)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            defer { close(fd) }
            guard code == EWOULDBLOCK else { throw LocalFileError(path: path, action: "lock", code: code) }
            return .held(by: holder(fd))
        }
        let text = Array("\(getpid())\n".utf8)
        let written =
            ftruncate(fd, 0) == 0 && text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == text.count
        return .acquired(FolderLock(path: path, descriptor: fd, pidWritten: written))
    }

    /// The PID written in the lock file open at `fd`, if it reads as one.
    private static func holder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }

    private static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }
}
