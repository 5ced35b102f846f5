public import Foundation
public import JSON

/// A REST path relative to a site URL, already percent-encoded, e.g. `/_api/web/lists/getbytitle('Tasks')/items(7)`.
public struct RESTPath: Sendable, Hashable, CustomStringConvertible {
    /// The encoded path, starting with `/_api`.
    public let rawValue: String

    /// Wraps an already-encoded path.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// This path plus `/segment` (`segment` must already be encoded).
    public func appending(_ segment: String) -> RESTPath {
        RESTPath(rawValue: rawValue + "/" + segment)
    }

    /// The absolute URL for a site: `site` without a trailing slash, the path, then `?query` when not empty.
    /// `site` is used as given (e.g. `https://contoso.sharepoint.com/sites/team`).
    public func url(site: String, query: ODataQuery = ODataQuery()) -> String {
        var base = site
        while base.hasSuffix("/") { base.removeLast() }
        let q = query.queryString
        return base + rawValue + (q.isEmpty ? "" : "?" + q)
    }
}

/// Builders for the REST endpoints SPConnect uses. All arguments are escaped here (quotes doubled, then
/// percent-encoded), so callers pass plain titles and paths.
public enum API {
    /// `/_api`.
    public static let root = RESTPath(rawValue: SharePointInfo.apiRoot)
    /// `/_api/web`.
    public static let web = root.appending("web")
    /// `/_api/site` (site collection).
    public static let site = root.appending("site")
    /// `/_api/web/currentuser`.
    public static let currentUser = web.appending("currentuser")
    /// `/_api/web/lists`.
    public static let lists = web.appending("lists")
    /// `/_api/contextinfo` (POST, empty body): the request digest.
    public static let contextInfo = root.appending("contextinfo")

    /// `/_api/web/lists/getbytitle('…')`.
    public static func list(title: String) -> ListPath {
        ListPath(path: lists.appending("getbytitle(\(OData.pathLiteral(title)))"))
    }

    /// `/_api/web/lists/getbyid(guid'…')`.
    public static func list(id: UUID) -> ListPath {
        ListPath(path: lists.appending("getbyid(\(OData.guidLiteral(id)))"))
    }

    /// `/_api/web/GetList('…')`: the list whose root folder has this server-relative URL (`/sites/team/Lists/Tasks`,
    /// `/sites/team/Shared Documents`). A path that is no list's address → 404 `System.IO.FileNotFoundException`.
    public static func list(serverRelativeUrl: String) -> ListPath {
        ListPath(path: web.appending("GetList(\(OData.pathLiteral(serverRelativeUrl)))"))
    }

    /// `/_api/web/GetFolderByServerRelativeUrl('…')`.
    public static func folder(serverRelativeUrl: String) -> FolderPath {
        FolderPath(
            path: web.appending("GetFolderByServerRelativeUrl(\(OData.serverRelativeURLLiteral(serverRelativeUrl)))"))
    }

    /// `/_api/web/GetFileByServerRelativeUrl('…')`.
    public static func file(serverRelativeUrl: String) -> FilePath {
        FilePath(
            path: web.appending("GetFileByServerRelativeUrl(\(OData.serverRelativeURLLiteral(serverRelativeUrl)))"))
    }

    /// `/_api/web/GetFolderByServerRelativePath(decodedurl='…')`: unlike the `…Url` form, this addresses
    /// names containing `%` and `#`.
    public static func folder(serverRelativePath: String) -> FolderPath {
        FolderPath(
            path: web.appending("GetFolderByServerRelativePath(decodedurl=\(OData.pathLiteral(serverRelativePath)))"))
    }

    /// `/_api/web/GetFileByServerRelativePath(decodedurl='…')`: unlike the `…Url` form, this addresses names
    /// containing `%` and `#`.
    public static func file(serverRelativePath: String) -> FilePath {
        FilePath(
            path: web.appending("GetFileByServerRelativePath(decodedurl=\(OData.pathLiteral(serverRelativePath)))"))
    }

    /// `/_api/web/GetFileById('…')` (the file's `UniqueId`).
    public static func file(id: UUID) -> FilePath {
        FilePath(path: web.appending("GetFileById('\(id.uuidString.lowercased())')"))
    }
}

/// A list's REST path.
public struct ListPath: Sendable, Hashable {
    /// The list itself.
    public let path: RESTPath
    /// `…/items`.
    public var items: RESTPath { path.appending("items") }
    /// `…/fields`.
    public var fields: RESTPath { path.appending("fields") }
    /// `…/RootFolder`: the folder holding the list's items and files.
    public var rootFolder: RESTPath { path.appending("RootFolder") }
    /// `…/items(ID)`.
    public func item(_ id: Int) -> ItemPath { ItemPath(path: path.appending("items(\(id))")) }
}

