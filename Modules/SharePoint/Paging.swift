public import Foundation
import JSON
import Transport

/// The pages of a SharePoint collection, fetched lazily one at a time.
///
/// The first page is the URL built from the path and query; each following page is the previous page's
/// ``Page/nextLink`` (`d.__next` or `odata.nextLink`) requested exactly as the server wrote it, never rebuilt.
/// Iteration stops after the page without a next link, and ends after the first error. Only the current page is
/// held (two with ``readingAhead()``), so memory stays flat whatever the collection size (the URLs already read
/// are remembered, one string per page, so a next link that leads back to any of them ends the listing with an
/// error instead of a loop).
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
    /// The most items a page keeps (``keepingAtMost(_:)``), or nil for all the server sends.
    public private(set) var itemLimit: Int?

    init(site: SharePointSite, firstURL: String) {
        self.site = site
        self.firstURL = firstURL
    }

    /// The same pages, each requested before the caller asks for it.
    ///
    /// For reading a whole collection: when a page's body is in, the next page is requested before this one is
    /// decoded (its link is found by skipping over the items), so the server builds page N+1 while this side
    /// decodes and the caller handles page N. A long listing then takes about the server's time rather than the
    /// server's plus the client's. One request runs ahead of the page handed out: memory holds that page and the
    /// next page's body. A caller that stops early has had one page requested that it never sees, which is why
    /// this is not the default.
    public func readingAhead() -> PagedSequence {
        var copy = self
        copy.readsAhead = true
        return copy
    }

    /// The same pages, each keeping at most `limit` items, whatever the server sends: the items after are skipped
    /// over rather than decoded, and counted in ``Page/droppedItems``.
    ///
    /// For a caller that shows one page of a size it asked for (`$top`): a server that sends more (a hostile or
    /// broken one, 60,000 rows for a `$top=30`) costs that caller the page's decoding, not the server's whole body.
    public func keepingAtMost(_ limit: Int) -> PagedSequence {
        var copy = self
        copy.itemLimit = Swift.max(0, limit)
        return copy
    }

    /// Starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(site: site, nextURL: firstURL, readsAhead: readsAhead, itemLimit: itemLimit)
    }

    /// The items of every page, one by one (still fetched page by page).
    public var elements: PagedElements<Item> { PagedElements(pages: self) }

    /// Fetches pages in order.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let site: SharePointSite
        var nextURL: String?
        let readsAhead: Bool
        /// The most items a page keeps, or nil for all.
        var itemLimit: Int?
        /// With `readsAhead`: the page after the one last returned, already requested.
        var ahead: PageRequest<Item>?
        /// Every page URL of this listing requested so far: a next link back to one of them is a cycle.
        var visited: Set<String> = []
        /// A cycle found in the last page's next link: thrown by the call after the one that returned that page,
        /// so its items are not lost.
        var cycle: SharePointError?
        /// Pages without an item since the last one with items.
        var emptyPagesInARow = 0

        /// Empty pages in a row that still carry a next link before the listing stops: SharePoint sends some while
        /// it scans a large list past a filter, never this many.
        static var emptyPageLimit: Int { 1000 }

        /// Why a page's next link is not followed, nil when it may be: it leads to another origin (the request
        /// would carry the site's credentials there), or too many pages in a row came without an item.
        static func refusal(of link: String, from url: String, site: SharePointSite, emptyPagesInARow: Int)
            -> SharePointError?
        {
            // A hop to plain http is Transport's to refuse (the plain-http rule, exit 7): it sends nothing there.
            let toPlainHTTP = link.lowercased().hasPrefix("http://") && site.siteURL.lowercased().hasPrefix("https://")
            if !toPlainHTTP, !HTTPClient.isSameOrigin(link, site.siteURL) {
                return SharePointError(
                    unexpectedResponse: "the next link leads to another site (\(link)); not followed, so the "
                        + "site's credentials go nowhere else"
                ).at(url)
            }
            if emptyPagesInARow >= emptyPageLimit {
                return SharePointError(
                    unexpectedResponse: "\(emptyPagesInARow) pages in a row came without an item but with a next "
                        + "link; the listing stopped"
                ).at(url)
            }
            return nil
        }

        /// The next page, or nil after the last one.
        public mutating func next() async throws(SharePointError) -> Page<Item>? {
            if let cycle {
                self.cycle = nil
                throw cycle
            }
            let url: String
            let response: HTTPResponse
            if let ahead {
                self.ahead = nil
                url = ahead.url
                response = try await ahead.response()
            } else if let nextURL {
                self.nextURL = nil
                url = nextURL
                response = try await site.perform(.read(site, url))
            } else {
                return nil
            }
            visited.insert(url)
            // Reading ahead: the next page is requested before this one is decoded, from its link found with the
            // items skipped over, so the server builds it while this side decodes and the caller handles this one.
            var early: PageRequest<Item>?
            if readsAhead, let link = Page<Item>.peekNextLink(bytes: response.body), !visited.contains(link) {
                early = PageRequest(url: link, site: site)
            }
            let page = try Self.decode(response, from: url, keepingAtMost: itemLimit)
            emptyPagesInARow = page.items.isEmpty ? emptyPagesInARow + 1 : 0
            if let link = page.nextLink {
                if let refusal = Self.refusal(of: link, from: url, site: site, emptyPagesInARow: emptyPagesInARow) {
                    cycle = refusal
                } else if visited.contains(link) {
                    let which = link == url ? "the page just read" : "a page read earlier in this listing"
                    cycle = SharePointError(
                        unexpectedResponse: "the next link leads back to \(which) (\(link)), so the listing would "
                            + "never end; stopped after \(visited.count) page(s)"
                    ).at(url)
                } else if readsAhead {
                    // The peek is only a hint: the decoded link decides (a request for another URL is dropped).
                    ahead = early?.url == link ? early : PageRequest(url: link, site: site)
                } else {
                    nextURL = link
                }
            }
            return page
        }

        /// The page in `response` (at most `limit` items of it), or the decoding error naming `url`.
        static func decode(_ response: HTTPResponse, from url: String, keepingAtMost limit: Int?)
            throws(SharePointError) -> Page<Item>
        {
            do {
                return try Page<Item>.decode(bytes: response.body, keepingAtMost: limit)
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

/// A page requested ahead of its use: its body fetched by a task of its own, cancelled when dropped unused.
final class PageRequest<Item: ODataDecodable>: Sendable {
    let url: String
    private let task: Task<Result<HTTPResponse, SharePointError>, Never>

    init(url: String, site: SharePointSite) {
        self.url = url
        task = Task {
            do throws(SharePointError) {
                return .success(try await site.perform(.read(site, url)))
            } catch {
                return .failure(error)
            }
        }
    }

    deinit { task.cancel() }

    /// The response, waiting for it if needed; cancelling the waiting task cancels the request.
    func response() async throws(SharePointError) -> HTTPResponse {
        try await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }.get()
    }
}

/// One page of a collection and the server's link to the next page.
public struct Page<Element: ODataDecodable>: Sendable {
    /// The entities on this page, in server order.
    public var items: [Element]
    /// The next page's URL exactly as the server gave it (`d.__next` or `odata.nextLink`): absolute, already
    /// percent-encoded, carrying `$top`/`$select`/`$filter`. GET it unchanged. `nil` on the last page.
    public var nextLink: String?
    /// `odata.metadata` of the collection (minimal metadata only).
    public var metadataURL: String?
    /// How many entities the server sent after the ones kept, when the page was read keeping at most some
    /// (``decode(bytes:keepingAtMost:)``); 0 otherwise.
    public var droppedItems = 0

    /// Creates a page from its parts.
    public init(items: [Element], nextLink: String?, metadataURL: String? = nil, droppedItems: Int = 0) {
        self.items = items
        self.nextLink = nextLink
        self.metadataURL = metadataURL
        self.droppedItems = droppedItems
    }

    /// Decodes a collection body in any flavour.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when the body is not a collection of `Element`.
    public static func decode(_ data: Data) throws(SharePointError) -> Page {
        try decode(tree: ODataDocument(data: data))
    }

    /// Decodes a collection body in any flavour, item by item: each element of `d.results` / `value` becomes an
    /// `Element` as soon as it is parsed, so the page is never held as a whole JSON tree. Gives the same page,
    /// or the same error, as ``decode(_:)``.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when the body is not a collection of `Element`.
    public static func decode(bytes: [UInt8]) throws(SharePointError) -> Page {
        try decode(bytes: bytes, keepingAtMost: nil)
    }

    /// Decodes a collection body like ``decode(bytes:)``, keeping at most `limit` entities (all when nil): the ones
    /// after are skipped over, neither decoded nor checked, and counted in ``droppedItems``.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when the body is not a collection of `Element`.
    public static func decode(bytes: [UInt8], keepingAtMost limit: Int?) throws(SharePointError) -> Page {
        // The two places a collection can be: verbose `d.results`, light `value`.
        var verbose = Collected()
        var light = Collected()
        let parsed: (root: JSONValue, streamed: [Bool], dropped: [Int])
        do {
            parsed = try JSONValue.parse(
                bytes: bytes, streaming: [["d", "results"], ["value"]], keepingAtMost: limit ?? .max
            ) { path, value in
                if path == 0 { verbose.add(value) } else { light.add(value) }
            }
        } catch {
            throw SharePointError(unexpectedResponse: "The response is not valid JSON: \(error)")
        }
        let document = ODataDocument(root: parsed.root)
        // Which collection `ODataDocument.collection()` reads: `d.results` when `d` is there (and an object),
        // else `value`. When that array was not streamed (absent, or not where streaming looks), the tree has it.
        let chosen: Collected
        let next: String?
        let dropped: Int
        if document.isVerbose, parsed.streamed[0], case .object = document.root["d"] {
            (chosen, dropped) = (verbose, parsed.dropped[0])
            next = document.payload["__next"]?.stringValue
        } else if !document.isVerbose, parsed.streamed[1] {
            (chosen, dropped) = (light, parsed.dropped[1])
            next = document.root["odata.nextLink"]?.stringValue
        } else {
            var page = try decode(tree: document)
            if let limit, page.items.count > limit {
                page.droppedItems = page.items.count - limit
                page.items.removeLast(page.droppedItems)
            }
            return page
        }
        if let error = chosen.error { throw error }
        return Page(items: chosen.items, nextLink: next, metadataURL: document.metadataURL, droppedItems: dropped)
    }

    /// The next link of a collection body, found with its items skipped over rather than decoded; nil when there
    /// is none or the body is not read that way. A hint for requesting the next page early: ``decode(bytes:)``
    /// has the final word.
    static func peekNextLink(bytes: [UInt8]) -> String? {
        if case .link(let link) = peekedNextLink(bytes: bytes) { return link }
        return nil
    }

    /// What skipping over a collection body's items tells of its next link.
    enum PeekedNextLink: Equatable {
        /// The body reads as a collection, and this is its next link.
        case link(String)
        /// The body reads as a collection without a next link: the last page.
        case lastPage
        /// The body does not read that way: only ``decode(bytes:)`` can tell.
        case unknown
    }

    /// The next link of a collection body with its items skipped over (see ``peekNextLink(bytes:)``), telling a
    /// last page apart from a body that must be decoded to know.
    static func peekedNextLink(bytes: [UInt8]) -> PeekedNextLink {
        guard let parsed = try? JSONValue.parse(bytes: bytes, skipping: [["d", "results"], ["value"]]) else {
            return .unknown
        }
        let document = ODataDocument(root: parsed.root)
        if document.isVerbose, parsed.skipped[0], case .object = document.root["d"] {
            return document.payload["__next"]?.stringValue.map(PeekedNextLink.link) ?? .lastPage
        }
        if !document.isVerbose, parsed.skipped[1] {
            return document.root["odata.nextLink"]?.stringValue.map(PeekedNextLink.link) ?? .lastPage
        }
        return .unknown
    }

    /// Items decoded as their elements stream by. Failures are kept and thrown once the body has parsed, in the
    /// tree decode's order: a syntax error anywhere first, then the first element that is not an entity, then the
    /// first entity that is not an `Element`.
    private struct Collected {
        var items: [Element] = []
        var entityError: SharePointError?
        var itemError: SharePointError?
        var error: SharePointError? { entityError ?? itemError }

        mutating func add(_ value: JSONValue) {
            guard entityError == nil else { return }
            let entity: ODataEntity
            do {
                entity = try ODataEntity(json: value)
            } catch {
                entityError = error
                items = []
                return
            }
            guard itemError == nil else { return }
            do {
                items.append(try Element(entity: entity))
            } catch {
                itemError = error
                items = []
            }
        }
    }

    private static func decode(tree document: ODataDocument) throws(SharePointError) -> Page {
        let (entities, next) = try document.collection()
        var items: [Element] = []
        items.reserveCapacity(entities.count)
        for entity in entities { items.append(try Element(entity: entity)) }
        return Page(items: items, nextLink: next, metadataURL: document.metadataURL)
    }
}
