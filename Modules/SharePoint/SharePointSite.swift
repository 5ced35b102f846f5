public import Foundation
import Synchronization
public import Transport

/// A client for one SharePoint site (web): REST calls over a Transport ``HTTPClient``, typed values, paging as
/// `AsyncSequence`, the request digest for writes, downloads and uploads streamed through files.
///
/// Every call sends `Accept` for the chosen ``ODataFlavor``, the site's credentials (``Authentication``, or the
/// cookies already in the client's jar), and retries as follows:
/// - 429 and 503 are retried by Transport's ``RetryPolicy`` honouring `Retry-After` (``readRetry`` for reads;
///   ``writeRetry`` only for writes that are safe to repeat: updates and deletes guarded by `IF-MATCH`, file
///   writes that overwrite, upload chunks; creating an item is never repeated). When the attempts run out the
///   call throws ``SharePointError/Kind/throttled``.
/// - 401, or 403 with `X-Forms_Based_Auth_Required`: ``reauthenticate`` (if any) is called once, then the
///   request is sent once more; a second refusal throws ``SharePointError/Kind/formsAuthRequired`` or
///   ``SharePointError/Kind/authenticationRequired`` telling the user to run `spconnect login`.
/// - 403 "security validation" on a write: the digest is fetched again and the write sent once more.
///
/// Every failure is a ``SharePointError`` carrying the request URL.
///
/// Ownership: the site keeps a strong reference to its `HTTPClient` (whose cookie jar holds the session) and to
/// its ``reauthenticate`` closure; it owns its digest and entity-type caches. Thread-safety: all methods may be called
/// concurrently from any task; the caches are guarded by a mutex.
public final class SharePointSite: Sendable {
    /// The Transport session every request goes through (its cookie jar is the SharePoint session).
    public let client: HTTPClient
    /// The site (web) URL without a trailing slash, e.g. `https://contoso.sharepoint.com/sites/team`.
    public let siteURL: String
    /// The JSON flavour requested and sent (`nometadata` by default; `verbose` for SharePoint 2013 RTM).
    public let flavor: ODataFlavor
    /// Credentials handed to Transport on every request (Basic, NTLM, Negotiate, Bearer), or nil for cookies.
    public let authentication: Authentication?
    /// Called once on 401, or 403 with `X-Forms_Based_Auth_Required`, before the request is retried once.
    public let reauthenticate: Reauthentication?
    /// Asked for the credentials before every request when set (a bearer token renewed before it expires); it
    /// replaces ``authentication``.
    public let authenticationProvider: (any AuthenticationProvider)?
    /// Retry policy for reads (GET, `contextinfo`).
    public let readRetry: RetryPolicy
    /// Retry policy for writes that are safe to repeat (see the type's documentation); `retryNonIdempotent` is
    /// always set, since those writes are POSTs.
    public let writeRetry: RetryPolicy
    /// How long before the server's `FormDigestTimeoutSeconds` runs out a cached digest is refreshed.
    public let digestRefreshMargin: Duration

    private let digests = Mutex<[String: CachedDigest]>([:])
    private let entityTypes = Mutex<[ListPath: String]>([:])

    private struct CachedDigest {
        var value: String
        var refreshAt: ContinuousClock.Instant
    }

    /// Reads' retries unless told otherwise: 6 attempts, `Retry-After` honoured up to 5 minutes (SharePoint Online
    /// asks clients to wait what it says, which can be minutes, and to stop after a handful of tries); a refused
    /// connection is tried once more only, so a site that is down fails within a second, not after the back-off.
    public static let defaultReadRetry = RetryPolicy(
        maxAttempts: 6, maxRetryAfter: .seconds(300), maxConnectAttempts: 2)

    /// Writes' retries unless told otherwise (for the writes that are safe to repeat): 5 attempts, `Retry-After`
    /// honoured up to 5 minutes, a refused connection tried once more only.
    public static let defaultWriteRetry = RetryPolicy(
        maxAttempts: 5, maxRetryAfter: .seconds(300), retryNonIdempotent: true, maxConnectAttempts: 2)

