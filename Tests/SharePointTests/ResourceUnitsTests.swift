import Testing
import Transport

@testable import SharePoint

/// The resource units a request costs, as Microsoft publishes them.
@Suite struct ResourceUnitsTests {
    static let site = "https://contoso.sharepoint.com/sites/team"

    static func cost(_ method: String, _ path: String, body: [UInt8]? = nil) -> Int {
        var request = HTTPRequest(method: method, url: site + path)
        if let body { request.body = .bytes(body) }
        return ResourceUnits.cost(of: request)
    }

    @Test func readsWritesAndPermissions() {
        #expect(Self.cost("GET", "/_api/web") == 1)
        #expect(Self.cost("GET", "/_api/web/lists/getbytitle('Big')/items?$top=5000") == 2)
        #expect(Self.cost("GET", "/_api/web/lists/getbytitle('Big')/items(42)") == 1)
        #expect(Self.cost("GET", "/_api/web/GetFileByServerRelativePath(decodedurl='/a.docx')/$value") == 1)
        #expect(Self.cost("GET", "/_api/web/GetFolderByServerRelativeUrl('/Docs')/Files") == 2)
        #expect(Self.cost("POST", "/_api/web/lists/getbytitle('Big')/items") == 2)
        #expect(Self.cost("DELETE", "/_api/web/lists/getbytitle('Big')/items(4)") == 2)
        #expect(Self.cost("GET", "/_api/web/roleassignments?$expand=Member") == 5)
        #expect(Self.cost("GET", "/_api/web/lists/getbytitle('Big')/items(4)?$expand=RoleAssignments") == 5)
        #expect(Self.cost("POST", "/_api/contextinfo") == 1)
    }

    @Test func changeQueriesCostLessWithAToken() {
        let withToken = Array(#"{"query":{"ChangeTokenStart":{"StringValue":"1;3;x;1;-1"}}}"#.utf8)
        #expect(Self.cost("POST", "/_api/web/lists/getbytitle('Docs')/GetChanges", body: withToken) == 1)
        #expect(
            Self.cost("POST", "/_api/web/lists/getbytitle('Docs')/GetChanges", body: Array(#"{"query":{}}"#.utf8)) == 2)
    }

    @Test func aBatchCostsEveryRequestInIt() {
        let body = """
            --batch_1
            Content-Type: application/http

            GET https://contoso.sharepoint.com/sites/team/_api/web/lists/getbytitle('Big')/items(1) HTTP/1.1
            Accept: application/json

            --batch_1
            Content-Type: application/http

            DELETE https://contoso.sharepoint.com/sites/team/_api/web/lists/getbytitle('Big')/items(2) HTTP/1.1

            --batch_1
            Content-Type: application/http

            GET https://contoso.sharepoint.com/sites/team/_api/web/roleassignments HTTP/1.1

            --batch_1--
            """
        #expect(Self.cost("POST", "/_api/$batch", body: Array(body.utf8)) == 1 + 2 + 5)
    }
}
