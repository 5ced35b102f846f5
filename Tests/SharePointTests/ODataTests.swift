import Foundation
import JSON
import SharePoint
import Testing

@Suite struct ODataEscapingTests {
    /// Title → `getbytitle(…)` segment: quotes doubled, then percent-encoded once.
    @Test(arguments: [
        ("Tasks", "getbytitle('Tasks')"),
        ("Team Tasks", "getbytitle('Team%20Tasks')"),
        ("It's", "getbytitle('It''s')"),
        ("'quoted'", "getbytitle('''quoted''')"),
        ("Q&A", "getbytitle('Q%26A')"),
        ("Issue #1", "getbytitle('Issue%20%231')"),
        ("100% done", "getbytitle('100%25%20done')"),
        ("a+b=c?", "getbytitle('a%2Bb=c%3F')"),
        ("Café Übersicht", "getbytitle('Caf%C3%A9%20%C3%9Cbersicht')"),
        ("日本", "getbytitle('%E6%97%A5%E6%9C%AC')"),
        ("Bob's #1 & 100%", "getbytitle('Bob''s%20%231%20%26%20100%25')"),
    ])
    func listTitleSegment(title: String, segment: String) {
        #expect(API.list(title: title).path.rawValue == "/_api/web/lists/" + segment)
    }

    @Test func literalsAndQuoting() {
        #expect(OData.escapeLiteral("It's Bob's") == "It''s Bob''s")
        #expect(OData.quoted("It's") == "'It''s'")
        #expect(OData.quoted("") == "''")
        #expect(OData.percentEncodeQueryValue("Paged=TRUE&p_ID=2") == "Paged%3DTRUE%26p_ID%3D2")
        #expect(OData.percentEncodeQueryValue("Title eq 'a+b #1'") == "Title%20eq%20'a%2Bb%20%231'")
        #expect(
            OData.percentEncodePath("/sites/team/Shared Documents/a b.docx")
                == "/sites/team/Shared%20Documents/a%20b.docx")
    }

    /// Display name → SharePoint internal name (`_xHHHH_`, lower-case hex, UTF-16 code unit).
    @Test(arguments: [
        ("My Field", "My_x0020_Field"),
        ("Shared Documents", "Shared_x0020_Documents"),
        ("Title", "Title"),
        ("a_b", "a_b"),
        ("Start-Date", "Start_x002d_Date"),
        ("Q&A", "Q_x0026_A"),
        ("50% #1", "_x0035_0_x0025__x0020__x0023_1"),
        ("Café", "Caf_x00e9_"),
        ("Größe", "Gr_x00f6__x00df_e"),
        ("Smile😀", "Smile_x0001f600_"),
        ("_x0020_", "_x005f_x0020_"),
    ])
    func internalNameEncoding(display: String, internalName: String) {
        #expect(OData.encodeName(display) == internalName)
        #expect(OData.decodeName(internalName) == display)
    }

    @Test(.enabled(if: Corpus.available, Corpus.absentMessage))
    func entityTypeNamesFromTheCorpusRoundTrip() throws {
        let page = try Page<ListInfo>.decode(try Corpus.data("lists_filtered_nometadata.json"))
        let full = try #require(page.items[1].listItemEntityTypeFullName)
        let encoded = String(full.dropFirst("SP.Data.".count).dropLast("ListItem".count))
        let decoded = OData.decodeName(encoded)
        #expect(decoded == "DO_NOT_DELETE_SPLIST_SITECOLLECTION_AGGREGATED_CON")
        #expect(OData.encodeName(decoded, encodeUnderscore: true) == encoded)
        let library = try ListInfo.decode(try Corpus.data("list_single_nometadata.json"))
        #expect(library.entityTypeName == OData.encodeName("Shared Documents"))
    }

    @Test func decodeLeavesMalformedEscapesAlone() {
        #expect(OData.decodeName("a_x00G0_b") == "a_x00G0_b")
        #expect(OData.decodeName("a_x0020") == "a_x0020")
        #expect(OData.decodeName("OData__x005f_ModerationStatus") == "OData__ModerationStatus")
    }

    @Test func newFieldInternalNamesAreCutAt32WithoutSplittingAnEscape() {
        #expect(OData.internalName(forNewField: "My Very Long Field Name Here") == "My_x0020_Very_x0020_Long_x0020_F")
        #expect(OData.internalName(forNewField: "Abcdefghijklmnopqrstuvwxyz12 X") == "Abcdefghijklmnopqrstuvwxyz12")
        #expect(OData.internalName(forNewField: "Short") == "Short")
    }

    @Test func jsonPropertyNames() {
        #expect(OData.jsonPropertyName(forInternalName: "_UIVersionString") == "OData__UIVersionString")
        #expect(OData.jsonPropertyName(forInternalName: "Title") == "Title")
    }
}

