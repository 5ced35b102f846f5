import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

@testable import spconnect_status

/// A hostile (or broken) site that answers every items request with 60,000 rows: a list page still shows its 30,
/// decodes no more, and its "next page" link goes on after the last one shown.
@Suite struct BoundedPageTests {
    static let rowsPerAnswer = 60_000

    /// Every items query the site received (`$skiptoken`, `$filter`), in order.
    final class Queries: Sendable {
        let all = Mutex<[String]>([])
    }

    /// `count` item rows with IDs from `first` (downwards when `descending`), as a nometadata collection body.
    static func rows(from first: Int, count: Int, descending: Bool = false) -> HTTPServerResponse {
        var text = #"{"value":["#
        let ids =
            descending ? Array(stride(from: first, to: max(0, first - count), by: -1)) : Array(first..<first + count)
        for (index, id) in ids.enumerated() {
            if index > 0 { text += "," }
            text += #"{"Id":\#(id),"ID":\#(id),"Title":"Row \#(id)","FieldValuesAsText":{"Title":"Row \#(id)"}}"#
        }
        text += "]}"
        return HTTPServerResponse(status: 200, contentType: "application/json;odata=nometadata", text: text)
    }

    /// The hostile site: a list `Big` of one Title field whose items requests all get 60,000 rows (after the
    /// `$skiptoken`'s ID, or below the `$filter`'s for the previous page's look-up).
    static func site(_ queries: Queries) throws -> HTTPServer {
        try HTTPServer { request in
            let path = request.path
            if path.hasSuffix("/items") {
                let skip = request.queryValue("$skiptoken") ?? ""
                let filter = request.queryValue("$filter") ?? ""
                queries.all.withLock { $0.append("skiptoken=\(skip) filter=\(filter)") }
                if filter.hasPrefix("ID lt "), let below = Int(filter.dropFirst("ID lt ".count)) {
                    return rows(from: below - 1, count: min(rowsPerAnswer, below - 1), descending: true)
                }
                let after = skip.components(separatedBy: "p_ID=").last.flatMap { Int($0) } ?? 0
                return rows(from: after + 1, count: rowsPerAnswer)
            }
            if path.hasSuffix("/fields") {
                return HTTPServerResponse(
                    status: 200, contentType: "application/json",
                    text: #"{"value":[{"InternalName":"Title","Title":"Title","TypeAsString":"Text"}]}"#)
            }
            if path.hasSuffix("getbytitle('Big')") {
                return HTTPServerResponse(
                    status: 200, contentType: "application/json",
                    text: #"{"Id":"0b5e2f1c-1111-4222-8333-944455556666","Title":"Big","ItemCount":60000,"BaseType":0}"#
                )
            }
            return HTTPServerResponse(
                status: 404, contentType: "application/json",
                text: #"{"odata.error":{"code":"-1, Microsoft.SharePoint.SPException","message":{"value":"none"}}}"#)
        }
    }

    /// The `>Row N<` cells on a page.
    static func rowIDs(_ page: String) -> [Int] {
        page.components(separatedBy: ">Row ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }

    @Test func aPageShowsItsThirtyRowsOfTheServersSixtyThousandAndTheNextPageGoesOn() async throws {
        let queries = Queries()
        let site = try Self.site(queries)
        defer { site.stop() }
        let fixture = try await StatusFixture(pageSize: 30) { $0.siteURL = site.baseURL }
        defer { fixture.stop() }

        let first = try await fixture.get("/lists/Big")
        // Bounded by what it asked, not by how long it took: one page of the 60,000 rows (a read of the whole list
        // would be 120 answers of 500).
        let asked = queries.all.withLock { $0 }
        #expect(asked.count == 1, "the first page asked \(asked.count) times: \(asked.prefix(5))")
        #expect(first.status == 200, "\(first.text.prefix(300))")
        #expect(Self.rowIDs(first.text) == Array(1...30))
        #expect(first.text.contains("showing 1–30"), "\(first.text.count) characters")
        #expect(first.text.utf8.count < 200_000, "the page is \(first.text.utf8.count) bytes")
        let next = try #require(
            first.text.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
                .first { $0.contains("after=") })
        #expect(next.contains("after=30"), "\(next)")

        let second = try await fixture.get(next.replacingOccurrences(of: "&amp;", with: "&"))
        #expect(second.status == 200, "\(second.text.prefix(300))")
        #expect(Self.rowIDs(second.text) == Array(31...60))
        #expect(second.text.contains("after=60"), "no next page after the second")
        #expect(second.text.contains("rel=\"prev\""), "no previous page")
        #expect(queries.all.withLock { $0 }.contains { $0.contains("p_ID=30") }, "\(queries.all.withLock { $0 })")
    }
}
