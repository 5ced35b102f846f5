import Foundation
import JSON
import SharePoint
import Testing

private func data(_ text: String) -> Data { Data(text.utf8) }

/// Converts Foundation's JSONSerialization output to JSONValue (an independent oracle for the parser).
private func oracle(_ any: Any) -> JSONValue {
    switch any {
    case is NSNull: return .null
    case let s as String: return .string(s)
    case let n as NSNumber:
        // Booleans and numbers are not told apart here; `booleansAsNumbers` brings our side to the same form.
        let d = n.doubleValue
        return d.rounded() == d && abs(d) < 1e15 ? .integer(n.int64Value) : .double(d)
    case let a as [Any]: return .array(a.map(oracle))
    case let o as [String: Any]: return .object(o.map { ($0.key, oracle($0.value)) }.sorted { $0.0 < $1.0 })
    default: return .string("?\(type(of: any))")
    }
}

private func sortedKeys(_ value: JSONValue) -> JSONValue {
    switch value {
    case .bool(let b): return .integer(b ? 1 : 0)
    case .array(let a): return .array(a.map(sortedKeys))
    case .object(let o): return .object(o.map { ($0.0, sortedKeys($0.1)) }.sorted { $0.0 < $1.0 })
    default: return value
    }
}

@Suite struct JSONValueTests {
    @Test(.enabled(if: Corpus.available, Corpus.absentMessage))
    func parserAgreesWithJSONSerializationOnEveryJSONCapture() throws {
        var checked = 0
        for entry in Corpus.entries where entry["format"]?.stringValue == "json" {
            let file = try #require(entry["file"]?.stringValue)
            let bytes = try Corpus.data(file)
            let ours = try JSONValue.parse(bytes)
            let theirs = oracle(try JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed]))
            #expect(sortedKeys(ours) == theirs, "\(file)")
            // Encoding and parsing again is lossless and keeps member order.
            #expect(try JSONValue.parse(ours.encoded()) == ours, "\(file)")
            checked += 1
        }
        #expect(checked == 18)
    }
}

/// The same entities written in the three flavours (shapes from docs/sharepoint-protocol.md §6.2) decode to
/// the same values.
@Suite struct FlavorTests {
    static let web: [(ODataFlavor, String)] = [
        (
            .verbose,
            #"{"d":{"__metadata":{"id":"https://c/sites/team/_api/Web","uri":"https://c/sites/team/_api/Web","#
                + #""type":"SP.Web"},"Lists":{"__deferred":{"uri":"https://c/sites/team/_api/Web/Lists"}},"#
                + #""Title":"Team","Url":"https://c/sites/team","ServerRelativeUrl":"/sites/team","#
                + #""Id":"6f1c0000-0000-0000-0000-000000000001","Created":"2021-10-04T07:41:04.663"}}"#
        ),
        (
            .minimalMetadata,
            #"{"odata.metadata":"https://c/sites/team/_api/$metadata#SP.Web","odata.type":"SP.Web","#
                + #""odata.id":"https://c/sites/team/_api/Web","odata.editLink":"Web","Title":"Team","#
                + #""Url":"https://c/sites/team","ServerRelativeUrl":"/sites/team","#
                + #""Id":"6f1c0000-0000-0000-0000-000000000001","Created":"2021-10-04T07:41:04.663Z"}"#
        ),
        (
            .noMetadata,
            #"{"Title":"Team","Url":"https://c/sites/team","ServerRelativeUrl":"/sites/team","#
                + #""Id":"6f1c0000-0000-0000-0000-000000000001","Created":"2021-10-04T09:41:04.663+02:00"}"#
        ),
    ]

    @Test(arguments: web)
    func webDecodesTheSameInEveryFlavor(flavor: ODataFlavor, body: String) throws {
        let web = try Web.decode(data(body))
        #expect(web.title == "Team")
        #expect(web.url == "https://c/sites/team")
        #expect(web.serverRelativeUrl == "/sites/team")
        #expect(web.id == "6f1c0000-0000-0000-0000-000000000001")
        let created = try #require(web.created)
        #expect(abs(created.timeIntervalSince1970 - 1_633_333_264.663) < 0.001)
        #expect(web.metadata.type == (flavor == .noMetadata ? nil : "SP.Web"))
        #expect(web.entity.properties.map(\.0) == ["Title", "Url", "ServerRelativeUrl", "Id", "Created"])
    }

