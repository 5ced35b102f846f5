import CommandLineKit
import Mirror
import SharePoint

/// The pages of an `items` listing: one link after the other (reading ahead for a long listing), or with
/// ``ItemQuery/parallel`` as ranges of `ID` side by side (``SharePointSite/itemsInIDRanges(in:query:parallel:rangeSize:)``),
/// or the items of some ids (``IDChunkPages``), handed out in `ID` order in every case.
enum ItemPages {
    case sequential(PagedSequence<ListItem>.AsyncIterator)
    case ranges(IDRangePages.AsyncIterator)
    case ids(IDChunkPages)

    init(_ list: ListPath, query: ODataQuery, request: ItemQuery, site: SharePointSite) throws(UsageError) {
        guard let parallel = request.parallel else {
            let listing = site.items(in: list, query: query)
            self = .sequential((request.readsAhead ? listing.readingAhead() : listing).makeAsyncIterator())
            return
        }
        if let order = query.orderBy.first,
            query.orderBy.count > 1 || order.field.lowercased() != "id" || order.descending
        {
            throw UsageError(
                description: "--parallel reads ranges of ID and writes them in ID order, so it cannot go with "
                    + "--orderby \(request.orderBy ?? ""); leave out one of them")
        }
        self = .ranges(
            site.itemsInIDRanges(in: list, query: query, parallel: parallel, rangeSize: query.top ?? 5000)
                .makeAsyncIterator())
    }

    mutating func next() async throws(SharePointError) -> Page<ListItem>? {
        switch self {
        case .sequential(var iterator):
            defer { self = .sequential(iterator) }
            return try await iterator.next()
        case .ranges(var iterator):
            defer { self = .ranges(iterator) }
            return try await iterator.next()
        case .ids(var chunks):
            defer { self = .ids(chunks) }
            return try await chunks.next()
        }
    }
}
