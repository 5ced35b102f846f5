import Transport

/// The items of a list read as disjoint ranges of `ID` at once, handed out in ascending `ID` order.
///
/// SharePoint pages a collection one link after the other, so a long listing costs one round trip per page in a
/// row. `ID` is always indexed, so `ID ge a and ID le b` ranges can be asked for side by side: a listing of
/// 100,000 items then takes about the server's time for `pages / parallel` pages. Each range is its own
/// ``PagedSequence`` (a range larger than `$top` still follows its next links); at most `parallel` ranges are being
/// read at any time, each one request at a time, so no more than `parallel` requests are ever in flight (a
/// throttled request waits out `Retry-After` in Transport without another taking its place). Ranges finished ahead
/// of the one being handed out are held until their turn as the bodies the server sent; the next range's first page
/// is decoded while the current one is handed out, the others when their turn comes: memory holds at most `parallel`
/// ranges' bodies and two decoded pages (a decoded page takes several times its body's bytes).
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
        /// Pages of the range being handed out that are not yet returned, last first.
        var pending: [RangePage] = []
        /// The next range, its first page being decoded while this one is handed out (the caller's work and the
        /// decoding then share the cores; only one page more is held decoded).
        var ahead: (range: Int, pages: DecodingAhead)?

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
                        site: listing.site,
                        pages: listing.site.items(
                            in: listing.list, query: listing.query(from: lower, to: lower - 1 + listing.rangeSize)))
                    nextToStart += 1
                }
                guard let range = reading.removeValue(forKey: nextToHandOut) else { return nil }
                let decoding = ahead?.range == nextToHandOut ? ahead?.pages : nil
                ahead = nil
                nextToHandOut += 1
                if let following = reading[nextToHandOut] { ahead = (nextToHandOut, DecodingAhead(following)) }
                if let decoding {
                    pending = try await decoding.pages().reversed()
                } else {
                    pending = try await range.pages().reversed()
                }
            }
            return try pending.removeLast().decoded()
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
            let highest = try await pages.next()?.items.first?.id ?? 0
            // SharePoint's item ids are 32-bit: a larger one would have the listing ask for ranges without end.
            guard highest <= Int(Int32.max) else {
                throw SharePointError(
                    unexpectedResponse: "the list's highest item id is \(highest), above any SharePoint gives "
                        + "(\(Int32.max)); not listed by id ranges")
            }
            return Swift.max(highest, 0)
        }
    }
}

/// One page of a range as read: the body, decoded when its turn comes; or the page itself when its body had to be
/// decoded to find the next link.
enum RangePage: Sendable {
    case body(HTTPResponse, url: String, followed: String?)
    case decoded(Page<ListItem>)

    /// The page, decoding its body; the next link decoded must be the one the range followed.
    func decoded() throws(SharePointError) -> Page<ListItem> {
        switch self {
        case .decoded(let page):
            return page
        case .body(let response, let url, let followed):
            let page = try PagedSequence<ListItem>.AsyncIterator.decode(response, from: url, keepingAtMost: nil)
            guard page.nextLink == followed else {
                throw SharePointError(
                    unexpectedResponse: "the page's next link (\(page.nextLink ?? "none")) is not the one read "
                        + "ahead (\(followed ?? "none"))"
                ).at(url)
            }
            return page
        }
    }
}

/// One range's pages, read by a task of its own (cancelled when dropped before its turn) and kept as the bodies the
/// server sent: the next link is found with the items skipped over, so a range waiting for its turn holds bytes, not
/// decoded items.
final class RangeRead: Sendable {
    private let task: Task<Result<[RangePage], SharePointError>, Never>

    init(site: SharePointSite, pages: PagedSequence<ListItem>) {
        let firstURL = pages.firstURL
        task = Task {
            do throws(SharePointError) {
                return .success(try await Self.read(site: site, from: firstURL))
            } catch {
                return .failure(error)
            }
        }
    }

    deinit { task.cancel() }

    /// Every page of the range from `firstURL` on, following next links; a link back to a page already read is a
    /// cycle, as in ``PagedSequence``.
    private static func read(site: SharePointSite, from firstURL: String) async throws(SharePointError)
        -> [RangePage]
    {
        var all: [RangePage] = []
        var visited: Set<String> = []
        var next: String? = firstURL
        while let url = next {
            visited.insert(url)
            let response = try await site.perform(.read(site, url))
            switch Page<ListItem>.peekedNextLink(bytes: response.body) {
            case .link(let link):
                all.append(.body(response, url: url, followed: link))
                next = link
            case .lastPage:
                all.append(.body(response, url: url, followed: nil))
                next = nil
            case .unknown:
                let page = try PagedSequence<ListItem>.AsyncIterator.decode(response, from: url, keepingAtMost: nil)
                all.append(.decoded(page))
                next = page.nextLink
            }
            if let link = next, visited.contains(link) {
                throw SharePointError(
                    unexpectedResponse: "the next link leads back to a page read earlier in this range (\(link)), so "
                        + "the listing would never end; stopped after \(visited.count) page(s)"
                ).at(url)
            }
        }
        return all
    }

    /// Every page of the range, waiting for them if needed.
    func pages() async throws(SharePointError) -> [RangePage] { try await awaitPages(of: task) }
}

/// A range's pages with the first one decoded by a task of its own (cancelled when dropped before its turn).
final class DecodingAhead: Sendable {
    private let task: Task<Result<[RangePage], SharePointError>, Never>

    init(_ range: RangeRead) {
        task = Task {
            do throws(SharePointError) {
                var pages = try await range.pages()
                if let first = pages.first { pages[0] = .decoded(try first.decoded()) }
                return .success(pages)
            } catch {
                return .failure(error)
            }
        }
    }

    deinit { task.cancel() }

    /// The range's pages, waiting for them if needed.
    func pages() async throws(SharePointError) -> [RangePage] { try await awaitPages(of: task) }
}

/// The pages `task` reads, waiting for them; cancelling the waiting task cancels `task`.
private func awaitPages(of task: Task<Result<[RangePage], SharePointError>, Never>) async throws(SharePointError)
    -> [RangePage]
{
    try await withTaskCancellationHandler {
        await task.value
    } onCancel: {
        task.cancel()
    }.get()
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
