import CommandLineKit
import FileOperations
import Presentation
import SharePoint

/// What `mv` and `cp` share: SOURCE read (a file first, else a folder; the closest name when missing), DEST read as
/// a folder (SOURCE keeps its name there) or as the new path (its folder must exist), then one `MoveTo` / `CopyTo`.
enum MoveCopy {
    static let options: [OptionSpec] =
        [
            .flag(.overwrite, "replace a file already at DEST (otherwise it is refused, exit 9; never a folder)"),
            .flag(.dryRun, short: "n", "only say what would be done; nothing is changed"),
        ] + SiteContext.options

    static func examples(_ name: String) -> [String] {
        [
            "spconnect \(name) 'Shared Documents/report.docx' Documents/Archive",
            "spconnect \(name) Documents/draft.txt Documents/final.txt --overwrite",
            "spconnect \(name) Documents/2025 Documents/Archive/2025",
            "spconnect \(name) --dry-run Documents/a.txt Documents/Reports/",
        ]
    }

    static let columns = [
        Column("type", title: "Type"), Column("source", title: "Source"),
        Column("destination", title: "Destination"), Column("result", title: "Result"),
    ]

    static func run(_ arguments: ParsedArguments, copying: Bool) async throws -> ExitCode {
        let command = copying ? "cp" : "mv"
        return try await withSiteErrors(command) {
            let words = try positionals(arguments, "SOURCE", "DEST")
            let overwrite = arguments.has(.overwrite)
            let output = try Output(arguments)
            let site = try SiteContext.open(arguments).site
            let source = try await RemoteEntry.read(words[0], site: site)
            let sourceURL = source.serverRelativeUrl
            if case .folder = source {
                try await refuseRoot(sourceURL, command: command, site: site)
            }
            let target = try await destination(words[1], name: name(of: source), site: site)
            if target.lowercased() == sourceURL.lowercased() {
                throw UsageError(description: "SOURCE and DEST are the same (\(target))")
            }
            if case .folder = source, target.lowercased().hasPrefix(sourceURL.lowercased() + "/") {
                throw UsageError(
                    description: "cannot \(copying ? "copy" : "move") \(sourceURL) into itself (\(target))")
            }
            let existing = try await entry(at: target, site: site)
            if let existing, !(overwrite && existing.kind == "file" && source.kind == "file") {
                let advice =
                    existing.kind == "file" && source.kind == "file"
                    ? "; add --overwrite to replace it" : " (a folder is never replaced, nor a file by a folder)"
                printError(
                    "spconnect \(command): A \(existing.kind) already exists at \(target)\(advice). Nothing was changed."
                )
                output.render(RecordSet(columns: columns, records: [record(source, target, "refused (exists)")]))
                return .conflict
            }
            let verb = copying ? "copy" : "move"
            let suffix = existing == nil ? "" : ", replacing"
            if arguments.has(.dryRun) {
                output.render(RecordSet(columns: columns, records: [record(source, target, "would \(verb)\(suffix)")]))
                output.note("Dry run: nothing was changed.")
                return .ok
            }
            do {
                switch (source, copying) {
                case (.file, false):
                    try await site.moveFile(serverRelativeURL: sourceURL, to: target, overwrite: overwrite)
                case (.file, true):
                    try await site.copyFile(serverRelativeURL: sourceURL, to: target, overwrite: overwrite)
                case (.folder, false): try await site.moveFolder(serverRelativeURL: sourceURL, to: target)
                case (.folder, true): try await site.copyFolder(serverRelativeURL: sourceURL, to: target)
                }
            } catch let error as SharePointError where error.kind == .alreadyExists {
                // Made there since it was checked.
                printError("spconnect \(command): Something already exists at \(target)." + error.details)
                return .conflict
            }
            let done = copying ? "copied" : "moved"
            output.render(RecordSet(columns: columns, records: [record(source, target, done + suffix)]))
            return .ok
        }
    }

    /// The name of a file or folder.
    private static func name(of entry: RemoteEntry) -> String {
        switch entry {
        case .file(let file): file.name
        case .folder(let folder): folder.name
        }
    }

    /// Refuses a library's root folder and the site's: mv and cp work inside libraries.
    private static func refuseRoot(_ url: String, command: String, site: SharePointSite) async throws {
        let siteRoot = SiteAddressing(siteURL: site.siteURL).basePath
        if url == "/" || url == siteRoot || url == siteRoot + "/" {
            throw UsageError(description: "\(url) is the site's root folder; \(command) works on files and folders")
        }
        if try await isListRootFolder(url, site: site) {
            throw UsageError(
                description: "\(url) is the root folder of a library; \(command) moves and copies the files and "
                    + "folders inside it, never a whole library")
        }
    }

    /// The server-relative URL SOURCE goes to: `DEST/NAME` when DEST is a folder, DEST itself when the folder it
    /// names as its parent exists (a DEST ending in `/` must be a folder). Neither: the folder's "not found" (exit 8).
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

    private static func record(_ source: RemoteEntry, _ target: String, _ result: String) -> Record {
        Record([
            Field("type", .string(source.kind)), Field("source", .string(source.serverRelativeUrl)),
            Field("destination", .string(target)), Field("result", .string(result)),
        ])
    }
}