@Suite struct ODataQueryTests {
    @Test func fullQueryString() {
        let query = ODataQuery(
            select: ["Id", "Title", "Author/Title"], filter: .eq("Title", .string("It's & more")),
            orderBy: [.init("Modified", descending: true), .init("Id")], top: 100, expand: ["Author"],
            skipToken: ODataQuery.pagedSkipToken(afterID: 2))
        #expect(
            query.queryString
                == "$select=Id,Title,Author/Title&$filter=Title%20eq%20'It''s%20%26%20more'&$orderby=Modified%20desc,Id&$top=100&$expand=Author&$skiptoken=Paged%3DTRUE%26p_ID%3D2"
        )
    }

    @Test func emptyAndSingleOptions() {
        #expect(ODataQuery().queryString == "")
        #expect(ODataQuery().isEmpty)
        #expect(ODataQuery(top: 5000).queryString == "$top=5000")
        #expect(ODataQuery(filter: .eq("Hidden", .bool(false))).queryString == "$filter=Hidden%20eq%20false")
        #expect(ODataQuery(select: ["*"]).queryString == "$select=*")
    }

    @Test func filterBuilders() throws {
        let id = try #require(UUID(uuidString: "3DE2E36D-678F-459C-837A-2DB7C83AFD8B"))
        let date = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
        #expect(
            (ODataFilter.eq("Title", .string("a")) && .gt("Id", .integer(5))).expression
                == "(Title eq 'a') and (Id gt 5)")
        #expect(
            (ODataFilter.ne("Status", .null) || .le("Id", .integer(-1))).expression == "(Status ne null) or (Id le -1)")
        #expect(ODataFilter.ge("Created", .date(date)).expression == "Created ge datetime'2024-01-01T00:00:00Z'")
        #expect(ODataFilter.lt("Modified", .date(date)).expression == "Modified lt datetime'2024-01-01T00:00:00Z'")
        #expect(
            ODataFilter.eq("UniqueId", .guid(id)).expression == "UniqueId eq guid'3de2e36d-678f-459c-837a-2db7c83afd8b'"
        )
        #expect(ODataFilter.startsWith("Title", "O'Neil").expression == "startswith(Title,'O''Neil')")
        #expect(ODataFilter.substringOf("50%", "Title").expression == "substringof('50%',Title)")
        #expect(
            ODataQuery(filter: .substringOf("50%", "Title")).queryString == "$filter=substringof('50%25',Title)")
    }

    @Test func urlJoinsSitePathAndQuery() {
        let url = API.list(title: "It's").items.url(
            site: "https://contoso.sharepoint.com/sites/team/", query: ODataQuery(select: ["Id"], top: 2))
        #expect(
            url
                == "https://contoso.sharepoint.com/sites/team/_api/web/lists/getbytitle('It''s')/items?$select=Id&$top=2"
        )
        #expect(API.web.url(site: "https://contoso.sharepoint.com") == "https://contoso.sharepoint.com/_api/web")
    }
}

@Suite struct EndpointTests {
    static let listID = UUID(uuidString: "3de2e36d-678f-459c-837a-2db7c83afd8b")!
    static let uploadID = UUID(uuidString: "8b7a2c5e-1111-4a4a-9c9c-0123456789ab")!