    static let pages: [(ODataFlavor, String)] = [
        (
            .verbose,
            #"{"d":{"results":[{"__metadata":{"id":"x","uri":"https://c/_api/Web/Lists(guid'1')/Items(1)","#
                + #""etag":"\"3\"","type":"SP.Data.TasksListItem"},"Author":{"__deferred":{"uri":"u"}},"Id":1,"#
                + #""Title":"A","TagsId":{"__metadata":{"type":"Collection(Edm.Int32)"},"results":[4,5]}}],"#
                + #""__next":"https://c/_api/Web/Lists(guid'1')/Items?%24skiptoken=Paged%3dTRUE%26p_ID%3d1&%24top=1"}}"#
        ),
        (
            .minimalMetadata,
            #"{"odata.metadata":"https://c/_api/$metadata#SP.ListData.TasksListItems","value":[{"#
                + #""odata.type":"SP.Data.TasksListItem","odata.id":"x","odata.etag":"\"3\"","#
                + #""odata.editLink":"Web/Lists(guid'1')/Items(1)","Id":1,"Title":"A","TagsId":[4,5]}],"#
                + #""odata.nextLink":"https://c/_api/Web/Lists(guid'1')/Items?%24skiptoken=Paged%3dTRUE%26p_ID%3d1&%24top=1"}"#
        ),
        (
            .noMetadata,
            #"{"odata.nextLink":"https://c/_api/Web/Lists(guid'1')/Items?%24skiptoken=Paged%3dTRUE%26p_ID%3d1&%24top=1","#
                + #""value":[{"Id":1,"Title":"A","TagsId":[4,5]}]}"#
        ),
    ]

