import Foundation
import SPSim
import TestSupport
import Testing

/// File names and paths inside `('…')` literals, sent exactly as a correct client puts them on the wire.
@Suite(.childProcesses) struct PathEscapingTests {
    static let library = "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')"

    /// A comma inside the quoted name does not end the `url` parameter, and the parameter after it still counts.
    @Test func commaInsideTheQuotedNameKeepsTheOtherParameters() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let digest = try await client.digest()
        let first = try await client.post(
            Self.library + "/Files/add(url='a,%20b.txt',overwrite=false)", body: Array("one".utf8), digest: digest)
        #expect(first.status == 200 && first.json?["Name"]?.string == "a, b.txt")
        let second = try await client.post(
            Self.library + "/Files/add(url='a,%20b.txt',overwrite=false)", body: Array("two".utf8), digest: digest)
        #expect(second.status == 400)
        #expect(second.json?["odata.error"]?["code"]?.string == "-2130575257, Microsoft.SharePoint.SPException")
        let quoted = try await client.post(
            Self.library + "/Files/add(url='it''s,%20ok.txt',overwrite=true)", body: Array("q".utf8), digest: digest)
        #expect(quoted.json?["Name"]?.string == "it's, ok.txt")
    }
}
