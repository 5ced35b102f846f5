public import AuthFlowCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a software passkey lives: a file only its owner can read (mode 0600, owned by the user, never a symbolic
/// link), in a folder no one else can write. It is refused otherwise, with the command that fixes it. Every save
/// replaces it in one `rename(2)`, so the counter written after each use is never half written.
public struct PasskeyFile: Sendable, Equatable {
    /// The file's path.
    public let path: String

    /// The passkey file at `path`.
    public init(path: String) { self.path = path }

    /// The passkey the file holds.
    public func load() throws(PasskeyFileError) -> PasskeyCredential {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try PrivateFiles.checkDirectory(folder.isEmpty ? "." : folder)
            guard let bytes = try PrivateFiles.contents(of: path, limit: 1 << 20, remedy: .keepFile) else {
                throw PasskeyFileError.missing(path: path)
            }
            return try PasskeyCredential(fileContents: bytes)
        } catch let distrust as PrivateFiles.Distrust {
            throw .untrusted(path: path, reason: distrust.reason, fix: distrust.fix)
        } catch let error as PasskeyError {
            throw .unreadable(path: path, reason: error.description)
        } catch let error as PasskeyFileError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Records that `used` (the passkey with its counter raised for an assertion about to go) was used: under a lock
    /// beside the file, the file is read again and written only when it still holds that credential with a lower
    /// count, so two runs of one passkey never send one count twice; the folder is flushed after the rename.
    public func recordUse(_ used: PasskeyCredential) throws(PasskeyFileError) {
        let folder = (path as NSString).deletingLastPathComponent
        let lockPath = (folder.isEmpty ? "" : folder + "/") + "." + (path as NSString).lastPathComponent + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw .unwritable(
                path: path, reason: "its lock file cannot be opened (\(String(cString: strerror(errno))))")
        }
        // Closing releases the lock.
        defer { _ = close(lock) }
        guard flock(lock, LOCK_EX) == 0 else {
            throw .unwritable(path: path, reason: "its lock cannot be taken (\(String(cString: strerror(errno))))")
        }
        let current = try load()
        guard current.credentialID == used.credentialID else {
            throw .unwritable(path: path, reason: "it now holds another passkey")
        }
        guard current.signCount < used.signCount else {
            throw .unwritable(
                path: path,
                reason: "another run used this passkey at the same time (its count is \(current.signCount) now): "
                    + "sign in again")
        }
        try save(used)
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            // The rename is on disk before the assertion goes; a failed flush still leaves the new count in place.
            _ = fsync(directory)
            _ = close(directory)
        }
    }

    /// Writes `credential` as the file's new contents. A new passkey (`replacing` false) is never written over an
    /// existing file: that file may hold a passkey a relying party still knows.
    public func save(_ credential: PasskeyCredential, replacing: Bool = true) throws(PasskeyFileError) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try PrivateFiles.checkDirectory(folder.isEmpty ? "." : folder)
            if !replacing {
                var status = stat()
                guard lstat(path, &status) != 0 else { throw PasskeyFileError.exists(path: path) }
            } else {
                try PrivateFiles.checkFile(path, remedy: .keepFile)
            }
            try PrivateFiles.writeAtomically(credential.fileContents(), to: path)
        } catch let distrust as PrivateFiles.Distrust {
            throw .untrusted(path: path, reason: distrust.reason, fix: distrust.fix)
        } catch let failure as PrivateFiles.WriteFailure {
            throw .unwritable(path: path, reason: failure.reason)
        } catch let error as PasskeyFileError {
            throw error
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
    }
}

/// Why a passkey file could not be used, with what to do.
public enum PasskeyFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// A new passkey would replace an existing file.
    case exists(path: String)
    /// The file or its folder may not be trusted.
    case untrusted(path: String, reason: String, fix: String)
    /// The file is not a passkey.
    case unreadable(path: String, reason: String)
    /// The file could not be written.
    case unwritable(path: String, reason: String)

    /// What happened, and what to do.
    public var description: String {
        switch self {
        case .missing(let path):
            "there is no passkey file at \(path): make one with 'spconnect passkey register'"
        case .exists(let path):
            "\(path) already exists and may hold a registered passkey: give a new file name, or remove it first"
        case .untrusted(let path, let reason, let fix):
            "the passkey file \(path) is not trusted: \(reason); \(fix)"
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .unwritable(let path, let reason):
            "the passkey file \(path) could not be written (\(reason)); the passkey was not used"
        }
    }
}
