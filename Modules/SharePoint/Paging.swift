import Foundation

/// The pages of a SharePoint collection, fetched lazily one at a time.
///
/// The first page is the URL built from the path and query; each following page is the previous page's
/// ``Page/nextLink`` (`d.__next` or `odata.nextLink`) requested exactly as the server wrote it, never rebuilt.
/// Iteration stops after the page without a next link, and ends after the first error. Only the current page is
/// held, so memory stays flat whatever the collection size.
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

    /// Starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(site: site, nextURL: firstURL) }

    /// The items of every page, one by one (still fetched page by page).
    public var elements: PagedElements<Item> { PagedElements(pages: self) }

    /// Fetches pages in order.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let site: SharePointSite
        var nextURL: String?

        /// The next page, or nil after the last one.
        public mutating func next() async throws(SharePointError) -> Page<Item>? {
            guard let url = nextURL else { return nil }
            nextURL = nil
            let response = try await site.perform(.read(site, url))
            let page: Page<Item>
            do {
                page = try Page<Item>.decode(bytes: response.body)
            } catch {
                throw error.at(url)
            }
            if let link = page.nextLink {
                guard link != url else {
                    throw SharePointError(unexpectedResponse: "the next link repeats the page just read: \(link)")
                        .at(url)
                }
                nextURL = link
            }
            return page
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