    static let cases: [(RESTPath, String)] = [
        (API.root, "/_api"),
        (API.web, "/_api/web"),
        (API.site, "/_api/site"),
        (API.currentUser, "/_api/web/currentuser"),
        (API.lists, "/_api/web/lists"),
        (API.contextInfo, "/_api/contextinfo"),
        (API.list(title: "Team Tasks").path, "/_api/web/lists/getbytitle('Team%20Tasks')"),
        (
            API.list(id: EndpointTests.listID).path,
            "/_api/web/lists/getbyid(guid'3de2e36d-678f-459c-837a-2db7c83afd8b')"
        ),
        (API.list(title: "T").items, "/_api/web/lists/getbytitle('T')/items"),
        (API.list(title: "T").item(7).path, "/_api/web/lists/getbytitle('T')/items(7)"),
        (API.list(title: "T").item(7).fieldValuesAsText, "/_api/web/lists/getbytitle('T')/items(7)/FieldValuesAsText"),
        (API.list(title: "T").fields, "/_api/web/lists/getbytitle('T')/fields"),
        (
            API.folder(serverRelativeUrl: "/sites/team/Shared Documents").files,
            "/_api/web/GetFolderByServerRelativeUrl('/sites/team/Shared%20Documents')/Files"
        ),
        (
            API.folder(serverRelativeUrl: "/sites/team/Shared Documents").folders,
            "/_api/web/GetFolderByServerRelativeUrl('/sites/team/Shared%20Documents')/Folders"
        ),
        (
            API.file(serverRelativeUrl: "/sites/team/Shared Documents/Bob's #1.docx").value,
            "/_api/web/GetFileByServerRelativeUrl('/sites/team/Shared%20Documents/Bob''s%20%25231.docx')/$value"
        ),
        (
            // §6.3: `%` → `%25` and `#` → `%23` inside the literal first, then the URL is percent-encoded.
            API.file(serverRelativeUrl: "/sites/t/D/50% #1.txt").value,
            "/_api/web/GetFileByServerRelativeUrl('/sites/t/D/50%2525%20%25231.txt')/$value"
        ),
        (
            API.file(serverRelativePath: "/sites/t/D/50% #1.txt").value,
            "/_api/web/GetFileByServerRelativePath(decodedurl='/sites/t/D/50%25%20%231.txt')/$value"
        ),
        (
            API.folder(serverRelativePath: "/sites/t/It's").files,
            "/_api/web/GetFolderByServerRelativePath(decodedurl='/sites/t/It''s')/Files"
        ),
        (
            API.file(serverRelativeUrl: "/sites/t/D/a.txt").listItemAllFields,
            "/_api/web/GetFileByServerRelativeUrl('/sites/t/D/a.txt')/ListItemAllFields"
        ),
        (
            API.folder(serverRelativeUrl: "/sites/t/D").addFile(named: "a b.txt", overwrite: true),
            "/_api/web/GetFolderByServerRelativeUrl('/sites/t/D')/Files/add(url='a%20b.txt',overwrite=true)"
        ),
        (
            API.folder(serverRelativeUrl: "/sites/t/D").addFile(named: "x.bin", overwrite: false),
            "/_api/web/GetFolderByServerRelativeUrl('/sites/t/D')/Files/add(url='x.bin',overwrite=false)"
        ),
        (
            API.file(id: EndpointTests.listID).startUpload(uploadId: EndpointTests.uploadID),
            "/_api/web/GetFileById('3de2e36d-678f-459c-837a-2db7c83afd8b')/StartUpload(uploadId=guid'8b7a2c5e-1111-4a4a-9c9c-0123456789ab')"
        ),
        (
            API.file(serverRelativeUrl: "/sites/t/D/big.bin").continueUpload(
                uploadId: EndpointTests.uploadID, fileOffset: 10_485_760),
            "/_api/web/GetFileByServerRelativeUrl('/sites/t/D/big.bin')/ContinueUpload(uploadId=guid'8b7a2c5e-1111-4a4a-9c9c-0123456789ab',fileOffset=10485760)"
        ),
        (
            API.file(serverRelativeUrl: "/sites/t/D/big.bin").finishUpload(
                uploadId: EndpointTests.uploadID, fileOffset: 20_971_520),
            "/_api/web/GetFileByServerRelativeUrl('/sites/t/D/big.bin')/FinishUpload(uploadId=guid'8b7a2c5e-1111-4a4a-9c9c-0123456789ab',fileOffset=20971520)"
        ),
        (
            API.file(serverRelativeUrl: "/sites/t/D/big.bin").cancelUpload(uploadId: EndpointTests.uploadID),
            "/_api/web/GetFileByServerRelativeUrl('/sites/t/D/big.bin')/CancelUpload(uploadId=guid'8b7a2c5e-1111-4a4a-9c9c-0123456789ab')"
        ),
    ]

    @Test(arguments: cases)
    func path(_ path: RESTPath, expected: String) {
        #expect(path.rawValue == expected)
    }
}

@Suite struct RequestBuilderTests {
    static let fields: [(String, JSONValue)] = [
        ("Title", "Sunset \"2\""), ("Rating", 4), ("Done", false), ("TagsId", .array([1, 2])), ("Note", nil),
    ]

