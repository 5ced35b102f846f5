package import Foundation

/// The format of the file `download -r` keeps in a download folder (`.spconnect-download.json`): for each file, by
/// its path below the folder, the size and whole-second modification time it had when spconnect wrote it, and the
/// SHA-256 of its content and the SharePoint file's unique id (each left out by spconnect before 2026-12; such a file
/// still reads, its entries without them).
///
/// Only the format lives here (package API, for the fuzz target too); when to read, write and trust the file is
/// ``DownloadLedger``'s.
package enum DownloadLedgerFile {
    /// Size, whole-second modification time and content hash of a file as written.
    package struct Entry: Codable, Equatable, Sendable {
        /// The size in bytes.
        package var size: Int64
        /// The modification time, whole seconds since 1970.
        package var modified: Int
        /// The SHA-256 of the content, 64 lowercase hex digits; nil in an entry written without it (the key is then
        /// left out of the file).
        package var sha256: String?
        /// The SharePoint file's `UniqueId`, which a rename or move keeps: an incremental run tells by it that a file
        /// it wrote now lives at another path. Nil in entries written without it.
        package var uniqueId: String?
        /// The SharePoint file's `ETag` when it was written, which every new version changes: an edit that kept the
        /// size and the second of the modification time is still told apart. Nil in entries written without it.
        package var etag: String?
        /// In the upload ledger: the local file's size and whole-second time when it was sent. SharePoint may keep
        /// another size (it rewrites Office documents on upload), so this is how a later run knows that the local
        /// file is still the one that became SharePoint's version. Nil in the download ledger and in entries
        /// written without it.
        package var sentSize: Int64?
        package var sentModified: Int?

        /// An entry.
        package init(
            size: Int64, modified: Int, sha256: String? = nil, uniqueId: String? = nil, etag: String? = nil,
            sentSize: Int64? = nil, sentModified: Int? = nil
        ) {
            self.size = size
            self.modified = modified
            self.sha256 = sha256
            self.uniqueId = uniqueId
            self.etag = etag
            self.sentSize = sentSize
            self.sentModified = sentModified
        }
    }

    private struct Contents: Codable {
        var version = 1
        var files: [String: Entry] = [:]
        /// Versions being fetched when the file was saved (left out when none).
        var pending: [String: Entry]?
    }

    /// The entries of a ledger file; nil when `data` is not one (not JSON, a missing `files` object, a size or time
    /// that is not a whole number in range, a `sha256` that is not a string).
    package static func parse(_ data: Data) -> [String: Entry]? {
        parseWithPending(data)?.files
    }

    /// The entries of a ledger file and the versions being fetched when it was saved (``DownloadLedger``'s
    /// write-ahead: SharePoint's size, time and ETag of each file about to be written).
    package static func parseWithPending(_ data: Data) -> (files: [String: Entry], pending: [String: Entry])? {
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data) else { return nil }
        return (contents.files, contents.pending ?? [:])
    }

    /// The file's bytes for `entries`: `{"files":{"a.txt":{"modified":…,"sha256":"…","size":…}},"version":1}`,
    /// keys sorted; with `pending` entries, a `pending` object beside `files`.
    package static func render(_ entries: [String: Entry], pending: [String: Entry] = [:]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Contents(files: entries, pending: pending.isEmpty ? nil : pending))
    }
}