    /// Binds a client to a site.
    ///
    /// - Parameters:
    ///   - client: the Transport session; its cookies (if any) authenticate the requests.
    ///   - siteURL: the absolute site URL (a trailing slash is ignored).
    ///   - flavor: the JSON flavour to request (default `nometadata`).
    ///   - authentication: credentials for every request (for sites using Basic/NTLM/Bearer), or nil.
    ///   - reauthenticate: called once when the server says the session is missing or expired (the apps pass
    ///     AuthFlow's `ProfileRenewal.reauthenticate`).
    ///   - readRetry: retries for reads; default ``defaultReadRetry``.
    ///   - writeRetry: retries for writes that are safe to repeat; default ``defaultWriteRetry`` (`retryNonIdempotent` is set
    ///     here whatever the value given).
    ///   - digestRefreshMargin: refresh a cached digest this long before it expires (default 60 s).
    ///   - authenticationProvider: asked for the credentials before every request (token sessions), instead of
    ///     `authentication`; with a bearer token writes carry no request digest.
    public init(
        client: HTTPClient, siteURL: String, flavor: ODataFlavor = .noMetadata, authentication: Authentication? = nil,
        reauthenticate: Reauthentication? = nil,
        readRetry: RetryPolicy = SharePointSite.defaultReadRetry,
        writeRetry: RetryPolicy = SharePointSite.defaultWriteRetry,
        digestRefreshMargin: Duration = .seconds(60), authenticationProvider: (any AuthenticationProvider)? = nil
    ) {
        var base = siteURL
        while base.hasSuffix("/") { base.removeLast() }
        self.client = client
        self.siteURL = base
        self.flavor = flavor
        self.authentication = authentication
        self.reauthenticate = reauthenticate
        self.authenticationProvider = authenticationProvider
        self.readRetry = readRetry
        var safeWrites = writeRetry
        safeWrites.retryNonIdempotent = true
        self.writeRetry = safeWrites
        self.digestRefreshMargin = digestRefreshMargin
    }

    // MARK: Reads

    /// The web: `GET /_api/web`.
    public func web(query: ODataQuery = ODataQuery()) async throws(SharePointError) -> Web {
        try await getEntity(API.web, query: query)
    }

    /// The signed-in user: `GET /_api/web/currentuser`.
    public func currentUser() async throws(SharePointError) -> User {
        try await getEntity(API.currentUser)
    }

    /// Every list of the web (all pages), hidden ones only when `includeHidden` (`$filter=Hidden eq false`).
    public func lists(includeHidden: Bool = false) async throws(SharePointError) -> [ListInfo] {
        var query = ODataQuery()
        if !includeHidden { query.filter = .eq("Hidden", .bool(false)) }
        return try await collect(API.lists, query: query)
    }

    /// The list with this title: `GET /_api/web/lists/getbytitle('…')`. 404 → ``SharePointError/Kind/listNotFound``.
    public func list(title: String) async throws(SharePointError) -> ListInfo {
        try await getEntity(API.list(title: title).path)
    }

    /// The list with this id: `GET /_api/web/lists/getbyid(guid'…')`. 404 → ``SharePointError/Kind/listNotFound``.
    public func list(id: UUID) async throws(SharePointError) -> ListInfo {
        try await getEntity(API.list(id: id).path)
    }

    /// The list at `path` (by title, id or server-relative URL). A missing list →
    /// ``SharePointError/Kind/listNotFound`` (by title or id) or ``SharePointError/Kind/fileNotFound`` (by URL).
    public func list(_ path: ListPath) async throws(SharePointError) -> ListInfo {
        try await getEntity(path.path)
    }

    /// A list's root folder: `GET …/RootFolder` (its `serverRelativeUrl` is the list's address, e.g.
    /// `/sites/team/Shared Documents` for the library titled "Documents").
    public func rootFolder(of list: ListPath) async throws(SharePointError) -> Folder {
        try await getEntity(list.rootFolder)
    }

    /// The list whose `EntityTypeName` (`Shared_x0020_Documents`) or `ListItemEntityTypeFullName`
    /// (`SP.Data.TasksListItem`) is `entityTypeName` (compared case-insensitively), hidden lists included.
    /// Throws ``SharePointError/Kind/listNotFound`` when no list matches.
    public func list(entityTypeName: String) async throws(SharePointError) -> ListInfo {
        let wanted = entityTypeName.lowercased()
        let all = try await lists(includeHidden: true)
        if let found = all.first(where: {
            $0.entityTypeName?.lowercased() == wanted || $0.listItemEntityTypeFullName?.lowercased() == wanted
        }) {
            return found
        }
        throw SharePointError(
            kind: .listNotFound, status: 404,
            message: "No list has the entity type name '\(entityTypeName)' (checked \(all.count) lists).",
            url: API.lists.url(site: siteURL))
    }