/// A list item's REST path.
public struct ItemPath: Sendable, Hashable {
    /// The item itself.
    public let path: RESTPath
    /// `…/items(ID)/FieldValuesAsText`.
    public var fieldValuesAsText: RESTPath { path.appending("FieldValuesAsText") }
    /// `…/items(ID)/Versions`: the item's versions, newest first, the current one included.
    public var versions: RESTPath { path.appending("Versions") }
    /// `…/items(ID)/AttachmentFiles`: the files attached to the item.
    public var attachmentFiles: RESTPath { path.appending("AttachmentFiles") }
    /// `…/items(ID)/AttachmentFiles('name')/$value`: the bytes of one attachment.
    public func attachmentValue(named name: String) -> RESTPath {
        path.appending("AttachmentFiles(\(OData.pathLiteral(name)))/$value")
    }
}

/// A folder's REST path.
public struct FolderPath: Sendable, Hashable {
    /// The folder itself.
    public let path: RESTPath
    /// `…/Files`.
    public var files: RESTPath { path.appending("Files") }
    /// `…/Folders`.
    public var folders: RESTPath { path.appending("Folders") }
    /// `…/Folders/add(url='name')` (POST, empty body): a new folder inside this one.
    public func addFolder(named name: String) -> RESTPath {
        folders.appending("add(url=\(OData.serverRelativeURLLiteral(name)))")
    }
    /// `…/recycle()` (POST): moves the folder and everything in it to the site's recycle bin.
    public var recycle: RESTPath { path.appending("recycle()") }
    /// `…/Files/add(url='name',overwrite=true)` (POST, body = the file's bytes).
    public func addFile(named name: String, overwrite: Bool) -> RESTPath {
        files.appending("add(url=\(OData.serverRelativeURLLiteral(name)),overwrite=\(overwrite))")
    }
}

/// A file's REST path.
public struct FilePath: Sendable, Hashable {
    /// The file's metadata.
    public let path: RESTPath
    /// `…/$value`: the file's bytes (GET), or replace them (POST with `X-HTTP-Method: PUT`).
    public var value: RESTPath { path.appending("$value") }
    /// `…/ListItemAllFields`: the file's list item.
    public var listItemAllFields: RESTPath { path.appending("ListItemAllFields") }
    /// `…/Versions`: the file's earlier versions, oldest first (the current version is the file itself).
    public var versions: RESTPath { path.appending("Versions") }
    /// `…/recycle()` (POST): moves the file to the site's recycle bin.
    public var recycle: RESTPath { path.appending("recycle()") }
    /// `…/StartUpload(uploadId=guid'…')`: first chunk of a chunked upload.
    public func startUpload(uploadId: UUID) -> RESTPath {
        path.appending("StartUpload(uploadId=\(OData.guidLiteral(uploadId)))")
    }
    /// `…/ContinueUpload(uploadId=guid'…',fileOffset=N)`: a middle chunk; `fileOffset` is the offset returned
    /// by the previous call.
    public func continueUpload(uploadId: UUID, fileOffset: Int64) -> RESTPath {
        path.appending("ContinueUpload(uploadId=\(OData.guidLiteral(uploadId)),fileOffset=\(fileOffset))")
    }
    /// `…/FinishUpload(uploadId=guid'…',fileOffset=N)`: the last chunk; returns the `SP.File`.
    public func finishUpload(uploadId: UUID, fileOffset: Int64) -> RESTPath {
        path.appending("FinishUpload(uploadId=\(OData.guidLiteral(uploadId)),fileOffset=\(fileOffset))")
    }
    /// `…/CancelUpload(uploadId=guid'…')`.
    public func cancelUpload(uploadId: UUID) -> RESTPath {
        path.appending("CancelUpload(uploadId=\(OData.guidLiteral(uploadId)))")
    }
}

/// A REST request as data: method, path, query, headers and body. Building one does no I/O; the site client
/// hands it to Transport. A value type, `Sendable`.
public struct RESTRequest: Sendable, Equatable {
    /// The HTTP method actually sent (`GET` or `POST`; updates and deletes tunnel through `X-HTTP-Method`).
    public var method: String
    /// The path relative to the site.
    public var path: RESTPath
    /// OData query options.
    public var query: ODataQuery
    /// Request headers in order.
    public var headers: [(String, String)]
    /// The body (`nil` for GET; empty `Data` for a POST without content).
    public var body: Data?

