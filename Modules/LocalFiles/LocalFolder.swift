package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A local folder held open, so that what is below it is reached by name from its descriptor (`openat`,
/// `mkdirat`, `fstatat`, `renameat`, `unlinkat`), one path component at a time, never through a symbolic link:
/// a link planted inside the folder cannot lead a download out of it. Closed when the last reference goes;
/// immutable, so it can be shared between tasks.
public final class LocalFolder: Sendable {
    /// The folder's path, for messages (never used to reach it again).
    public let path: String
    /// The open descriptor (`O_RDONLY | O_DIRECTORY`).
    let descriptor: Int32

    /// Opens the folder at `path`. A link in `path` itself is followed: that path is the caller's choice.
    public init(path: String) throws(LocalFileError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw LocalFileError(path: path, action: "open the folder", code: errno) }
        self.path = path
        descriptor = fd
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The path of `name` in this folder, for messages.
    public func path(of name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    /// The folder `name` in this one, made first (mode 0777 less the umask) when `create` and nothing is there.
    /// A symbolic link at `name` is refused (``LocalFileError/isSymbolicLink``), as is anything else that is not
    /// a folder.
    public func folder(_ name: String, create: Bool) throws(LocalFileError) -> LocalFolder {
        try check(name)
        if create, mkdirat(descriptor, name, 0o777) != 0, errno != EEXIST {
            throw LocalFileError(path: path(of: name), action: "make the folder", code: errno)
        }
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            // `O_NOFOLLOW` with `O_DIRECTORY` reports a link as "not a directory": tell it apart.
            let code = errno
            let link = (try? entry(name))?.kind == .symbolicLink
            throw LocalFileError(path: path(of: name), action: "open the folder", code: link ? ELOOP : code)
        }
        return LocalFolder(path: path(of: name), descriptor: fd)
    }

    /// The folder `components` below this one (empty: this one), each component opened from the one before it as
    /// ``folder(_:create:)`` does; only the last one stays open.
    public func folder(at components: [String], create: Bool) throws(LocalFileError) -> LocalFolder {
        var folder = self
        for name in components { folder = try folder.folder(name, create: create) }
        return folder
    }

    /// What is at `name` in this folder (a symbolic link is not followed); nil when nothing is.
    public func entry(_ name: String) throws(LocalFileError) -> LocalEntry? {
        try check(name)
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw LocalFileError(path: path(of: name), action: "look at", code: errno)
        }
        return LocalEntry(info)
    }

    /// The names in this folder (without `.` and `..`), in no order; empty when it cannot be read.
    public func names() -> [String] {
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        guard let stream = fdopendir(fd) else {
            close(fd)
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the file (or the link itself) `name` from this folder, never a folder; false when it could not.
    @discardableResult
    public func removeFile(_ name: String) -> Bool { unlinkat(descriptor, name, 0) == 0 }

    /// Removes the empty folder `name` from this folder (never a link, never a folder with anything in it); false
    /// when it could not.
    @discardableResult
    public func removeEmptyFolder(_ name: String) -> Bool { unlinkat(descriptor, name, AT_REMOVEDIR) == 0 }

    /// Hands the bytes of the regular file `name` (never through a symbolic link; a FIFO or device is refused, never
    /// waited on) to `body`, chunk by chunk and in order, and says whether the whole file was read.
    public func readChunks(of name: String, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard (try? check(name)) != nil else { return false }
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return false }
            if count == 0 { return true }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// The bytes of the regular file `name` (not through a symbolic link), up to `limit`; nil when it is not there
    /// or cannot be read.
    public func contents(of name: String, limit: Int) -> [UInt8]? {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return Array(bytes.prefix(limit))
    }

    /// Replaces the file `name` with `bytes` atomically: written to a new temporary file (`.NAME.UUID.part`, mode
    /// 0600) in this folder, then renamed over `name` (a link at `name` is replaced, never followed).
    public func write(_ bytes: [UInt8], to name: String) throws(LocalFileError) {
        let temporary = LocalFolder.temporaryName(for: name, suffix: ".part")
        let fd = try createFile(temporary)
        var complete = false
        defer {
            if !complete { removeFile(temporary) }
        }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(fd)
                throw LocalFileError(path: path(of: temporary), action: "write", code: code)
            }
            written += count
        }
        guard close(fd) == 0 else { throw LocalFileError(path: path(of: temporary), action: "write", code: errno) }
        try rename(temporary, to: name)
        complete = true
    }

    /// Creates the new file `name` in this folder for reading and writing, `mode` less the umask (0600 unless
    /// said), and returns its descriptor (the caller closes it). Anything already at `name`, a symbolic link
    /// included, makes it fail (`O_EXCL`).
    package func createFile(_ name: String, mode: mode_t = 0o600) throws(LocalFileError) -> Int32 {
        try check(name)
        let fd = openat(descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw LocalFileError(path: path(of: name), action: "create", code: errno) }
        return fd
    }

    /// Renames `name` to `newName`, both in this folder (whatever is at `newName` is replaced; a link there is
    /// replaced itself, never followed).
    package func rename(_ name: String, to newName: String) throws(LocalFileError) {
        try check(newName)
        guard renameat(descriptor, name, descriptor, newName) == 0 else {
            throw LocalFileError(path: path(of: newName), action: "move a finished file into place at", code: errno)
        }
    }

    /// Links `name` as `newName` too, both in this folder, only when nothing is at `newName` (`EEXIST` otherwise,
    /// a link there included): the check and the link are one step. The caller removes `name` afterwards.
    package func link(_ name: String, to newName: String) throws(LocalFileError) {
        try check(newName)
        guard linkat(descriptor, name, descriptor, newName, 0) == 0 else {
            throw LocalFileError(path: path(of: newName), action: "move a finished file into place at", code: errno)
        }
    }

    /// A fresh temporary name for `name` in the same folder, `.NAME.UUID` + `suffix`, short enough to be a file
    /// name (`NAME` is cut to fit the 255-byte limit, so a long name still gets one).
    package static func temporaryName(for name: String, suffix: String) -> String {
        let fixed = 2 + 36 + suffix.utf8.count
        var kept = ""
        for scalar in name.unicodeScalars {
            guard kept.utf8.count + scalar.utf8.count + fixed <= 255 else { break }
            kept.unicodeScalars.append(scalar)
        }
        return "." + kept + "." + UUID().uuidString + suffix
    }

    /// A single file name: not empty, `.` or `..`, no `/` or NUL.
    private func check(_ name: String) throws(LocalFileError) {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw LocalFileError(path: path(of: name), action: "use", code: EINVAL)
        }
    }
}