    /// The fields (columns) of a list, all pages.
    public func fields(of list: ListPath, query: ODataQuery = ODataQuery()) async throws(SharePointError) -> [Field] {
        try await collect(list.fields, query: query)
    }

    /// The items of a list as pages: the first request carries `query` (`$select`, `$filter`, `$orderby`, `$top`,
    /// `$expand`); every further page is the server's `__next` / `odata.nextLink` fetched exactly as given. Only
    /// the current page is held in memory. Use ``PagedSequence/elements`` for the items one by one.
    public func items(in list: ListPath, query: ODataQuery = ODataQuery()) -> PagedSequence<ListItem> {
        pages(list.items, query: query)
    }

    /// Any collection as pages (see ``items(in:query:)``); `path` is relative to the site.
    public func pages<Element: ODataDecodable>(
        _ path: RESTPath, query: ODataQuery = ODataQuery(), of type: Element.Type = Element.self
    ) -> PagedSequence<Element> {
        PagedSequence(site: self, firstURL: path.url(site: siteURL, query: query))
    }

    /// One item: `GET …/items(ID)`. In nometadata the etag comes from the response's `ETag` header.
    /// A missing item → ``SharePointError/Kind/itemNotFound``.
    public func item(in list: ListPath, id: Int, query: ODataQuery = ODataQuery()) async throws(SharePointError)
        -> ListItem
    {
        let response = try await perform(.read(self, list.item(id).path.url(site: siteURL, query: query)))
        var item: ListItem = try decodeEntity(response)
        if item.etag == nil, let etag = response.header("ETag") { item.etag = etag }
        return item
    }

    /// Display text of every field of one item: `GET …/items(ID)/FieldValuesAsText`, in server order.
    public func fieldValuesAsText(in list: ListPath, id: Int) async throws(SharePointError) -> [(String, String)] {
        let url = list.item(id).fieldValuesAsText.url(site: siteURL)
        let response = try await perform(.read(self, url))
        do {
            return try ListItem.textValues(Data(response.body))
        } catch {
            throw error.at(url)
        }
    }

    /// The files directly in a folder (server-relative URL such as `/sites/team/Shared Documents`), all pages.
    public func files(inFolder serverRelativeURL: String, query: ODataQuery = ODataQuery())
        async throws(SharePointError) -> [File]
    {
        try await collect(API.folder(serverRelativeUrl: serverRelativeURL).files, query: query)
    }

    /// The sub-folders directly in a folder, all pages.
    public func folders(inFolder serverRelativeURL: String, query: ODataQuery = ODataQuery())
        async throws(SharePointError) -> [Folder]
    {
        try await collect(API.folder(serverRelativeUrl: serverRelativeURL).folders, query: query)
    }

    /// A file's metadata: `GET …/GetFileByServerRelativeUrl('…')`.
    public func file(serverRelativeURL: String) async throws(SharePointError) -> File {
        try await getEntity(API.file(serverRelativeUrl: serverRelativeURL).path)
    }

    /// A folder's metadata: `GET …/GetFolderByServerRelativeUrl('…')`. A missing folder →
    /// ``SharePointError/Kind/notFound`` or ``SharePointError/Kind/fileNotFound`` ("File Not Found.").
    public func folder(serverRelativeURL: String) async throws(SharePointError) -> Folder {
        try await getEntity(API.folder(serverRelativeUrl: serverRelativeURL).path)
    }

    /// The request digest and web information: `POST /_api/contextinfo` (not cached; see ``requestDigest()``).
    public func contextInfo() async throws(SharePointError) -> ContextInfo {
        let url = API.contextInfo.url(site: siteURL)
        var exchange = Exchange.read(self, url)
        exchange.method = "POST"
        exchange.retry = readRetry.allowingNonIdempotent
        let response = try await perform(exchange)
        return try decodeEntity(response)
    }

    // MARK: Request digest

