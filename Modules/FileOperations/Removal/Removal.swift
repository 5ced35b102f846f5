import Foundation
public import SharePoint

/// What became of one PATH given to ``Removal/run(_:dryRun:site:)``.
public struct RemovalOutcome: Sendable {
    /// What happened to the path.
    public enum Result: Sendable {
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

    /// The PATH as given.
    public var word: String
    /// What became of it.
    public var result: Result

    /// Recycled, or would be (a dry run), or goes with an earlier path.
    public var succeeded: Bool {
        switch result {
        case .recycled, .wouldRecycle, .covered: true
        default: false
        }
    }

    /// The file or folder the path named, when it was read.
    public var entry: RemoteEntry? {
        switch result {
        case .recycled(let entry, _), .wouldRecycle(let entry), .covered(let entry, _, _): entry
        case .refused, .failed, .notTried: nil
        }
    }

    /// The result as a row says it: `recycled`, `would recycle`, `recycled (with WORD)`, `refused (LABEL)`,
    /// `not found`, `failed (REASON)`, `not tried`.
    public var text: String {
        switch result {
        case .recycled: "recycled"
        case .wouldRecycle: "would recycle"
        case .covered(_, let word, let dryRun): (dryRun ? "would recycle" : "recycled") + " (with \(word))"
        case .refused(_, let label): "refused (\(label))"
        case .failed(let error): error.isMissingPath ? "not found" : "failed (\(error.briefReason))"
        case .notTried: "not tried"
        }
    }
}

/// `rm` as a library: files and folders to the site's recycle bin, one outcome per path; it prints nothing.
public enum Removal {
    /// Every PATH's outcome, in order: each is read first, then (unless `dryRun`) recycled; paths given twice or
    /// inside an earlier folder go with that one, a library's or the site's root folder is refused, and a failure that is not about
    /// one path stops the run.
    public static func run(_ words: [String], dryRun: Bool, site: SharePointSite) async -> [RemovalOutcome] {
        await removeAll(words, dryRun: dryRun, site: site)
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
    } catch {
        return RemovalOutcome(word: word, result: .failed(SharePointError(unexpectedResponse: "\(error)")))
    }
}

/// The title of the list whose root folder `folder` is (or the site's name for the site's own root), else nil.
private func rootFolderOwner(_ folder: Folder, site: SharePointSite) async throws(SharePointError) -> String? {
    if SiteAddressing(siteURL: site.siteURL).isSiteRoot(folder.serverRelativeUrl) { return "the site" }
    let list: ListInfo
    do {
        list = try await site.list(.serverRelativeURL(folder.serverRelativeUrl))
    } catch {
        if error.isMissingPath || error.kind == .listNotFound { return nil }
        throw error
    }
    return list.title
}