/// What is at a name in a ``LocalFolder``: its type, size and whole-second modification time. A plain value.
public struct LocalEntry: Sendable, Equatable {
    /// The types told apart.
    public enum Kind: Sendable, Equatable {
        case file, folder, symbolicLink, other
    }

    /// The entry's type (a symbolic link is never followed).
    public var kind: Kind
    /// Bytes.
    public var size: Int64
    /// Modification time, whole seconds since 1970.
    public var modified: Int

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int64(info.st_size)
        modified = Int(info.st_mtim.tv_sec)
    }
}

/// A local file operation that failed: what was being done, to which path, and the system's reason (`errno`).
/// A plain value.
public struct LocalFileError: Error, Sendable, CustomStringConvertible {
    /// The path concerned.
    public let path: String
    /// What was being done (`open the folder`, `create`, …).
    public let action: String
    /// The `errno` value.
    public let code: Int32

    /// Creates an error.
    public init(path: String, action: String, code: Int32) {
        self.path = path
        self.action = action
        self.code = code
    }

    /// The operation met a symbolic link it does not follow (`ELOOP` from `O_NOFOLLOW`).
    public var isSymbolicLink: Bool { code == ELOOP }

    /// The system's reason (`File name too long`).
    public var reason: String {
        isSymbolicLink ? "it is a symbolic link, which is not followed" : String(cString: strerror(code))
    }

    /// `could not ACTION PATH: REASON`.
    public var description: String { "could not \(action) \(path): \(reason)" }
}