    /// The `X-RequestDigest` value for writes: cached per web and fetched again `digestRefreshMargin` before the
    /// server's `FormDigestTimeoutSeconds` runs out.
    public func requestDigest() async throws(SharePointError) -> String {
        try await requestDigest(forceRefresh: false)
    }

    func requestDigest(forceRefresh: Bool) async throws(SharePointError) -> String {
        let key = siteURL
        if !forceRefresh, let cached = digests.withLock({ $0[key] }), ContinuousClock.now < cached.refreshAt {
            return cached.value
        }
        let info = try await contextInfo()
        let lifetime = Duration.seconds(info.formDigestTimeoutSeconds) - digestRefreshMargin
        let entry = CachedDigest(value: info.formDigestValue, refreshAt: ContinuousClock.now + lifetime)
        digests.withLock { $0[key] = entry }
        return info.formDigestValue
    }

    /// Replaces the cached digest (for tests of the digest-expired path, and for callers that obtained one
    /// elsewhere). `validFor` is how long it is reused before being fetched again.
    package func cacheDigest(_ value: String, validFor: Duration) {
        let entry = CachedDigest(value: value, refreshAt: ContinuousClock.now + validFor)
        digests.withLock { $0[siteURL] = entry }
    }

    /// Forgets the cached digest (the next write fetches a new one).
    public func invalidateDigest() {
        _ = digests.withLock { $0.removeValue(forKey: siteURL) }
    }

    /// The item entity type of a list (`__metadata.type` for verbose writes), read once and cached.
    func itemEntityType(of list: ListPath) async throws(SharePointError) -> String? {
        if let cached = entityTypes.withLock({ $0[list] }) { return cached }
        let info: ListInfo = try await getEntity(
            list.path, query: ODataQuery(select: ["Id", "ListItemEntityTypeFullName"]))
        guard let type = info.listItemEntityTypeFullName else { return nil }
        entityTypes.withLock { $0[list] = type }
        return type
    }

    // MARK: Helpers

    func getEntity<T: ODataDecodable>(_ path: RESTPath, query: ODataQuery = ODataQuery()) async throws(SharePointError)
        -> T
    {
        let response = try await perform(.read(self, path.url(site: siteURL, query: query)))
        return try decodeEntity(response)
    }

    func decodeEntity<T: ODataDecodable>(_ response: HTTPResponse) throws(SharePointError) -> T {
        do {
            return try T.decode(Data(response.body))
        } catch {
            throw error.at(response.url)
        }
    }

    func collect<T: ODataDecodable>(_ path: RESTPath, query: ODataQuery) async throws(SharePointError) -> [T] {
        var all: [T] = []
        var iterator = pages(path, query: query, of: T.self).makeAsyncIterator()
        while let page = try await iterator.next() {
            all += page.items
            guard all.count <= Self.collectLimit else {
                throw SharePointError(
                    unexpectedResponse: "the server listed more than \(Self.collectLimit) entries; the listing stopped"
                ).at(path.url(site: siteURL))
            }
        }
        return all
    }

    /// The most entries a listing gathered whole (people, groups, role assignments) holds.
    static let collectLimit = 500_000
}

extension RetryPolicy {
    /// The same policy, also applied to POST and other non-idempotent methods.
    var allowingNonIdempotent: RetryPolicy {
        var copy = self
        copy.retryNonIdempotent = true
        return copy
    }
}

extension SharePointError {
    /// The same error with `url` filled in when it had none.
    func at(_ url: String) -> SharePointError {
        var copy = self
        if copy.url == nil { copy.url = url }
        return copy
    }
}

extension ListPath {
    /// The list with this title (`getbytitle('…')`; quotes are escaped here).
    public static func title(_ title: String) -> ListPath { API.list(title: title) }
    /// The list with this id (`getbyid(guid'…')`).
    public static func id(_ id: UUID) -> ListPath { API.list(id: id) }
    /// The list at this server-relative URL (`GetList('…')`).
    public static func serverRelativeURL(_ url: String) -> ListPath { API.list(serverRelativeUrl: url) }
}

extension ListInfo {
    /// The REST path of this list by id, or nil when its `Id` is not a GUID.
    public var path: ListPath? { UUID(uuidString: id).map(API.list(id:)) }
}
