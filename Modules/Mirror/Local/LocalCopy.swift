import Cryptography
import Foundation
import LocalFiles
import SharePoint

/// How a local file at the place of a tree file stands against the download ledger: what `download -r` may do to
/// it without `--overwrite`.
enum LocalCopy {
    /// Its content is what spconnect wrote (a changed modification time alone does not count): it may be replaced,
    /// or deleted when the server no longer has it.
    case written
    /// spconnect wrote it, and its content changed since: kept unless `--overwrite`.
    case modified
    /// The ledger does not list it (the user's, or there before spconnect): kept unless `--overwrite`.
    case foreign

    /// Judges the regular file `name` in `folder`, whose size and time are `local`, by the ledger's entry `written`:
    /// the size and the SHA-256 of its content must be the recorded ones; for an entry without a hash (a ledger of
    /// an earlier spconnect) the size and the modification time. A file with the size and SharePoint's time of the
    /// version a killed run was writing (`pending`) is that version, written by spconnect.
    static func judge(
        _ name: String, in folder: LocalFolder, local: LocalEntry, written: DownloadLedger.Entry?,
        pending: DownloadLedger.Entry? = nil
    ) async -> LocalCopy {
        if let pending, local.size == pending.size, local.modified == pending.modified { return .written }
        guard let written else { return .foreign }
        guard local.size == written.size else { return .modified }
        guard let sha256 = written.sha256 else { return local.modified == written.modified ? .written : .modified }
        return await contentHash(of: name, in: folder) == sha256 ? .written : .modified
    }
}

/// The SHA-256 of the regular file `name` in `folder` (read from the folder's descriptor, never through a link), as
/// 64 lowercase hex digits; nil when it cannot be read whole. Read on a thread of its own, not on the cooperative
/// pool: a large file takes a while.
func contentHash(of name: String, in folder: LocalFolder) async -> String? {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            let digest = MessageDigest.Stream(.sha256)
            let complete = folder.readChunks(of: name) { digest.update($0) }
            let bytes = complete ? digest.finish() : []
            continuation.resume(returning: bytes.count == 32 ? bytes.map { String(format: "%02x", $0) }.joined() : nil)
        }
    }
}
