import Foundation
import Presentation
import SharePoint

/// `spconnect rm PATH... [--dry-run]`: files and folders to the site's recycle bin, one result per path.
let rmCommand = Command(
    name: "rm",
    summary: "Move files and folders to the site's recycle bin (restorable there): one result per path.",
    synopsis: "PATH... [--dry-run]   (PATH: a file or folder path or browser address; see docs/cli.md)",
    options: [
        .flag("dry-run", short: "n", "only say what would go to the recycle bin; nothing is changed")
    ] + SiteContext.options,
    examples: [
        "spconnect rm 'Shared Documents/old report.docx'",
        "spconnect rm --dry-run Documents/Archive Documents/draft.txt",
        "spconnect rm Documents/2019 Documents/2020 -o ndjson",
    ]
) { arguments in
    try await withSiteErrors("rm") {
        guard !arguments.positionals.isEmpty else {
            throw UsageError(description: "expected at least one PATH (a file or folder)")
        }
        var words: [String] = []
        for word in arguments.positionals where !words.contains(word) { words.append(word) }
        let dryRun = arguments.has("dry-run")
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        var outcomes: [RemovalOutcome] = []
        for word in words {
            let outcome = await remove(word, dryRun: dryRun, site: site)
            outcomes.append(outcome)
            if case .failed(let error) = outcome.result, !error.isAboutOnePath {
                // The session, the network, throttling: the paths after it are not tried.
                for rest in words[outcomes.count...] { outcomes.append(RemovalOutcome(word: rest, result: .notTried)) }
                break
            }
        }
        var firstFailure: ExitCode?
        for outcome in outcomes {
            switch outcome.result {
            case .failed(let error):
                printError("spconnect rm: \(outcome.word): \(error.description)")
                firstFailure = firstFailure ?? exitCode(for: error)
            case .refused(let reason):
                printError("spconnect rm: \(outcome.word): \(reason)")
                firstFailure = firstFailure ?? .usage
            case .recycled, .wouldRecycle, .notTried: break
            }
        }
        output.render(RecordSet(columns: RemovalOutcome.columns, records: outcomes.map(\.record)))
        let done = outcomes.filter(\.succeeded).count
        let verb = dryRun ? "Would move" : "Moved"
        output.note("\(verb) \(done) of \(outcomes.count) to the recycle bin.")
        return firstFailure ?? .ok
    }
}

/// What became of one PATH given to `rm`.
private struct RemovalOutcome {
    enum Result {
        case recycled(RemoteEntry, recycleBinId: String?)
        case wouldRecycle(RemoteEntry)
        /// Left alone on purpose (a library's root folder).
        case refused(String)
        case failed(SharePointError)
        /// Left alone after a failure that stopped the run.
        case notTried
    }

    var word: String
    var result: Result

    static let columns = [
        Column("path", title: "Path"), Column("type", title: "Type"),
        Column("serverRelativeUrl", title: "Server-relative URL"), Column("result", title: "Result"),
        Column("recycleBinId", title: "Recycle bin id"),
    ]

    var succeeded: Bool {
        switch result {
        case .recycled, .wouldRecycle: true
        default: false
        }
    }

    var record: Record {
        var entry: RemoteEntry?
        var text: String
        var binId: String?
        switch result {
        case .recycled(let recycled, let id):
            (entry, text, binId) = (recycled, "recycled", id)
        case .wouldRecycle(let found):
            (entry, text) = (found, "would recycle")
        case .refused:
            text = "refused (library)"
        case .failed(let error):
            text = error.isMissingPath ? "not found" : "failed (\(failureWord(error)))"
        case .notTried:
            text = "not tried"
        }
        return Record([
            Presentation.Field("path", .string(word)),
            Presentation.Field("type", entry.map { .string($0.kind) } ?? .null),
            Presentation.Field("serverRelativeUrl", entry.map { .string($0.serverRelativeUrl) } ?? .null),
            Presentation.Field("result", .string(text)),
            Presentation.Field("recycleBinId", binId.map(Cell.string) ?? .null),
        ])
    }
}

extension SharePointError {
    /// Whether the failure concerns the one path (missing, no permission, locked), so that the other paths are
    /// still worth trying.
    fileprivate var isAboutOnePath: Bool {
        switch kind {
        case .fileNotFound, .notFound, .accessDenied, .conflict, .alreadyExists, .preconditionFailed, .badRequest:
            return true
        default:
            return false
        }
    }
}

/// Reads what `word` names, refuses a library's (or the site's) root folder, then recycles it unless `dryRun`.
private func remove(_ word: String, dryRun: Bool, site: SharePointSite) async -> RemovalOutcome {
    do {
        let entry = try await RemoteEntry.read(word, site: site)
        if case .folder(let folder) = entry, let list = try await rootFolderOwner(folder, site: site) {
            return RemovalOutcome(
                word: word,
                result: .refused(
                    "\(folder.serverRelativeUrl) is the root folder of '\(list)'; rm moves files and folders, never "
                        + "a whole library or the site. Give the folders or files inside it instead."))
        }
        if dryRun { return RemovalOutcome(word: word, result: .wouldRecycle(entry)) }
        let id: UUID?
        switch entry {
        case .file(let file): id = try await site.recycleFile(serverRelativeURL: file.serverRelativeUrl)
        case .folder(let folder): id = try await site.recycleFolder(serverRelativeURL: folder.serverRelativeUrl)
        }
        return RemovalOutcome(word: word, result: .recycled(entry, recycleBinId: id?.uuidString.lowercased()))
    } catch let error as SharePointError {
        return RemovalOutcome(word: word, result: .failed(error))
    } catch {
        return RemovalOutcome(
            word: word, result: .failed(SharePointError(unexpectedResponse: "\(error)")))
    }
}

/// The title of the list whose root folder `folder` is (or the site's name for the site's own root), else nil.
private func rootFolderOwner(_ folder: Folder, site: SharePointSite) async throws(SharePointError) -> String? {
    let siteRoot = SiteAddressing(siteURL: site.siteURL).basePath
    if folder.serverRelativeUrl == siteRoot || folder.serverRelativeUrl == siteRoot + "/"
        || folder.serverRelativeUrl == "/"
    {
        return "the site"
    }
    let list: ListInfo
    do {
        list = try await site.list(.serverRelativeURL(folder.serverRelativeUrl))
    } catch {
        if error.isMissingPath || error.kind == .listNotFound { return nil }
        throw error
    }
    return list.title
}
