public import SharePoint

/// `mv` and `cp` as a library: SOURCE read (a file first, else a folder; the closest name when missing), DEST read as
/// a folder (SOURCE keeps its name there) or as the new path (its folder must exist), then one `MoveTo` / `CopyTo`.
/// It prints nothing.
public struct Relocation: Sendable {
    /// What is moved or copied.
    public let source: RemoteEntry
    /// The server-relative URL it goes to.
    public let target: String
    /// What is already at ``target``, if anything.
    public let existing: RemoteEntry?
    /// A copy (`cp`), else a move (`mv`).
    public let copying: Bool

    /// Reads what `sourceWord` names and where `destinationWord` puts it. Throws a ``RelocationRefusal`` for a
    /// library's or the site's root folder, the same path, or a folder into itself; a `SharePointError` when SOURCE
    /// or DEST's folder is not there.
    public static func plan(
        from sourceWord: String, to destinationWord: String, copying: Bool, site: SharePointSite
    ) async throws -> Relocation {
        let verb = copying ? "copy" : "move"
        let source = try await RemoteEntry.read(sourceWord, site: site)
        let sourceURL = source.serverRelativeUrl
        if case .folder = source { try await refuseRoot(sourceURL, site: site) }
        let target = try await destination(destinationWord, name: name(of: source), site: site)
        if target.lowercased() == sourceURL.lowercased() {
            throw RelocationRefusal(description: "SOURCE and DEST are the same (\(target))")
        }
        if case .folder = source, target.lowercased().hasPrefix(sourceURL.lowercased() + "/") {
            throw RelocationRefusal(description: "cannot \(verb) \(sourceURL) into itself (\(target))")
        }
        return Relocation(
            source: source, target: target, existing: try await entry(at: target, site: site), copying: copying)
    }

    /// Whether what is at ``target`` would be replaced: only a file by a file, and only with `overwrite`.
    public func replaces(overwrite: Bool) -> Bool {
        existing?.kind == "file" && source.kind == "file" && overwrite
    }

    /// Moves or copies ``source`` to ``target`` (a file replacing one there only with `overwrite`).
    public func carryOut(overwrite: Bool, site: SharePointSite) async throws(SharePointError) {
        let url = source.serverRelativeUrl
        switch (source, copying) {
        case (.file, false): try await site.moveFile(serverRelativeURL: url, to: target, overwrite: overwrite)
        case (.file, true): try await site.copyFile(serverRelativeURL: url, to: target, overwrite: overwrite)
        case (.folder, false): try await site.moveFolder(serverRelativeURL: url, to: target)
        case (.folder, true): try await site.copyFolder(serverRelativeURL: url, to: target)
        }
    }

    /// The name of a file or folder.
    private static func name(of entry: RemoteEntry) -> String {
        switch entry {
        case .file(let file): file.name
        case .folder(let folder): folder.name
        }
    }

    /// Refuses a library's root folder and the site's: moves and copies work inside libraries.
    private static func refuseRoot(_ url: String, site: SharePointSite) async throws {
        if SiteAddressing(siteURL: site.siteURL).isSiteRoot(url) {
            throw RelocationRefusal(description: "\(url) is the site's root folder; give the files and folders in it")
        }
        if try await site.isListRootFolder(url) {
            throw RelocationRefusal(
                description: "\(url) is the root folder of a library; give the files and folders inside it, never a "
                    + "whole library")
        }
    }

    /// The server-relative URL SOURCE goes to: `DEST/NAME` when DEST is a folder, DEST itself when the folder it
    /// names as its parent exists (a DEST ending in `/` must be a folder). Neither: the folder's "not found".
    private static func destination(_ word: String, name: String, site: SharePointSite) async throws -> String {
        try await site.withPath(named: word, container: false) { path in
            do {
                let folder = try await site.folder(serverRelativeURL: path)
                return folder.serverRelativeUrl + "/" + name
            } catch let missing as SharePointError where missing.isMissingPath {
                guard !word.hasSuffix("/") else { throw missing }
                do {
                    _ = try await site.folder(serverRelativeURL: folderPart(of: path))
                } catch var parentMissing as SharePointError where parentMissing.isMissingPath {
                    parentMissing.message = "No folder \(folderPart(of: path)) to put \(name) in."
                    throw parentMissing
                }
                return path
            }
        }
    }

    /// The file or folder at the server-relative `url`, or nil when nothing is there.
    private static func entry(at url: String, site: SharePointSite) async throws(SharePointError) -> RemoteEntry? {
        do {
            return .file(try await site.file(serverRelativeURL: url))
        } catch  where error.isMissingPath {
            do {
                return .folder(try await site.folder(serverRelativeURL: url))
            } catch  where error.isMissingPath {
                return nil
            }
        }
    }

    /// The folder part of a server-relative path (`/a/b.txt` → `/a`).
    private static func folderPart(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}

/// A move or copy that cannot be: a root folder, the same path, a folder into itself. The caller's to fix, as a bad
/// option is.
public struct RelocationRefusal: Error, CustomStringConvertible, Sendable {
    /// What is wrong, and what to give instead.
    public let description: String
}
