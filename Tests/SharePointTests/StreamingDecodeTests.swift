import Foundation
import JSON
import SPSim
import Testing
import Transport

@testable import SharePoint

/// Any entity, kept whole: lets the item-by-item decode be compared with the tree decode on every body.
private struct AnyEntity: ODataDecodable, Equatable {
    let entity: ODataEntity
    init(entity: ODataEntity) throws(SharePointError) { self.entity = entity }
}

/// The outcome of a decode, comparable: the page's parts, or the error's text.
private enum Outcome<Element: ODataDecodable & Equatable>: Equatable {
    case page([Element], String?, String?)
    case failure(String)

    init(_ decode: () throws(SharePointError) -> Page<Element>) {
        do {
            let page = try decode()
            self = .page(page.items, page.nextLink, page.metadataURL)
        } catch {
            self = .failure(String(describing: error))
        }
    }
}

private func expectSameDecode(_ bytes: [UInt8], _ comment: Comment? = nil) {
    // The link peeked with the items skipped is the decoded page's (when the page decodes).
    if let page = try? Page<ListItem>.decode(bytes: bytes) {
        #expect(Page<ListItem>.peekNextLink(bytes: bytes) == page.nextLink, comment)
    }
    #expect(
        Outcome<AnyEntity> { () throws(SharePointError) in try Page<AnyEntity>.decode(bytes: bytes) }
            == Outcome<AnyEntity> { () throws(SharePointError) in try Page<AnyEntity>.decode(Data(bytes)) }, comment)
    #expect(
        Outcome<ListItem> { () throws(SharePointError) in try Page<ListItem>.decode(bytes: bytes) }
            == Outcome<ListItem> { () throws(SharePointError) in try Page<ListItem>.decode(Data(bytes)) }, comment)
}

@Suite struct StreamingDecodeTests {
    @Test(.enabled(if: Corpus.available, Corpus.absentMessage)) func sameAsTheTreeDecodeOnEveryCapture() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Corpus.directory.path)
            .filter { $0.hasSuffix(".json") && $0 != "manifest.json" }.sorted()
        #expect(files.contains("items_verbose_collection.json"))
        #expect(files.contains("items_nometadata_page_nextlink.json"))
        for file in files {
            expectSameDecode(Array(try Corpus.data(file)), "\(file)")
        }
        // The item captures really are pages of items, decoded the same way.
        for file in ["items_verbose_collection.json", "items_nometadata_page_nextlink.json"] {
            let bytes = Array(try Corpus.data(file))
            let streamed = try Page<ListItem>.decode(bytes: bytes)
            #expect(!streamed.items.isEmpty)
            #expect(streamed.items == (try Page<ListItem>.decode(Data(bytes))).items)
        }
    }

    @Test(arguments: [ODataFlavor.verbose, .noMetadata, .minimalMetadata])
    func sameAsTheTreeDecodeOnASimulatorPage(flavor: ODataFlavor) async throws {
        let fixture = try SiteFixture(mode: .anonymous, items: 1200)
        defer { fixture.sim.stop() }
        let response = try await fixture.client.execute(
            HTTPRequest(
                url: fixture.sim.siteURL + "/_api/web/lists/getbytitle('Big')/items?$top=1000",
                headers: ["Accept": flavor.mediaType]))
        #expect(response.status == 200)
        let streamed = try Page<ListItem>.decode(bytes: response.body)
        let tree = try Page<ListItem>.decode(Data(response.body))
        #expect(streamed.items.count == 1000)
        #expect(streamed.items == tree.items)
        #expect(streamed.nextLink != nil)
        #expect(streamed.nextLink == tree.nextLink)
        #expect(streamed.metadataURL == tree.metadataURL)
        expectSameDecode(response.body, "\(flavor)")
    }

    @Test(arguments: [
        #"{"d":{"results":[{"Id":1,"Title":"a"},{"Id":2}],"__next":"https://x/next"}}"#,
        #"{"value":[{"Id":1}],"odata.nextLink":"https://x/next","odata.metadata":"m"}"#,
        #"{"d":{"results":[]}}"#, #"{"value":[]}"#, #"{"Title":"not a collection"}"#, "[]", "5", "",
        // Element errors: the first non-object wins over an earlier entity without an id, as in the tree decode.
        #"{"d":{"results":[{"Title":"no id"},5,{"Id":3}]}}"#, #"{"value":[{"Title":"no id"},{"Id":2}]}"#,
        #"{"value":[{"Id":1},"x"]}"#,
        // A syntax error after an element error is the error reported.
        #"{"d":{"results":[{"Title":"no id"}]},"x":}"#, #"{"value":[{"Id":1},]}"#, #"{"value":[{"Id":1}"#,
        // Repeated names: the first one counts.
        #"{"d":{"results":"no","results":[{"Id":1}]}}"#, #"{"d":{"results":[{"Id":1}],"results":[{"Id":2}]}}"#,
        #"{"value":[{"Id":1}],"value":[{"Id":2}]}"#, #"{"d":5,"d":{"results":[{"Id":1}]}}"#,
        // Both envelopes, or a `d` that is not an object.
        #"{"value":[{"Id":1}],"d":{"results":[{"Id":2}]}}"#, #"{"d":{"results":[{"Id":2}]},"value":[{"Id":1}]}"#,
        #"{"d":[],"results":[{"Id":1}],"value":[{"Id":2}]}"#, #"{"d":{"x":1},"value":[{"Id":1}]}"#,
        #"{"d":{"results":{"results":[{"Id":1}]}}}"#, #"{"value":{"value":[{"Id":1}]}}"#,
    ])
    func sameAsTheTreeDecodeOnOddBodies(body: String) {
        expectSameDecode(Array(body.utf8), "\(body)")
    }

    /// Keeping at most N items: the first N, as the full decode has them; the rest only counted (not decoded, so
    /// an element after them that is no entity does not fail the page); the next link kept; N beyond the page
    /// changes nothing.
    @Test(arguments: [
        #"{"d":{"results":[{"Id":1},{"Id":2},{"Id":3},"not an entity"],"__next":"https://x/next"}}"#,
        #"{"value":[{"Id":1},{"Id":2},{"Id":3},5],"odata.nextLink":"https://x/next"}"#,
    ])
    func aPageKeptAtMostNItemsHasTheFirstNAndCountsTheRest(body: String) throws {
        let page = try Page<ListItem>.decode(bytes: Array(body.utf8), keepingAtMost: 2)
        #expect(page.items.map(\.id) == [1, 2])
        #expect(page.droppedItems == 2)
        #expect(page.nextLink == "https://x/next")
        let whole = #"{"value":[{"Id":1},{"Id":2}]}"#
        let all = try Page<ListItem>.decode(bytes: Array(whole.utf8), keepingAtMost: 5)
        #expect(all.items.map(\.id) == [1, 2] && all.droppedItems == 0)
        #expect(throws: SharePointError.self) { try Page<ListItem>.decode(bytes: Array(body.utf8)) }
    }
}
