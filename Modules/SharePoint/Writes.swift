import Foundation
public import JSON

extension SharePointSite {
    /// Creates an item: `POST …/items` with the request digest. Returns the new item (with its etag when the
    /// flavour carries one, else the response's `ETag` header).
    ///
    /// `fields` are JSON property names and values (lookups and people as `…Id`). In verbose the list's
    /// `ListItemEntityTypeFullName` is read once and sent as `__metadata.type`. Never repeated automatically
    /// (a repeat could create a duplicate): a 429/503 is surfaced as ``SharePointError/Kind/throttled``.
    public func addItem(to list: ListPath, fields: [(String, JSONValue)]) async throws(SharePointError) -> ListItem {
        let entityType = flavor == .verbose ? try await itemEntityType(of: list) : nil
        let body = RESTRequest.itemBody(fields: fields, entityType: entityType, flavor: flavor)
        let exchange = Exchange.write(
            self, list.items.url(site: siteURL), body: .bytes(Array(body)), contentType: flavor.mediaType,
            repeatable: false)
        let response = try await perform(exchange)
        var item: ListItem = try decodeEntity(response)
        if item.etag == nil, let etag = response.header("ETag") { item.etag = etag }
        return item
    }

    /// Changes some fields of an item: `POST …/items(ID)` with `X-HTTP-Method: MERGE` and `IF-MATCH: etag`
    /// (`*`, the default, overwrites whatever is there). Returns the new etag (`ETag` header), when sent.
    ///
    /// A stale etag → ``SharePointError/Kind/preconditionFailed``: reload the item and apply the change again.
    public func updateItem(in list: ListPath, id: Int, fields: [(String, JSONValue)], etag: String = "*")
        async throws(SharePointError) -> String?
    {
        let entityType = flavor == .verbose ? try await itemEntityType(of: list) : nil
        let body = RESTRequest.itemBody(fields: fields, entityType: entityType, flavor: flavor)
        let url = list.item(id).path.url(site: siteURL)
        let ifMatch = try checkedEtag(etag, url: url)
        let exchange = Exchange.write(
            self, url, headers: [("IF-MATCH", ifMatch), ("X-HTTP-Method", "MERGE")],
            body: .bytes(Array(body)), contentType: flavor.mediaType, repeatable: true)
        return try await perform(exchange).header("ETag")
    }

    /// Deletes an item: `POST …/items(ID)` with `X-HTTP-Method: DELETE` and `IF-MATCH: etag` (default `*`).
    /// A stale etag → ``SharePointError/Kind/preconditionFailed``; a missing item →
    /// ``SharePointError/Kind/itemNotFound``.
    public func deleteItem(in list: ListPath, id: Int, etag: String = "*") async throws(SharePointError) {
        let url = list.item(id).path.url(site: siteURL)
        let ifMatch = try checkedEtag(etag, url: url)
        let exchange = Exchange.write(
            self, url, headers: [("IF-MATCH", ifMatch), ("X-HTTP-Method", "DELETE")],
            body: .none, contentType: nil, repeatable: true)
        _ = try await perform(exchange)
    }
}
