public import Foundation
public import Mirror
public import SharePoint

/// What to download: a file (a path or browser address, see ``SharePoint/SiteAddressing``), or items of a library
/// whose files are looked up.
public enum DownloadTarget: Equatable, Sendable {
    case file(String)
    case items(list: String, ids: [Int])
}

/// A file that arrived: where it came from and its size.
public struct DownloadedFile: Sendable {
    /// The server-relative URL it was read from (after the addressing's alternatives).
    public let serverRelativeUrl: String
    /// The bytes written.
    public let size: Int64
}

/// `download` of single files as a library: the targets resolved to file URLs, then each file fetched into a
/// folder, a few at a time, with one outcome per file; it prints nothing.
public enum FileDownloads {
    /// The server-relative URLs of the files to download, in order, and the word each was given as. Items are
    /// resolved to file URLs first (cheap), so the names and the order are known. A file word is resolved when it is
    /// downloaded (a library title in its first segment only costs a request if needed).
    public static func resolve(_ targets: [DownloadTarget], site: SharePointSite) async throws
        -> (urls: [String], words: [String: String])
    {
        var words: [String] = []
        var urls: [String] = []
        let addressing = SiteAddressing(siteURL: site.siteURL)
        for target in targets {
            switch target {
            case .file(let word):
                words.append(word)
                urls.append(try addressing.path(word, container: false).path)
            case .items(let list, let ids):
                try await site.withList(named: list) { path in
                    for id in ids {
                        let item = try await site.item(in: path, id: id, query: ODataQuery(select: ["Id", "FileRef"]))
                        guard let fileRef = item.fileURL else {
                            throw SharePointError(
                                kind: .fileNotFound, status: 404,
                                message: "item \(id) of '\(list)' has no file (is '\(list)' a library?)")
                        }
                        words.append(fileRef)
                        urls.append(fileRef)
                    }
                }
            }
        }
        var wordFor: [String: String] = [:]
        for (word, url) in zip(words, urls) where wordFor[url] == nil { wordFor[url] = word }
        return (urls, wordFor)
    }

    /// Downloads `urls` (each read through the word it was given as, `words`) into `directory` under its own name,
    /// `parallel` at a time, each file's progress into `totals`. One outcome per URL, in order.
    public static func download(
        _ urls: [String], words: [String: String], to directory: String, parallel: Int, site: SharePointSite,
        totals: TransferTotals
    ) async -> [Result<DownloadedFile, SharePointError>] {
        let fetch: @Sendable (Int) async -> Result<DownloadedFile, SharePointError> = { index in
            let url = urls[index]
            let destination = (directory as NSString).appendingPathComponent(
                URL(fileURLWithPath: url).lastPathComponent)
            do {
                return .success(
                    try await site.withPath(named: words[url] ?? url, container: false) { path in
                        let size = try await site.download(serverRelativeURL: path, to: destination) { progress in
                            totals.update(index, progress)
                        }
                        return DownloadedFile(serverRelativeUrl: path, size: size)
                    })
            } catch let error as SharePointError {
                return .failure(error)
            } catch {
                return .failure(SharePointError(localFile: "could not download \(url)", detail: "\(error)"))
            }
        }
        var outcomes = [Result<DownloadedFile, SharePointError>?](repeating: nil, count: urls.count)
        await forEachConcurrently(urls.count, parallel: parallel, fetch) { index, outcome in outcomes[index] = outcome }
        return outcomes.enumerated().map { index, outcome in
            outcome ?? .failure(SharePointError(localFile: "could not download \(urls[index])", detail: "not run"))
        }
    }
}
