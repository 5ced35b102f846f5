public import Foundation
public import SharePoint

/// The file of `--since-token FILE` (`changes`, `items --since-token`): one SharePoint change token
/// (`1;3;<list-guid>;<ticks>;<number>`) and a newline. A missing file means "no token yet"; the file is replaced
/// (temporary file beside it, synced, renamed; mode 0600) only once a run has succeeded, so a failed run leaves the
/// last good token and the next run fetches the same changes again.
public struct ChangeTokenFile: Sendable {
    /// The file's path.
    public let path: String
    /// The option that named the file, for messages (`since-token`, `incremental`: `--since-token FILE …`).
    public var option = "since-token"

    /// The file at `path`, named in messages as the value of `--option`.
    public init(path: String, option: String = "since-token") {
        self.path = path
        self.option = option
    }

    /// The token in the file, or nil when there is no file. An unreadable file, or one that holds no change token,
    /// is a usage error (the file is not overwritten).
    public func read() throws(ChangeTokenFileError) -> String? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ChangeTokenFileError(description: "--\(option) \(path): the folder \(folder) does not exist")
        }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ChangeTokenFileError(description: "--\(option) \(path): cannot read the file")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.isChangeToken(text) else {
            throw ChangeTokenFileError(
                description: "--\(option) \(path) holds no change token (expected 1;3;GUID;TICKS;NUMBER); "
                    + "remove it for a full run")
        }
        return text
    }

    /// Whether `text` looks like a change token: five `;`-separated parts, the last a number.
    public static func isChangeToken(_ text: String) -> Bool {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        return parts.count == 5 && Int(parts[4]) != nil && UUID(uuidString: String(parts[2])) != nil
    }

    /// The object (list or web) id a token is for (its third part), lower-cased.
    public static func scopeID(of token: String) -> String? {
        let parts = token.split(separator: ";", omittingEmptySubsequences: false)
        return parts.count == 5 ? parts[2].lowercased() : nil
    }

    /// Checks that `token` (read from this file) is one of the list or web with id `id`: a token of another list
    /// would silently miss every change of this one.
    public func check(_ token: String, isFor id: String, what: String) throws(ChangeTokenFileError) {
        guard let scope = Self.scopeID(of: token), scope != id.lowercased() else { return }
        throw ChangeTokenFileError(
            description: "--\(option) \(path) holds a token of another list or web (\(scope)), not of \(what) "
                + "(\(id.lowercased())); give each list its own token file")
    }

    /// Replaces the file with `token`: a temporary file (0600) beside it, synced, then renamed over it.
    public func write(_ token: String) throws(SharePointError) {
        // A server's answer is kept only when it is a change token: anything else would fail every later run.
        guard Self.isChangeToken(token) else {
            throw SharePointError(
                unexpectedResponse:
                    "the server gave '\(token.prefix(80))' as a change token; \(path) was left as it was")
        }
        let url = URL(fileURLWithPath: path)
        let temporary =
            url.deletingLastPathComponent().path + "/.\(url.lastPathComponent).spconnect-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SharePointError(
                localFile: "cannot write the change token beside \(path)", detail: String(cString: strerror(errno)))
        }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let synced = written == bytes.count && fsync(descriptor) == 0
        let detail = String(cString: strerror(errno))
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let failure = synced ? String(cString: strerror(errno)) : detail
            unlink(temporary)
            throw SharePointError(localFile: "cannot write the change token to \(path)", detail: failure)
        }
    }
}

/// Every change of `list` (nil: the web) after `start` with the token to keep (``SharePointSite/allChanges(in:since:fetchLimit:)``),
/// or nil when SharePoint refuses `start` as older than its change log keeps, or more changed since than a run reads
/// (``SharePointSite/changeLimit``): read everything then.
public func changesUnlessTooOld(_ site: SharePointSite, _ list: ListPath?, since start: String?, fetchLimit: Int = 1000)
    async throws(SharePointError) -> (changes: [Change], token: String?)?
{
    do {
        return try await site.allChanges(in: list, since: start, fetchLimit: fetchLimit)
    } catch {
        if error.isChangeTokenTooOld || error.isChangeLogOverrun { return nil }
        throw error
    }
}

/// A change token file that cannot be used: missing folder, unreadable, no token in it, or a token of another list.
/// Nothing was overwritten.
public struct ChangeTokenFileError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the option and the file.
    public let description: String
}
