import Foundation
import FuzzSupport
import JSON

// Fuzz target: SharePoint response bodies (Modules/SharePoint: ODataDocument.swift, Values.swift, OData.swift and
// the error body reader).
//
// The input is a response body, read as a page of items, files, lists and fields, as single entities, as an error
// body for several statuses, and for the names and dates in it. Oracles:
// - the streamed page decode (`Page.decode(bytes:)`, what paging uses) gives the same page, or the same error, as
//   the tree decode (`Page.decode(_:)`), as documented; when both succeed the next-link peek agrees with the page;
// - a date read from a string is within JavaScript's date range (renderers turn it back into Int64 milliseconds);
// - every member name survives `OData.decodeName(OData.encodeName(_:))` unchanged (scalar for scalar), and
//   `internalName(forNewField:)` is a prefix of the encoding of at most 32 characters.
@testable import SharePoint

func fuzzOData(_ bytes: [UInt8]) {
    let data = Data(bytes)
    comparePages(ListItem.self, bytes, data)
    comparePages(File.self, bytes, data)
    comparePages(ListInfo.self, bytes, data)
    comparePages(Field.self, bytes, data)
    comparePages(Folder.self, bytes, data)

    _ = try? Web.decode(data)
    _ = try? User.decode(data)
    _ = try? ContextInfo.decode(data)
    _ = try? ListItem.decode(data)
    _ = try? ListItem.textValues(data)
    _ = try? UploadResult.offset(data)
    if let document = try? ODataDocument(data: data) {
        _ = try? document.scalar()
        _ = (document.isVerbose, document.metadataURL)
        if let entity = try? document.entity() {
            readAll(entity)
        }
    }

    let retryAfter = Fuzz.text(bytes.prefix(32))
    // An error code of "" or "," once trapped the error reader (fixed; docs/fuzzing.md, crash 6).
    for status in [400, 401, 403, 404, 409, 429, 500, 503] {
        let error = SharePointError(
            status: status, headers: [("Retry-After", retryAfter), ("Content-Type", "application/json")], body: data,
            url: "https://contoso.sharepoint.com/sites/team/_api/web/lists/getbytitle('Docs')/items(7)")
        _ = error.description
        _ = error.headers.retryAfter(now: Date(timeIntervalSince1970: 1_700_000_000))
    }

    if let root = try? JSONValue.parse(bytes: bytes) {
        var budget = 64
        visit(root, budget: &budget)
    }
}

func comparePages<T: ODataDecodable & Equatable>(_ type: T.Type, _ bytes: [UInt8], _ data: Data) {
    let tree = Result { () throws(SharePointError) in try Page<T>.decode(data) }
    let streamed = Result { () throws(SharePointError) in try Page<T>.decode(bytes: bytes) }
    switch (tree, streamed) {
    case (.success(let a), .success(let b)):
        Fuzz.check(a.items == b.items, "\(T.self): the streamed page's items differ from the tree's")
        Fuzz.check(a.nextLink == b.nextLink, "\(T.self): next link \(a.nextLink ?? "nil") vs \(b.nextLink ?? "nil")")
        Fuzz.check(a.metadataURL == b.metadataURL, "\(T.self): metadata URL differs")
        if let peeked = Page<T>.peekNextLink(bytes: bytes) {
            Fuzz.check(peeked == a.nextLink, "\(T.self): peeked next link \(peeked) vs \(a.nextLink ?? "nil")")
        }
        for item in a.items.prefix(4) {
            if let item = item as? ListItem { _ = ListItem.textValues(of: item.fields) }
        }
    case (.failure(let a), .failure(let b)):
        Fuzz.check(a == b, "\(T.self): the tree decode failed with \(a), the streamed one with \(b)")
    case (.success, .failure(let error)):
        Fuzz.check(false, "\(T.self): the tree decode succeeded, the streamed one failed: \(error)")
    case (.failure(let error), .success):
        Fuzz.check(false, "\(T.self): the streamed decode succeeded, the tree one failed: \(error)")
    }
}

func readAll(_ entity: ODataEntity) {
    for (name, _) in entity.properties.prefix(16) {
        _ = (entity.string(name), entity.int(name), entity.int64(name), entity.bool(name), entity.date(name))
        _ = (entity.uuid(name), entity.entity(name), entity.collection(name))
    }
    _ = entity.deferred.first.map { entity.deferredURI($0.0) }
}

/// Checks the name codec on member names and reads string values as dates, for a bounded number of values.
func visit(_ value: JSONValue, budget: inout Int) {
    guard budget > 0 else { return }
    budget -= 1
    switch value {
    case .string(let text):
        // A date is within JavaScript's range (±8.64e15 ms, what ISO 8601 years 0000-9999 stay within too): every
        // renderer can turn it back into milliseconds.
        if let date = ODataDate.parse(text) {
            Fuzz.check(abs(date.timeIntervalSince1970) <= 8.64e12, "\(text) read as \(date.timeIntervalSince1970) s")
        }
    case .array(let elements):
        for element in elements { visit(element, budget: &budget) }
    case .object(let members):
        if let entity = try? ODataEntity(json: value) {
            _ = (entity.metadata, value.odataType)
        }
        for (name, member) in members {
            checkNameCodec(name)
            visit(member, budget: &budget)
        }
    default:
        break
    }
}

func checkNameCodec(_ name: String) {
    for underscore in [false, true] {
        let encoded = OData.encodeName(name, encodeUnderscore: underscore)
        Fuzz.check(encoded.unicodeScalars.allSatisfy(\.isASCII), "encodeName(\(name)) is not ASCII: \(encoded)")
        let decoded = OData.decodeName(encoded)
        Fuzz.check(
            Array(decoded.unicodeScalars) == Array(name.unicodeScalars),
            "decodeName(encodeName(\(name.debugDescription))) = \(decoded.debugDescription) via \(encoded)")
    }
    let internalName = OData.internalName(forNewField: name)
    Fuzz.check(internalName.count <= 32, "internal name \(internalName) is longer than 32")
    Fuzz.check(OData.encodeName(name).hasPrefix(internalName), "internal name \(internalName) is not a prefix")
    _ = OData.jsonPropertyName(forInternalName: internalName)
    _ = (OData.pathLiteral(name), OData.serverRelativeURLLiteral(name), OData.percentEncodeQueryValue(name))
}

@main enum Main {
    static func main() { Fuzz.main(fuzzOData) }
}
