import Foundation

/// The pages of a SharePoint collection, fetched lazily one at a time.
///
/// The first page is the URL built from the path and query; each following page is the previous page's
/// ``Page/nextLink`` (`d.__next` or `odata.nextLink`) requested exactly as the server wrote it, never rebuilt.
/// Iteration stops after the page without a next link, and ends after the first error. Only the current page is
/// held (two with ``readingAhead()``), so memory stays flat whatever the collection size.
///
/// A value: iterating it twice sends the requests twice. `Sendable`; each iterator belongs to one task.
public struct PagedSequence<Item: ODataDecodable>: AsyncSequence, Sendable {
    /// One page of items.
    public typealias Element = Page<Item>
    /// Every failure is a ``SharePointError``.
    public typealias Failure = SharePointError

    let site: SharePointSite
    /// The URL of the first page.
    public let firstURL: String
    /// Whether the next page is requested as soon as a page is handed out.
    public private(set) var readsAhead = false

    init(site: SharePointSite, firstURL: String) {
        self.site = site
        self.firstURL = firstURL
    }

    /// The same pages, each requested (and decoded) while the caller is still handling the one before.
    ///
    /// For reading a whole collection: the server builds page N+1 while the caller writes out page N, so a long
    /// listing takes about the server's time rather than the server's plus the caller's. At most two pages are
    /// held. A caller that stops early has had one page requested that it never sees, which is why this is not
    /// the default.
    public func readingAhead() -> PagedSequence {
        var copy = self
        copy.readsAhead = true
        return copy
    }

    /// Starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(site: site, nextURL: firstURL, readsAhead: readsAhead)
    }

    /// The items of every page, one by one (still fetched page by page).
    public var elements: PagedElements<Item> { PagedElements(pages: self) }

    /// Fetches pages in order.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let site: SharePointSite
        var nextURL: String?
        let readsAhead: Bool
        /// With `readsAhead`: the page after the one last returned, already requested.
        var ahead: PageRequest<Item>?

        /// The next page, or nil after the last one.
        public mutating func next() async throws(SharePointError) -> Page<Item>? {
            let url: String
            let page: Page<Item>
            if let ahead {
                self.ahead = nil
                url = ahead.url
                page = try await ahead.page()
            } else if let nextURL {
                self.nextURL = nil
                url = nextURL
                page = try await Self.fetch(url, from: site)
            } else {
                return nil
            }
            if let link = page.nextLink {
                guard link != url else {
                    throw SharePointError(unexpectedResponse: "the next link repeats the page just read: \(link)")
                        .at(url)
                }
                if readsAhead { ahead = PageRequest(url: link, site: site) } else { nextURL = link }
            }
            return page
        }

        /// Reads and decodes the page at `url`.
        static func fetch(_ url: String, from site: SharePointSite) async throws(SharePointError) -> Page<Item> {
            let response = try await site.perform(.read(site, url))
            do {
                return try Page<Item>.decode(bytes: response.body)
            } catch {
                throw error.at(url)
            }
        }

        /// The next page, or nil after the last one.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SharePointError) -> Page<Item>? {
            try await next()
        }
    }
}

/// The items of a ``PagedSequence`` one by one: one page in memory at a time.
public struct PagedElements<Item: ODataDecodable>: AsyncSequence, Sendable {
    /// One item.
    public typealias Element = Item
    /// Every failure is a ``SharePointError``.
    public typealias Failure = SharePointError

    /// The pages being flattened.
    public let pages: PagedSequence<Item>

    /// Starts at the first item of the first page.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pages: pages.makeAsyncIterator()) }

    /// Walks the items of each page, fetching the next page when one is used up.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        var pages: PagedSequence<Item>.AsyncIterator
        var current: [Item] = []
        var index = 0

        /// The next item, or nil after the last one.
        public mutating func next() async throws(SharePointError) -> Item? {
            while index >= current.count {
                guard let page = try await pages.next() else { return nil }
                current = page.items
                index = 0
            }
            defer { index += 1 }
            return current[index]
        }

        /// The next item, or nil after the last one.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SharePointError) -> Item? {
            try await next()
        }
    }
}

/// A page requested ahead of its use: fetched and decoded by its own task, cancelled when dropped unused.
final class PageRequest<Item: ODataDecodable>: Sendable {
    let url: String
    private let task: Task<Result<Page<Item>, SharePointError>, Never>

    init(url: String, site: SharePointSite) {
        self.url = url
        task = Task {
            do throws(SharePointError) {
                return .success(try await PagedSequence<Item>.AsyncIterator.fetch(url, from: site))
            } catch {
                return .failure(error)
            }
        }
    }

    deinit { task.cancel() }

    /// The page, waiting for it if needed; cancelling the waiting task cancels the request.
    func page() async throws(SharePointError) -> Page<Item> {
        try await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }.get()
    }
}