    /// Creates a request from its parts.
    public init(
        method: String, path: RESTPath, query: ODataQuery = ODataQuery(), headers: [(String, String)], body: Data?
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    public static func == (lhs: RESTRequest, rhs: RESTRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.query == rhs.query && lhs.body == rhs.body
            && lhs.headers.map { "\($0.0)\u{0}\($0.1)" } == rhs.headers.map { "\($0.0)\u{0}\($0.1)" }
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The absolute URL for `site`.
    public func url(site: String) -> String { path.url(site: site, query: query) }

    /// How an update tunnels through POST.
    public enum UpdateMode: String, Sendable {
        /// `X-HTTP-Method: MERGE`: change only the given fields.
        case merge = "MERGE"
        /// `X-HTTP-Method: PUT`: replace all fields (unset ones are cleared).
        case put = "PUT"
    }

    // MARK: Builders

    /// `GET` with `Accept` for `flavor`.
    public static func get(_ path: RESTPath, query: ODataQuery = ODataQuery(), flavor: ODataFlavor) -> RESTRequest {
        RESTRequest(method: "GET", path: path, query: query, headers: [("Accept", flavor.mediaType)], body: nil)
    }

    /// `POST /_api/contextinfo` with an empty body: answers with a ``ContextInfo``.
    public static func contextInfo(flavor: ODataFlavor) -> RESTRequest {
        RESTRequest(method: "POST", path: API.contextInfo, headers: [("Accept", flavor.mediaType)], body: Data())
    }

    /// The JSON body for creating or updating an item.
    ///
    /// Verbose: `{"__metadata":{"type":"<entityType>"},<fields…>}` with arrays wrapped as `{"results":[…]}` (the
    /// verbose multi-value form); `entityType` is the list's ``ListInfo/listItemEntityTypeFullName``.
    /// Minimal/nometadata: just the fields (`entityType` is not needed; SharePoint infers it). Field names are
    /// JSON property names (see ``OData/jsonPropertyName(forInternalName:)``); member order is kept.
    public static func itemBody(fields: [(String, JSONValue)], entityType: String?, flavor: ODataFlavor) -> Data {
        var members: [(String, JSONValue)] = []
        if flavor == .verbose {
            if let entityType { members.append(("__metadata", .object([("type", .string(entityType))]))) }
            members += fields.map { name, value in
                if case .array = value { return (name, .object([("results", value)])) }
                return (name, value)
            }
        } else {
            members = fields
        }
        return JSONValue.object(members).encoded()
    }

    /// Headers for a write: `Accept`, `Content-Type` (when there is a body type), `X-RequestDigest` (cookie
    /// auth), `IF-MATCH`, `X-HTTP-Method`, in that order.
    public static func writeHeaders(
        flavor: ODataFlavor, contentType: String?, digest: String?, ifMatch: String? = nil, xHTTPMethod: String? = nil
    ) -> [(String, String)] {
        var headers: [(String, String)] = [("Accept", flavor.mediaType)]
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let digest { headers.append(("X-RequestDigest", digest)) }
        if let ifMatch { headers.append(("IF-MATCH", ifMatch)) }
        if let xHTTPMethod { headers.append(("X-HTTP-Method", xHTTPMethod)) }
        return headers
    }

    /// `POST …/items` creating an item (answers `201` with the item and its etag).
    public static func createItem(
        in list: ListPath, entityType: String?, fields: [(String, JSONValue)], flavor: ODataFlavor, digest: String?
    ) -> RESTRequest {
        RESTRequest(
            method: "POST", path: list.items,
            headers: writeHeaders(flavor: flavor, contentType: flavor.mediaType, digest: digest),
            body: itemBody(fields: fields, entityType: entityType, flavor: flavor))
    }

    /// `POST …/items(ID)` with `X-HTTP-Method: MERGE` (or `PUT`) and `IF-MATCH` (answers `204`, new `ETag`
    /// header). Pass the item's ``ListItem/etag`` to detect concurrent changes (→ `412`), or `*` to overwrite.
    public static func updateItem(
        _ item: ItemPath, entityType: String?, fields: [(String, JSONValue)], ifMatch: String = "*",
        mode: UpdateMode = .merge, flavor: ODataFlavor, digest: String?
    ) -> RESTRequest {
        RESTRequest(
            method: "POST", path: item.path,
            headers: writeHeaders(
                flavor: flavor, contentType: flavor.mediaType, digest: digest, ifMatch: ifMatch,
                xHTTPMethod: mode.rawValue),
            body: itemBody(fields: fields, entityType: entityType, flavor: flavor))
    }

    /// `POST …/items(ID)` with `X-HTTP-Method: DELETE` and `IF-MATCH` (default `*`).
    public static func deleteItem(_ item: ItemPath, ifMatch: String = "*", flavor: ODataFlavor, digest: String?)
        -> RESTRequest
    {
        RESTRequest(
            method: "POST", path: item.path,
            headers: writeHeaders(
                flavor: flavor, contentType: nil, digest: digest, ifMatch: ifMatch, xHTTPMethod: "DELETE"),
            body: Data())
    }

    /// `POST …/$value` with `X-HTTP-Method: PUT`: replaces an existing file's content.
    public static func replaceFileContent(_ file: FilePath, content: Data, flavor: ODataFlavor, digest: String?)
        -> RESTRequest
    {
        RESTRequest(
            method: "POST", path: file.value,
            headers: writeHeaders(
                flavor: flavor, contentType: "application/octet-stream", digest: digest, xHTTPMethod: "PUT"),
            body: content)
    }

    /// A binary `POST` (file add, upload chunks): `Content-Type: application/octet-stream`.
    public static func binaryPost(_ path: RESTPath, content: Data, flavor: ODataFlavor, digest: String?)
        -> RESTRequest
    {
        RESTRequest(
            method: "POST", path: path,
            headers: writeHeaders(flavor: flavor, contentType: "application/octet-stream", digest: digest),
            body: content)
    }
}