    @Test func verboseCreateItem() {
        let request = RESTRequest.createItem(
            in: API.list(title: "Photos"), entityType: "SP.Data.PhotosListItem", fields: Self.fields,
            flavor: .verbose, digest: "0xABC,05 Mar 2026 10:15:00 -0000")
        #expect(request.method == "POST")
        #expect(request.path.rawValue == "/_api/web/lists/getbytitle('Photos')/items")
        #expect(
            String(decoding: request.body ?? Data(), as: UTF8.self)
                == #"{"__metadata":{"type":"SP.Data.PhotosListItem"},"Title":"Sunset \"2\"","Rating":4,"#
                + #""Done":false,"TagsId":{"results":[1,2]},"Note":null}"#)
        #expect(
            request.headers.map { "\($0.0): \($0.1)" } == [
                "Accept: application/json;odata=verbose", "Content-Type: application/json;odata=verbose",
                "X-RequestDigest: 0xABC,05 Mar 2026 10:15:00 -0000",
            ])
    }

    @Test func nometadataCreateItemHasPlainFields() {
        let request = RESTRequest.createItem(
            in: API.list(title: "Photos"), entityType: "SP.Data.PhotosListItem",
            fields: [("Title", "Sunset"), ("TagsId", .array([1, 2]))],
            flavor: .noMetadata, digest: nil)
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self) == #"{"Title":"Sunset","TagsId":[1,2]}"#)
        #expect(request.header("accept") == "application/json;odata=nometadata")
        #expect(request.header("Content-Type") == "application/json;odata=nometadata")
        #expect(request.header("X-RequestDigest") == nil)
    }

    @Test(arguments: ODataFlavor.allCases)
    func mergeItem(flavor: ODataFlavor) throws {
        let request = RESTRequest.updateItem(
            API.list(title: "Photos").item(1), entityType: "SP.Data.PhotosListItem", fields: [("Title", "Sunset 2")],
            ifMatch: "\"1\"", flavor: flavor, digest: "0xD")
        #expect(request.method == "POST")
        #expect(request.path.rawValue == "/_api/web/lists/getbytitle('Photos')/items(1)")
        #expect(
            request.headers.map(\.0) == ["Accept", "Content-Type", "X-RequestDigest", "IF-MATCH", "X-HTTP-Method"])
        #expect(request.header("IF-MATCH") == "\"1\"")
        #expect(request.header("X-HTTP-Method") == "MERGE")
        #expect(request.header("Content-Type") == flavor.mediaType)
        let body = try JSONValue.parse(try #require(request.body))
        #expect(body["Title"] == "Sunset 2")
        #expect(body["__metadata"]?["type"]?.stringValue == (flavor == .verbose ? "SP.Data.PhotosListItem" : nil))
    }

    @Test func putDeleteContextInfoGetAndBinary() {
        let put = RESTRequest.updateItem(
            API.list(title: "T").item(3), entityType: nil, fields: [("Title", "x")], mode: .put, flavor: .verbose,
            digest: nil)
        #expect(put.header("X-HTTP-Method") == "PUT")
        #expect(put.header("IF-MATCH") == "*")
        #expect(String(decoding: put.body ?? Data(), as: UTF8.self) == #"{"Title":"x"}"#)

        let delete = RESTRequest.deleteItem(API.list(title: "T").item(3), flavor: .noMetadata, digest: "0xD")
        #expect(delete.headers.map(\.0) == ["Accept", "X-RequestDigest", "IF-MATCH", "X-HTTP-Method"])
        #expect(delete.header("X-HTTP-Method") == "DELETE")
        #expect(delete.body == Data())

        let context = RESTRequest.contextInfo(flavor: .verbose)
        #expect(context.method == "POST" && context.path == API.contextInfo && context.body == Data())
        #expect(
            context.url(site: "https://c.sharepoint.com/sites/t") == "https://c.sharepoint.com/sites/t/_api/contextinfo"
        )

        let get = RESTRequest.get(
            API.lists, query: ODataQuery(filter: .eq("Hidden", .bool(false))), flavor: .minimalMetadata)
        #expect(get.method == "GET" && get.body == nil)
        #expect(get.headers.map { "\($0.0): \($0.1)" } == ["Accept: application/json;odata=minimalmetadata"])
        #expect(get.url(site: "https://c/sites/t") == "https://c/sites/t/_api/web/lists?$filter=Hidden%20eq%20false")

        let replace = RESTRequest.replaceFileContent(
            API.file(serverRelativeUrl: "/sites/t/D/a.txt"), content: Data([9]), flavor: .verbose, digest: "0xD")
        #expect(replace.path.rawValue == "/_api/web/GetFileByServerRelativeUrl('/sites/t/D/a.txt')/$value")
        #expect(replace.header("X-HTTP-Method") == "PUT")
        #expect(replace.header("Content-Type") == "application/octet-stream")

        let chunk = RESTRequest.binaryPost(
            API.folder(serverRelativeUrl: "/sites/t/D").addFile(named: "a.txt", overwrite: true),
            content: Data([1, 2, 3]),
            flavor: .noMetadata, digest: "0xD")
        #expect(chunk.header("Content-Type") == "application/octet-stream")
        #expect(chunk.body == Data([1, 2, 3]))
    }

    @Test func flavorFromContentType() {
        #expect(ODataFlavor(contentType: "application/json;odata=verbose;charset=utf-8") == .verbose)
        #expect(
            ODataFlavor(contentType: "application/json;odata=minimalmetadata;streaming=true;charset=utf-8")
                == .minimalMetadata)
        #expect(ODataFlavor(contentType: "application/json; odata=nometadata; streaming=true") == .noMetadata)
        #expect(ODataFlavor(contentType: "text/plain; charset=utf-8") == nil)
    }
}
