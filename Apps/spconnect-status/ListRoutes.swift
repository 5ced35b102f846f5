import Foundation
import HTTPServer
import SharePoint

/// `/lists` and `/lists/NAME`: the site's lists, and a page of one list's items.
extension StatusApp {
    func listsPage() -> HTTPServerResponse {
        let result: Result<[StatusPages.ListRow], StatusFailure> = withSite { site in
            do throws(SharePointError) {
                return .success(
                    try await site.lists().map { list in
                        StatusPages.ListRow(
                            title: list.title, itemCount: list.itemCount, lastModified: list.lastItemModifiedDate,
                            isPictureLibrary: list.baseTemplate == Self.pictureLibraryTemplate)
                    })
            } catch {
                return .failure(StatusFailure(error, doing: "read the lists"))
            }
        }
        switch result {
        case .success(let rows): return html(200, StatusPages.listsPage(rows, links: links, now: clock()))
        case .failure(let failure): return self.failure(failure)
        }
    }

    /// A page of `title`'s items: the first page, or the one after item `after` (`page` is its number, when the
    /// link that led here knew it).
    func itemsPage(_ title: String, after: Int?, page: Int?) -> HTTPServerResponse {
        let pageSize = self.pageSize
        let requested = columns
        let result: Result<StatusPages.ItemsPage, StatusFailure> = withSite { site in
            do throws(SharePointError) {
                let list = try await site.list(title: title)
                let path = ListPath.title(list.title)
                let isLibrary = list.baseType == 1
                // The default view says which columns people see; a server without views gets the guess.
                let viewFields = try? await site.defaultViewFields(of: path)
                let columns = ItemTable.columns(
                    try await site.fields(of: path), viewFields: viewFields, requested: requested,
                    isLibrary: isLibrary)
                var query = ODataQuery(top: pageSize, expand: ItemTable.expand(isLibrary: isLibrary))
                query.orderBy = [ODataQuery.Order("ID")]
                if let after { query.skipToken = ODataQuery.pagedSkipToken(afterID: after) }
                // A page of the size asked for, whatever the server sends: rows past it are skipped, not decoded
                // or shown, and the next page starts after the last one shown.
                var pages = site.items(in: path, query: query).keepingAtMost(pageSize).makeAsyncIterator()
                let first = try await pages.next()
                let items = first?.items ?? []
                let hasMore = first?.nextLink != nil || (first?.droppedItems ?? 0) > 0
                var previous: StatusPages.ItemsPage.PreviousPage?
                if after != nil {
                    previous = StatusPages.ItemsPage.PreviousPage(
                        after: try await Self.previousStart(
                            site, path, before: items.first?.id ?? (after ?? 0) + 1, pageSize: pageSize))
                }
                return .success(
                    StatusPages.ItemsPage(
                        listTitle: list.title, columns: columns, rows: ItemTable.rows(items, columns: columns),
                        itemCount: list.itemCount, pageSize: pageSize, pageNumber: after == nil ? 1 : page,
                        nextAfter: hasMore ? items.last?.id : nil, previous: previous))
            } catch {
                return .failure(StatusFailure(error, doing: "read the list “\(title)”", subject: title))
            }
        }
        switch result {
        case .success(let page): return html(200, StatusPages.itemsPage(page, links: links))
        case .failure(let failure): return self.failure(failure)
        }
    }

    /// The ID the page before the one starting at item `before` starts after, or nil when that is the first page:
    /// the `pageSize` IDs below `before`, newest first (`$filter=ID lt N&$orderby=ID desc`; ID is indexed).
    static func previousStart(_ site: SharePointSite, _ list: ListPath, before: Int, pageSize: Int)
        async throws(SharePointError) -> Int?
    {
        var query = ODataQuery(select: ["ID"], filter: .lt("ID", .integer(Int64(before))), top: pageSize)
        query.orderBy = [ODataQuery.Order("ID", descending: true)]
        var pages = site.items(in: list, query: query).keepingAtMost(pageSize).makeAsyncIterator()
        let page = try await pages.next()
        guard let page, page.items.count == pageSize, page.nextLink != nil || page.droppedItems > 0,
            let lowest = page.items.last?.id
        else { return nil }
        return lowest - 1
    }
}
