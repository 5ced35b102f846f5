/// The items of a list read as disjoint ranges of `ID` at once, handed out in ascending `ID` order.
///
/// SharePoint pages a collection one link after the other, so a long listing costs one round trip per page in a
/// row. `ID` is always indexed, so `ID ge a and ID le b` ranges can be asked for side by side: a listing of
/// 100,000 items then takes about the server's time for `pages / parallel` pages. Each range is its own
/// ``PagedSequence`` (a range larger than `$top` still follows its next links); at most `parallel` ranges are being
/// read at any time, each one request at a time, so no more than `parallel` requests are ever in flight (a
/// throttled request waits out `Retry-After` in Transport without another taking its place). Ranges finished ahead
/// of the one being handed out are held until their turn: memory holds at most `parallel` ranges.
///
/// Made with ``SharePointSite/itemsInIDRanges(in:query:parallel:rangeSize:)``. A value: iterating it twice sends the
/// requests twice; each iterator belongs to one task, and dropping it cancels the ranges still being read.
public struct IDRangePages: AsyncSequence, Sendable {
    /// One page of one range.
    public typealias Element = Page<ListItem>
    /// Every failure is a ``SharePointError``.
    public typealias Failure = SharePointError

    let site: SharePointSite
    let list: ListPath
    let query: ODataQuery
    let parallel: Int
    let rangeSize: Int

    /// Starts at the range holding the smallest ids.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(listing: self)
    }

    /// The query of the range `lower...upper`: the caller's filter (if any) and the range, in `ID` order.
    func query(from lower: Int, to upper: Int) -> ODataQuery {
        var ranged = query
        let range = "ID ge \(lower) and ID le \(upper)"
        ranged.filter = ODataFilter(query.filter.map { "(\($0.expression)) and \(range)" } ?? range)
        ranged.orderBy = [ODataQuery.Order("ID")]
        return ranged
    }

    /// Hands out the pages of each range in turn, keeping the next ranges being read.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let listing: IDRangePages
        /// The highest id when known (read by the first call); nil before.
        var highest: Int?
        /// The next range to start, and the next one to hand out (ranges are numbered from 0).
        var nextToStart = 0
        var nextToHandOut = 0
        var reading: [Int: RangeRead] = [:]
        /// Pages of the range being handed out that are not yet returned.
        var pending: [Page<ListItem>] = []

        init(listing: IDRangePages) { self.listing = listing }

        /// The next page, or nil after the last range.
        public mutating func next() async throws(SharePointError) -> Page<ListItem>? {
            if highest == nil { highest = try await Self.highestID(listing) }
            let ranges = ((highest ?? 0) + listing.rangeSize - 1) / listing.rangeSize
            while pending.isEmpty {
                guard nextToHandOut < ranges else { return nil }
                while nextToStart < ranges, nextToStart < nextToHandOut + listing.parallel {
                    let lower = nextToStart * listing.rangeSize + 1
                    reading[nextToStart] = RangeRead(
                        listing.site.items(
                            in: listing.list, query: listing.query(from: lower, to: lower - 1 + listing.rangeSize)))
                    nextToStart += 1
                }
                guard let range = reading.removeValue(forKey: nextToHandOut) else { return nil }
                nextToHandOut += 1
                pending = try await range.pages().reversed()
            }
            return pending.removeLast()
        }

        /// The next page, or nil after the last range.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SharePointError)
            -> Page<ListItem>?
        {
            try await next()
        }

        /// The list's highest item id (0 when it is empty): one item, ordered by `ID` descending.
        static func highestID(_ listing: IDRangePages) async throws(SharePointError) -> Int {
            var top = ODataQuery(select: ["Id"])
            top.orderBy = [ODataQuery.Order("ID", descending: true)]
            top.top = 1
            var pages = listing.site.items(in: listing.list, query: top).makeAsyncIterator()
            return try await pages.next()?.items.first?.id ?? 0
        }
    }
}

/// One range's pages, read by a task of its own (cancelled when dropped before its turn).
final class RangeRead: Sendable {
    private let task: Task<Result<[Page<ListItem>], SharePointError>, Never>

    init(_ pages: PagedSequence<ListItem>) {
        task = Task {
            var all: [Page<ListItem>] = []
            var iterator = pages.makeAsyncIterator()
            do throws(SharePointError) {
                while let page = try await iterator.next() { all.append(page) }
                return .success(all)
            } catch {
                return .failure(error)
            }
        }
    }

    deinit { task.cancel() }

    /// Every page of the range, waiting for them if needed.
    func pages() async throws(SharePointError) -> [Page<ListItem>] {
        try await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }.get()
    }
}

extension SharePointSite {
    /// The items of `list` that match `query`, in ascending `ID` order, read as ranges of `rangeSize` ids,
    /// `parallel` ranges at once (see ``IDRangePages``). `query.orderBy` is replaced by `ID` (a caller wanting
    /// another order pages with ``items(in:query:)``); `query.top` is the page size within a range.
    public func itemsInIDRanges(in list: ListPath, query: ODataQuery, parallel: Int, rangeSize: Int = 5000)
        -> IDRangePages
    {
        IDRangePages(
            site: self, list: list, query: query, parallel: max(parallel, 1), rangeSize: max(rangeSize, 1))
    }
}
