import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file written beside its target and put in the target's place in one `rename(2)` only when ``commit()`` is
/// called: a failed export leaves yesterday's file as it was, where a plain write would have emptied it first.
///
/// The temporary file (`.NAME.spconnect-RANDOM` in the target's folder, so the rename never crosses file systems) is
/// made with the user's umask, `O_EXCL` and `O_NOFOLLOW`, and takes the target's permission bits when the target is
/// a regular file. The caller writes through ``descriptor``; ``commit()`` or ``discard()`` closes it, once.
public struct ReplacementFile: Sendable {
    /// The file to replace.
    public let target: String
    /// The temporary file's path.
    public let temporary: String
    /// Where to write the new content.
    public let descriptor: Int32

    /// Makes the temporary file beside `target`, with `mode` when given (`0o600` for a secret; set before anything
    /// is written). Throws when the target's folder is missing, the target is a folder, or nothing can be created
    /// there.
    public static func make(beside target: String, mode: UInt32? = nil) throws(ReplacementFileError)
        -> ReplacementFile
    {
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ReplacementFileError(description: "the folder \(folder) does not exist")
        }
        if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue {
            throw ReplacementFileError(description: "it is a folder; give a file name")
        }
        var existing = stat()
        let existingMode: mode_t? =
            lstat(target, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG ? existing.st_mode & 0o7777 : nil
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let temporary = "\(folder)/.\(url.lastPathComponent).spconnect-\(suffix)"
            let descriptor = open(
                temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode.map { mode_t($0) } ?? 0o666)
            if descriptor >= 0 {
                if let wanted = mode.map({ mode_t($0) }) ?? existingMode { fchmod(descriptor, wanted) }
                return ReplacementFile(target: target, temporary: temporary, descriptor: descriptor)
            }
            guard errno == EEXIST else {
                throw ReplacementFileError(
                    description: "cannot write in \(folder): \(String(cString: strerror(errno)))")
            }
        }
        throw ReplacementFileError(description: "cannot make a temporary file in \(folder)")
    }

    /// Writes all of `bytes` to the temporary file.
    public func write(_ bytes: [UInt8]) throws(ReplacementFileError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw ReplacementFileError(description: "could not write it: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    /// Syncs the temporary file to disk and renames it over the target. On failure the temporary file is removed
    /// and the target left as it was.
    public func commit() throws(ReplacementFileError) {
        if fsync(descriptor) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw ReplacementFileError(description: "could not write it: \(reason)")
        }
        close(descriptor)
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ReplacementFileError(description: "could not replace it: \(reason)")
        }
    }

    /// Closes and removes the temporary file; the target stays as it was.
    public func discard() {
        close(descriptor)
        unlink(temporary)
    }
}

/// Why a ``ReplacementFile`` could not be made or put in place, in words that follow the target's name.
public struct ReplacementFileError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, to follow the target's name (`--out FILE: …`).
    public let description: String
}
