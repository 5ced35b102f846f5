public import SharePoint

/// A library item and its file.
public struct LibraryFile: Sendable {
    /// The item, with the fields asked for.
    public let item: ListItem
    /// Its file (size, title, times).
    public let file: File
}

/// A library's items joined with their files: the items first (by `ID`, with the fields asked for and `FileRef`),
/// then each folder they name listed once (one request a folder, not one a file). Items with no file (folders) are
/// left out. It never prints.
public enum LibraryFiles {
    /// The first `limit` items of `list` (every item when nil) with their files, in item order.
    public static func read(
        _ list: ListPath, select: [String], limit: Int?, site: SharePointSite
    ) async throws(SharePointError) -> [LibraryFile] {
        var query = ODataQuery(select: select + ["ID", "FileRef"], top: limit)
        query.orderBy = [ODataQuery.Order("ID")]
        var items: [ListItem] = []
        var pages = site.items(in: list, query: query).makeAsyncIterator()
        while let page = try await pages.next() {
            items += page.items
            if let limit, items.count >= limit { break }
        }
        if let limit { items = Array(items.prefix(limit)) }
        var files: [String: File] = [:]
        var folders: [String] = []
        for url in items.compactMap(\.fileURL) {
            guard let slash = url.lastIndex(of: "/") else { continue }
            let folder = String(url[..<slash])
            if !folders.contains(folder) { folders.append(folder) }
        }
        for folder in folders {
            for file in try await site.files(inFolder: folder) { files[file.serverRelativeUrl.lowercased()] = file }
        }
        return items.compactMap { item in
            item.fileURL.flatMap { files[$0.lowercased()] }.map { LibraryFile(item: item, file: $0) }
        }
    }
}
