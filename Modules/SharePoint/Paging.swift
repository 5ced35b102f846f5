import Foundation
import Transport

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
    /// Whether pages are requested ahead of the caller (``readingAhead()``).
    public private(set) var readsAhead = false

    init(site: SharePointSite, firstURL: String) {
        self.site = site
        self.firstURL = firstURL
    }

    /// The same pages, each requested before the caller asks for it.
    ///
    /// For reading a whole collection: a page is requested as soon as the body of the one before has arrived
    /// (its next link is found by skipping over the items), so the server builds page N+1 while this side decodes
    /// page N and the caller writes out page N-1. A long listing then takes about the server's time rather than
    /// the server's plus the client's. Requests run at most two pages ahead of the page the caller holds, so at
    /// most three pages are in memory. A caller that stops early has had up to two pages requested that it never
    /// sees, which is why this is not the default.
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
            var following: PageRequest<Item>?
            if readsAhead, ahead == nil, let nextURL {
                // The first page: the caller is already waiting for it, so its successor may start at once.
                self.nextURL = nil
                ahead = PageRequest<Item>(url: nextURL, site: site)
                ahead?.allowSuccessor()
            }
            if let ahead {
                self.ahead = nil
                url = ahead.url
                page = try await ahead.page()
                following = ahead.takeSuccessor()
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
                if readsAhead {
                    // The page after this one is usually on its way already (started from the peeked link).
                    let request =
                        if let following, following.url == link {
                            following
                        } else {
                            PageRequest<Item>(url: link, site: site)
                        }
                    // The caller now holds this page: the next request may start its own successor.
                    request.allowSuccessor()
                    ahead = request
                } else {
                    nextURL = link
                }
            }
            return page
        }

        /// Reads and decodes the page at `url`.
        static func fetch(_ url: String, from site: SharePointSite) async throws(SharePointError) -> Page<Item> {
            try decode(try await site.perform(.read(site, url)), from: url)
        }

        static func decode(_ response: HTTPResponse, from url: String) throws(SharePointError) -> Page<Item> {
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
///
/// Once its body has arrived, the request peeks at the next link and, when allowed (the caller holds the page
/// before this one), starts the request for the following page before decoding its own, so the server works
/// while this side decodes.
final class PageRequest<Item: ODataDecodable>: Sendable {
    let url: String
    private let chain: Chain
    private let task: Task<Result<Page<Item>, SharePointError>, Never>

    init(url: String, site: SharePointSite) {
        self.url = url
        let chain = Chain(site: site)
        self.chain = chain
        task = Task {
            do throws(SharePointError) {
                let response = try await site.perform(.read(site, url))
                if let link = Page<Item>.peekNextLink(bytes: response.body), link != url { chain.linkFound(link) }
                return .success(try PagedSequence<Item>.AsyncIterator.decode(response, from: url))
            } catch {
                return .failure(error)
            }
        }
    }

    deinit {
        task.cancel()
        chain.close()
    }

    /// The page, waiting for it if needed; cancelling the waiting task cancels the request.
    func page() async throws(SharePointError) -> Page<Item> {
        try await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }.get()
    }

    /// Lets this request start the next page's request as soon as it knows the link (at once if it does).
    func allowSuccessor() { chain.allow() }

    /// The next page's request if this one started it; the caller takes it over.
    func takeSuccessor() -> PageRequest? { chain.take() }

    /// The link to the next page and its request, shared by the request's task and the iterator.
    private final class Chain: @unchecked Sendable {
        private let site: SharePointSite
        private let lock = NSLock()
        private var allowed = false
        private var closed = false
        private var link: String?
        private var successor: PageRequest?

        init(site: SharePointSite) { self.site = site }

        func linkFound(_ found: String) {
            lock.withLock {
                link = found
                startIfReady()
            }
        }

        func allow() {
            lock.withLock {
                allowed = true
                startIfReady()
            }
        }

        func take() -> PageRequest? {
            lock.withLock {
                closed = true
                defer { successor = nil }
                return successor
            }
        }

        /// The request was dropped: so is a successor nobody took (its own deinit cancels it).
        func close() {
            let dropped: PageRequest? = lock.withLock {
                closed = true
                defer { successor = nil }
                return successor
            }
            _ = dropped
        }

        private func startIfReady() {
            guard allowed, !closed, successor == nil, let link else { return }
            successor = PageRequest(url: link, site: site)
        }
    }
}