    @Test(arguments: pages)
    func itemPageDecodesTheSameInEveryFlavor(flavor: ODataFlavor, body: String) throws {
        let page = try Page<ListItem>.decode(data(body))
        #expect(
            page.nextLink == "https://c/_api/Web/Lists(guid'1')/Items?%24skiptoken=Paged%3dTRUE%26p_ID%3d1&%24top=1")
        #expect(page.items.count == 1)
        let item = page.items[0]
        #expect(item.id == 1)
        #expect(item.fields.map(\.0) == ["Id", "Title", "TagsId"])
        #expect(item["TagsId"] == .array([4, 5]))
        #expect(item.etag == (flavor == .noMetadata ? nil : "\"3\""))
        #expect(item.entityType == (flavor == .noMetadata ? nil : "SP.Data.TasksListItem"))
    }

    /// Annotations (`odata.*` and `Name@odata.*`) are metadata, not properties; an `@` elsewhere in a name is kept.
    @Test func annotationsAreNotProperties() throws {
        let entity = try ODataEntity(
            json: JSONValue.parse(
                Data(
                    (#"{"odata.type":"SP.Data.TasksListItem","Author@odata.navigationLinkUrl":"Web/x","#
                        + #""Title":"a@b","E@mail":"kept","Odd@odata":"kept too","x@odata.y@odata.z":"gone"}"#)
                        .utf8)))
        #expect(entity.properties.map(\.0) == ["Title", "E@mail", "Odd@odata"])
        #expect(entity.metadata.type == "SP.Data.TasksListItem")
    }

    @Test func lastPageHasNoNextLink() throws {
        #expect(try Page<ListItem>.decode(data(#"{"d":{"results":[]}}"#)).nextLink == nil)
        #expect(try Page<ListItem>.decode(data(#"{"value":[]}"#)).nextLink == nil)
        #expect(throws: SharePointError.self) { try Page<ListItem>.decode(data(#"{"Title":"not a collection"}"#)) }
        #expect(throws: SharePointError.self) { try Web.decode(data(#"{"value":[]}"#)) }
    }

    @Test func contextInfoInVerboseAndLight() throws {
        let verbose = try ContextInfo.decode(
            data(
                #"{"d":{"GetContextWebInformation":{"__metadata":{"type":"SP.ContextWebInformation"},"#
                    + #""FormDigestTimeoutSeconds":1800,"FormDigestValue":"0xAB,05 Mar 2026 10:15:00 -0000","#
                    + #""LibraryVersion":"16.0.25000.12000","SiteFullUrl":"https://c/sites/team","#
                    + #""SupportedSchemaVersions":{"__metadata":{"type":"Collection(Edm.String)"},"#
                    + #""results":["14.0.0.0","15.0.0.0"]},"WebFullUrl":"https://c/sites/team"}}}"#))
        let light = try ContextInfo.decode(
            data(
                #"{"FormDigestTimeoutSeconds":1800,"FormDigestValue":"0xAB,05 Mar 2026 10:15:00 -0000","#
                    + #""LibraryVersion":"16.0.25000.12000","SiteFullUrl":"https://c/sites/team","#
                    + #""SupportedSchemaVersions":["14.0.0.0","15.0.0.0"],"WebFullUrl":"https://c/sites/team"}"#))
        #expect(verbose == light)
        #expect(verbose.formDigestValue == "0xAB,05 Mar 2026 10:15:00 -0000")
        #expect(verbose.supportedSchemaVersions == ["14.0.0.0", "15.0.0.0"])
        #expect(verbose.webFullUrl == "https://c/sites/team")
        #expect(verbose.reuseInterval == 1740)
    }

    @Test func uploadOffsetsInEveryForm() throws {
        #expect(try UploadResult.offset(data(#"{"value":"10485760"}"#)) == 10_485_760)
        #expect(try UploadResult.offset(data(#"{"d":{"StartUpload":"10485760"}}"#)) == 10_485_760)
        #expect(try UploadResult.offset(data(#"{"d":{"ContinueUpload":"20971520"}}"#)) == 20_971_520)
        #expect(try UploadResult.offset(data(#"{"value":31457280}"#)) == 31_457_280)
        #expect(throws: SharePointError.self) { try UploadResult.offset(data(#"{"value":"ten"}"#)) }
    }

    @Test func fileLengthAcceptsNumbersAndFolderAndFieldsDecode() throws {
        let file = try File.decode(
            data(
                #"{"d":{"__metadata":{"type":"SP.File"},"Name":"a.txt","ServerRelativeUrl":"/sites/t/D/a.txt","#
                    + #""Length":5000000000,"TimeCreated":"2024-03-29T17:55:08Z","UniqueId":"u"}}"#))
        #expect(file.length == 5_000_000_000)
        #expect(file.metadata.type == "SP.File")
        #expect(file.timeCreated == Date(timeIntervalSince1970: 1_711_734_908))

        let folder = try Folder.decode(
            data(
                #"{"Name":"D","ServerRelativeUrl":"/sites/t/D","ItemCount":3,"TimeLastModified":"2024-03-29T17:55:08Z"}"#
            ))
        #expect(folder.name == "D" && folder.itemCount == 3 && folder.serverRelativeUrl == "/sites/t/D")

        let fields = try Page<Field>.decode(
            data(
                #"{"value":[{"InternalName":"My_x0020_Field","Title":"My Field","TypeAsString":"Text","#
                    + #""Hidden":false,"ReadOnlyField":true,"Indexed":true,"Required":false,"FieldTypeKind":2}]}"#))
        let field = try #require(fields.items.first)
        #expect(field.internalName == "My_x0020_Field")
        #expect(OData.decodeName(field.internalName) == field.title)
        #expect(field.hidden == false && field.readOnly == true && field.indexed == true && field.required == false)
    }

    @Test func textValuesOfAnItem() throws {
        let pairs = try ListItem.textValues(
            data(
                #"{"d":{"__metadata":{"type":"SP.FieldStringValues"},"ID":"1","Created":"10/12/2022 1:07 AM","X":null}}"#
            ))
        #expect(pairs.map { "\($0.0)=\($0.1)" } == ["ID=1", "Created=10/12/2022 1:07 AM", "X="])
    }

    @Test func dates() {
        #expect(ODataDate.parse("2024-03-29T17:55:08Z") == Date(timeIntervalSince1970: 1_711_734_908))
        #expect(ODataDate.parse("2024-03-29T17:55:08") == Date(timeIntervalSince1970: 1_711_734_908))
        #expect(ODataDate.parse("2024-03-29T19:55:08+02:00") == Date(timeIntervalSince1970: 1_711_734_908))
        #expect(ODataDate.parse("/Date(1711734908000)/") == Date(timeIntervalSince1970: 1_711_734_908))
        #expect(ODataDate.parse("10/12/2022 1:07 AM") == nil)
        #expect(ODataDate.parse("2024-13-01T00:00:00Z") == nil)
        #expect(ODataDate.parse("2024-03-29T17:55:08Zjunk") == nil)
    }
}
