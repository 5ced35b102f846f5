import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The trust rules for the files that hold secrets (sessions, sign-in records): a folder only its owner may
/// write, files only its owner may read, never a symbolic link. Another local user who could write the folder
/// could plant a session naming their own server, and the next renewal would post the password there.
enum PrivateFiles {
    /// Why a folder or file was not trusted, and the command that fixes it.
    struct Distrust: Error, Equatable {
        let reason: String
        let fix: String
    }

    /// Checks that `path` is a folder owned by the effective user and writable by no one else. A folder that
    /// does not exist passes (it is created 0700 when first needed).
    static func checkDirectory(_ path: String) throws(Distrust) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw Distrust(reason: "it cannot be examined (\(String(cString: strerror(errno))))", fix: "check it")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Distrust(reason: "it is not a folder", fix: "move it away")
        }
        guard status.st_uid == geteuid() else {
            throw Distrust(
                reason: "it belongs to uid \(status.st_uid), not to you (uid \(geteuid()))",
                fix: "move it away, or set XDG_STATE_HOME to a folder of your own")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw Distrust(
                reason: "other users may write to it (mode \(octal(status.st_mode))), so they could plant a session",
                fix: "run: chmod 700 '\(path)'")
        }
    }

    /// What a distrusted file's fix says: a session or record is made again by signing in; a kept secret (a passkey)
    /// cannot be made again, so its fixes keep it.
    enum Remedy {
        case signInAgain
        case keepFile
    }

    /// Checks the file at `path` as ``contents(of:limit:remedy:)`` would before reading it; a missing file passes.
    static func checkFile(_ path: String, remedy: Remedy = .signInAgain) throws(Distrust) {
        guard let (descriptor, _) = try openTrusted(path, remedy: remedy) else { return }
        // A read-only descriptor: close cannot lose data.
        _ = close(descriptor)
    }

    /// The bytes of the regular file at `path`, opened without following a symbolic link and checked on the open
    /// descriptor: owned by the effective user, no group or other permission bits. Nil when there is no file.
    /// At most `limit` bytes are read; a longer file is distrusted too.
    static func contents(of path: String, limit: Int = 16 << 20, remedy: Remedy = .signInAgain) throws(Distrust)
        -> [UInt8]?
    {
        guard let (descriptor, status) = try openTrusted(path, remedy: remedy) else { return nil }
        // A read-only descriptor: close cannot lose data, and its error would not change what was read.
        defer { _ = close(descriptor) }
        guard Int(status.st_size) <= limit else {
            throw Distrust(reason: "it is larger than \(limit >> 20) MiB", fix: "delete it ('rm \(path)')")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Distrust(reason: "it cannot be read (\(String(cString: strerror(errno))))", fix: "check it")
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= limit else {
                throw Distrust(reason: "it is larger than \(limit >> 20) MiB", fix: "delete it ('rm \(path)')")
            }
        }
    }

    /// The regular file at `path` opened for reading without following a symbolic link, checked on the open
    /// descriptor (owned by the effective user, no group or other permission bits), and its status; nil when there
    /// is no file. The caller closes the descriptor.
    private static func openTrusted(_ path: String, remedy: Remedy) throws(Distrust) -> (Int32, stat)? {
        let remove = "delete it ('rm \(path)') and sign in again"
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP:
                throw Distrust(
                    reason: "it is a symbolic link",
                    fix: remedy == .signInAgain ? remove : "give the path of the file itself, not of a link to it")
            default:
                throw Distrust(reason: "it cannot be opened (\(String(cString: strerror(errno))))", fix: "check it")
            }
        }
        var status = stat()
        let distrust: Distrust?
        if fstat(descriptor, &status) != 0 {
            distrust = Distrust(reason: "it cannot be examined (\(String(cString: strerror(errno))))", fix: "check it")
        } else if status.st_mode & S_IFMT != S_IFREG {
            distrust = Distrust(
                reason: "it is not a regular file", fix: remedy == .signInAgain ? remove : "give the path of a file")
        } else if status.st_uid != geteuid() {
            distrust = Distrust(
                reason: "it belongs to uid \(status.st_uid), not to you (uid \(geteuid())), so someone else wrote it",
                fix: remedy == .signInAgain ? remove : "do not use it; use a passkey file of your own")
        } else if status.st_mode & 0o077 != 0 {
            distrust = Distrust(
                reason: "its mode is \(octal(status.st_mode)), not 0600",
                fix: remedy == .signInAgain
                    ? remove
                    : "run: chmod 600 '\(path)'; others could read its key, so register a new passkey if they may have")
        } else {
            distrust = nil
        }
        if let distrust {
            // A read-only descriptor: close cannot lose data.
            _ = close(descriptor)
            throw distrust
        }
        return (descriptor, status)
    }

    /// Deletes the temporary files an interrupted save of `path` left behind (`path.tmp-XXXXXX`, ours, regular,
    /// older than `age` seconds, so a save running beside this one keeps its file).
    static func removeStaleTemporaries(of path: String, olderThan age: TimeInterval = 60, now: Date = Date()) {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.count == prefix.count + 6 {
            let candidate = directory + "/" + name
            var status = stat()
            guard lstat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
                Double(status.st_mtim.tv_sec) < now.timeIntervalSince1970 - age
            else { continue }
            // Best effort: a stale file left behind is tried again on the next sweep.
            _ = unlink(candidate)
        }
    }

    private static func octal(_ mode: mode_t) -> String {
        "0" + String(mode & 0o7777, radix: 8)
    }

    /// Why a private file could not be written.
    struct WriteFailure: Error {
        let reason: String
    }

    /// Puts `bytes` at `path` in one `rename(2)`: written to a temporary file beside it (mode 0600, `mkstemp`),
    /// flushed to disk, then renamed over `path`. A failure leaves the old file as it was, and no temporary file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(WriteFailure) {
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteFailure(reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = String(cString: strerror(errno)) }
        var written = 0
        while failure == nil && written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
            } else {
                written += result
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            // The write already failed with its own reason; the temporary file goes too.
            _ = unlink(temporary)
            throw WriteFailure(reason: failure)
        }
    }
}
