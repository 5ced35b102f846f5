import Foundation
import HTTPServer

/// The change log over REST: `POST web/GetChanges` and `POST web/lists/…/GetChanges` with an `SP.ChangeQuery` body
/// (`{"query":{"Add":true,"Update":true,"DeleteObject":true,"Item":true,"ChangeTokenStart":{"StringValue":"…"},
/// "FetchLimit":1000}}`) answer the changes after the start token, oldest first, as `SP.ChangeItem` entities; a token
/// from before the log's retention (`Simulator.truncateChangeLog()`) → 500 `SPInvalidChangeTokenException`.
extension SimulatorCore {
    /// `POST web/GetChanges`: every list's changes (tokens of scope 2, the web).
    func webChangesEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        try changes(of: nil, match.context)
    }

    /// `POST web/lists(guid'…')/GetChanges`, `web/lists/getbytitle('…')/GetChanges`, `…/getbyid('…')/GetChanges`.
    func listChangesEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        let lists = match.matched[1]
        let list: SPList
        if match.matched.count == 3, let id = lists.guidArgument {
            list = try self.list(byId: id)
        } else if match.matched.count == 4, match.matched[2].lower == "getbytitle",
            let title = match.matched[2].stringArgument
        {
            list = try self.list(byTitle: title, context: match.context)
        } else if match.matched.count == 4, match.matched[2].lower == "getbyid", let id = match.matched[2].guidArgument
        {
            list = try self.list(byId: id)
        } else {
            throw RESTError.invalidQuery("The expression \"\(match.apiPath.dropFirst())\" is not valid.")
        }
        return try changes(of: list, match.context)
    }

    /// The changes of `list` (or of the web) the query in the body asks for.
    private func changes(of list: SPList?, _ context: RESTContext) throws -> HTTPServerResponse {
        guard context.request.method == "POST" else {
            throw RESTError(
                status: 405, code: "-1, System.InvalidOperationException",
                message:
                    "The HTTP method 'GET' cannot be used to access the resource 'GetChanges'. The operation type of the resource is specified as 'Default'. Please use correct HTTP method to invoke the resource."
            )
        }
        try requireDigest(context)
        let body = parseJSONObject(context.request.body)
        guard let query = (body?["query"] ?? (body?["d"] as? [String: Any])?["query"]) as? [String: Any] else {
            throw RESTError.argument("The parameter query is required.")
        }
        let start = try Self.startNumber(query)
        let limit = max(1, min((query["FetchLimit"] as? Int) ?? 1000, 2000))
        let flag = { (name: String) in (query[name] as? Bool) ?? false }
        let kinds: Set<Int> = Set(
            [("Add", 1), ("Update", 2), ("DeleteObject", 3), ("Rename", 4), ("Move", 5), ("Move", 6)].filter {
                flag($0.0)
            }.map(\.1))
        let (items, files, folders) = (flag("Item"), flag("File"), flag("Folder"))
        let (found, tooOld) = state.withLock { state in
            let tooOld = start.map { state.changes.isTooOld($0) } ?? false
            let found = state.changes.changes(after: start ?? 0, listId: list?.id, limit: limit) { change in
                guard kinds.contains(change.kind.rawValue) else { return false }
                if change.isFolder { return items || folders }
                return items || (files && change.uniqueId != "" && !change.serverRelativeUrl.hasSuffix("_.000"))
            }
            return (found, tooOld)
        }
        if tooOld {
            throw RESTError(
                status: 500, code: "-2146232832, Microsoft.SharePoint.SPInvalidChangeTokenException",
                message: "The changeToken refers to a time before the start of the current change log.")
        }
        let (scope, scopeId) = list.map { (3, $0.id) } ?? (2, webId)
        let entries = found.map { change in
            applySelect(changeEntity(change, scope: scope, scopeId: scopeId, context), context.query)
        }
        return jsonResponse(collection(entries, set: "SP.ChangeItem", next: nil, context: context), context)
    }

    /// The change number of `ChangeTokenStart` (nil: none given, from the start of the log); a token that is not
    /// `1;scope;guid;ticks;number` → 400.
    private static func startNumber(_ query: [String: Any]) throws -> Int? {
        guard let start = query["ChangeTokenStart"], !(start is NSNull) else { return nil }
        let text = (start as? [String: Any])?["StringValue"] as? String ?? start as? String ?? ""
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 5, let number = Int(parts[4]), number >= 0 else {
            throw RESTError.argument("The change token '\(text)' is not valid.")
        }
        return number
    }

    /// One change as `SP.ChangeItem` (the properties SharePoint Online sends that a client reads).
    private func changeEntity(_ change: SPChange, scope: Int, scopeId: String, _ context: RESTContext) -> JSON {
        let token = ChangeLog.token(scope: scope, id: scopeId, time: change.time, number: change.number)
        return entity(
            type: "SP.ChangeItem", path: "SP.ChangeItem\(change.number)", set: "SP.ChangeItem",
            props: [
                ("ChangeToken", complex("SP.ChangeToken", [("StringValue", .string(token))], context)),
                ("ChangeType", .int(change.kind.rawValue)), ("SiteId", .string(siteId)),
                ("Time", .string(CivilTime(change.time).iso)),
                ("FileSystemObjectType", .int(change.isFolder ? 1 : 0)), ("ItemId", .int(change.itemId)),
                ("ListId", .string(change.listId)), ("ServerRelativeUrl", .string(change.serverRelativeUrl)),
                ("UniqueId", .string(change.uniqueId)), ("WebId", .string(webId)),
            ], deferred: [], context: context, top: false)
    }

    /// The web's or a list's `CurrentChangeToken` value: the last change's number, now.
    func currentChangeToken(scope: Int, id: String) -> String {
        let number = state.withLock { $0.changes.lastNumber }
        return ChangeLog.token(scope: scope, id: id, time: nowEpoch(), number: number)
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let webChanges = RESTRoute("web/getchanges") { try $0.webChangesEndpoint($1) }
    static let listsChanges = RESTRoute("web/lists/getchanges") { try $0.listChangesEndpoint($1) }
    static let listChanges = RESTRoute("web/lists/*/getchanges") { try $0.listChangesEndpoint($1) }
}
