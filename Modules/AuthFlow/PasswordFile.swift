public import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// A password kept in a file of its own (`--password-file`, `SPCONNECT_PASSWORD_FILE`): its first line.
///
/// The file is opened once and every check is made on that open file (`fstat` on the descriptor), so it cannot be
/// swapped between the check and the read. It must be a regular file or a pipe (`--password-file <(pass show sp)`)
/// that neither group nor others can read, owned by this user or by root (any owner when running as root).
/// Symbolic links are followed, because secret mounts (Kubernetes, systemd credentials) are made of them; the
/// checks apply to the file they lead to. A named pipe nobody writes to is refused instead of waited on.
public enum PasswordFile {
    /// Why a password file was refused; each message says what to do.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// It could not be opened or read.
        case unreadable(path: String, reason: String)
        /// It is neither a regular file nor a pipe (a directory, a device, a socket).
        case notAFile(path: String)
        /// Group or others may read it.
        case readableByOthers(path: String)
        /// Another user owns it.
        case ownedByAnotherUser(path: String)
        /// Its first line is empty.
        case empty(path: String)

        /// What went wrong with the file and how to fix it.
        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read the password file \(path): \(reason)"
            case .notAFile(let path): "the password file \(path) is not a regular file or a pipe"
            case .readableByOthers(let path):
                "the password file \(path) is readable by others; run 'chmod 600 \(path)' first"
            case .ownedByAnotherUser(let path):
                "the password file \(path) belongs to another user; keep the password in a file of your own"
            case .empty(let path): "the password file \(path) is empty"
            }
        }
    }

    /// The first line of the file at `path` (without its line ending), after the checks above.
    public static func read(_ path: String) throws(Failure) -> Secret {
        // Non-blocking only for the open: opening a named pipe with no writer would otherwise wait forever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        // A read-only descriptor: close cannot lose data, and its error would not change what was read.
        defer { _ = close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO else { throw .notAFile(path: path) }
        guard info.st_mode & 0o077 == 0 else { throw .readableByOthers(path: path) }
        let me = geteuid()
        guard me == 0 || info.st_uid == me || info.st_uid == 0 else { throw .ownedByAnotherUser(path: path) }
        if kind == S_IFIFO {
            // A pipe is read as it comes (process substitution writes after the open); a named pipe with no
            // writer at all reads as empty below.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }

        // A password is one short line: read at most 64 KiB.
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += buffer[..<count]
            if buffer[..<count].contains(where: { $0 == 0x0A || $0 == 0x0D }) { break }
        }
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        guard !line.isEmpty else { throw .empty(path: path) }
        return Secret(String(decoding: line, as: UTF8.self))
    }
}
