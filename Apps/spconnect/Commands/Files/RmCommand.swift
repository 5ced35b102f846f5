import CommandLineKit
import Foundation
import Presentation
import SharePoint

/// `spconnect rm PATH... [--dry-run]`: files and folders to the site's recycle bin, one result per path.
let rmCommand = Command(
    name: "rm",
    summary: "Move files and folders to the site's recycle bin (restorable there): one result per path.",
    synopsis: "PATH... [--dry-run]   (PATH: a file or folder path or browser address; see docs/cli.md)",
    options: [
        .flag(.dryRun, short: "n", "only say what would go to the recycle bin; nothing is changed")
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
        let dryRun = arguments.has(.dryRun)
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let outcomes = await removeAll(words, dryRun: dryRun, site: site)
        var firstFailure: ExitCode?
        for outcome in outcomes {
            switch outcome.result {
            case .failed(let error):
                printError("spconnect rm: \(outcome.word): \(error.description)")
                firstFailure = firstFailure ?? exitCode(for: error)
            case .refused(let reason, _):
                printError("spconnect rm: \(outcome.word): \(reason)")
                firstFailure = firstFailure ?? .usage
            case .recycled, .wouldRecycle, .covered, .notTried: break
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
        /// The same file or folder as an earlier PATH, or inside an earlier folder: it goes (or went) with that one.
        case covered(RemoteEntry, by: String, dryRun: Bool)
        /// Left alone on purpose: a library's root folder (`library`), an address elsewhere (`usage`).
        case refused(String, label: String)
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
        case .recycled, .wouldRecycle, .covered: true
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
        case .covered(let found, let word, let dryRun):
            (entry, text) = (found, (dryRun ? "would recycle" : "recycled") + " (with \(word))")
        case .refused(_, let label):
            text = "refused (\(label))"
        case .failed(let error):
            text = error.isMissingPath ? "not found" : "failed (\(error.briefReason))"
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

/// Every PATH's outcome, in order. First each is read (a library's or the site's root folder is refused), so that a
/// path given twice, or inside a folder given before it, is `covered` by that one rather than "not found" once it
/// went; then, unless `dryRun`, each of the others is recycled. A failure that is not about one path (the session,
/// the network, throttling after the retries) stops the run in either step: what was not done is `not tried`.
private func removeAll(_ words: [String], dryRun: Bool, site: SharePointSite) async -> [RemovalOutcome] {
    var outcomes: [RemovalOutcome] = []
    for word in words {
        var outcome = await plan(word, site: site)
        if case .wouldRecycle(let entry) = outcome.result, let earlier = coveringWord(entry, in: outcomes) {
            outcome.result = .covered(entry, by: earlier, dryRun: dryRun)
        }
        outcomes.append(outcome)
        if case .failed(let error) = outcome.result, !error.isAboutOnePath {
            for rest in words[outcomes.count...] { outcomes.append(RemovalOutcome(word: rest, result: .notTried)) }
            return outcomes
        }
    }
    guard !dryRun else { return outcomes }
    var stopped = false
    for index in outcomes.indices {
        switch outcomes[index].result {
        case .wouldRecycle(let entry):
            if stopped {
                outcomes[index].result = .notTried
                continue
            }
            do {
                let id: UUID?
                switch entry {
                case .file(let file): id = try await site.recycleFile(serverRelativeURL: file.serverRelativeUrl)
                case .folder(let folder): id = try await site.recycleFolder(serverRelativeURL: folder.serverRelativeUrl)
                }
                outcomes[index].result = .recycled(entry, recycleBinId: id?.uuidString.lowercased())
            } catch {
                outcomes[index].result = .failed(error)
                stopped = !error.isAboutOnePath
            }
        case .covered(_, let word, _):
            // Gone with the earlier path only if that one went.
            let went = outcomes[..<index].contains {
                if $0.word == word, case .recycled = $0.result { return true }
                return false
            }
            if !went { outcomes[index].result = .notTried }
        default:
            break
        }
    }
    return outcomes
}

/// The word of an earlier outcome that takes `entry` with it: the same file or folder, or a folder it lies in.
private func coveringWord(_ entry: RemoteEntry, in earlier: [RemovalOutcome]) -> String? {
    let url = entry.serverRelativeUrl.lowercased()
    for outcome in earlier {
        guard case .wouldRecycle(let other) = outcome.result else { continue }
        let base = other.serverRelativeUrl.lowercased()
        if url == base { return outcome.word }
        if case .folder = other, url.hasPrefix(base.hasSuffix("/") ? base : base + "/") { return outcome.word }
    }
    return nil
}

/// Reads what `word` names and refuses a library's (or the site's) root folder: `wouldRecycle`, `refused` or
/// `failed`.
private func plan(_ word: String, site: SharePointSite) async -> RemovalOutcome {
    do {
        let entry = try await RemoteEntry.read(word, site: site)
        if case .folder(let folder) = entry, let list = try await rootFolderOwner(folder, site: site) {
            return RemovalOutcome(
                word: word,
                result: .refused(
                    "\(folder.serverRelativeUrl) is the root folder of '\(list)'; rm moves files and folders, never "
                        + "a whole library or the site. Give the folders or files inside it instead.", label: "library")
            )
        }
        return RemovalOutcome(word: word, result: .wouldRecycle(entry))
    } catch let error as SharePointError {
        return RemovalOutcome(word: word, result: .failed(error))
    } catch let error as SiteAddressError {
        return RemovalOutcome(word: word, result: .refused(error.description, label: "usage"))
    } catch let error as UsageError {
        return RemovalOutcome(word: word, result: .refused(error.description, label: "usage"))
    } catch {
        return RemovalOutcome(word: word, result: .failed(SharePointError(unexpectedResponse: "\(error)")))
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
