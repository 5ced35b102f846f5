import Foundation
import SPSim
import TestSupport
import Testing

/// The simulator's file versions, item versions, attachments and recycle bin, read raw: the member names and types
/// SharePoint sends (`Length` an Int64 string, `ID`/`VersionId` 512 × major), the envelope of each flavour, and the
/// state each write leaves.
@Suite(.childProcesses) struct ObjectRouteTests {
    /// The member names of an object, sorted.
    static func keys(_ value: JSONValue?) -> [String] {
        guard case .object(let members)? = value else { return [] }
        return members.keys.sorted()
    }

    static let documents = "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/Welcome.txt')"

    @Test func aFileReplacedTwiceListsItsTwoEarlierVersionsOldestFirst() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let digest = try await client.digest()
        for text in ["second", "third, longer"] {
            let put = try await client.post(
                Self.documents + "/$value", body: Array(text.utf8), headers: ["X-HTTP-Method: PUT"], digest: digest)
            #expect(put.status == 204, "\(put.body)")
        }
        let answer = try await client.get(Self.documents + "/Versions")
        #expect(answer.status == 200, "\(answer.body)")
        let versions = try #require(answer.json?["value"]?.array)
        #expect(versions.count == 2)
        #expect(
            Self.keys(versions.first) == [
                "CheckInComment", "Created", "ID", "IsCurrentVersion", "Length", "Size", "Url", "VersionLabel",
            ])
        #expect(versions.map { $0["VersionLabel"]?.string } == ["1.0", "2.0"])
        #expect(versions.map { $0["ID"]?.number.map { Int($0) } } == [512, 1024])
        #expect(versions.map { $0["Length"]?.string } == ["32", "6"])
        #expect(versions.allSatisfy { $0["IsCurrentVersion"] == .bool(false) })
        #expect(versions[0]["Url"]?.string == "_vti_history/512/Shared%20Documents/Welcome.txt")
        let file = try #require(try await client.get(Self.documents).json)
        #expect(file["UIVersionLabel"]?.string == "3.0")

        let verbose = try await client.get(
            Self.documents + "/Versions?$expand=CreatedBy", accept: "application/json;odata=verbose")
        let entries = try #require(verbose.json?["d"]?["results"]?.array)
        #expect(entries.first?["__metadata"]?["type"]?.string == "SP.FileVersion")
        #expect(entries.first?["CreatedBy"]?["Title"]?.string == "Alice Example")
    }

    @Test func anItemsVersionsComeNewestFirstWithTheirValues() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let merge = try await client.post(
            "/_api/web/lists/getbytitle('Tasks')/items(5)", body: Array(#"{"Title":"Fixed"}"#.utf8),
            headers: ["X-HTTP-Method: MERGE", "IF-MATCH: *"], digest: try await client.digest(),
            accept: "application/json;odata=nometadata")
        #expect(merge.status == 204, "\(merge.body)")
        let answer = try await client.get(
            "/_api/web/lists/getbytitle('Tasks')/items(5)/Versions", accept: "application/json;odata=minimalmetadata")
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.json?["odata.metadata"]?.string?.hasSuffix("#SP.ApiData.ListItemVersions") == true)
        let versions = try #require(answer.json?["value"]?.array)
        #expect(versions.map { $0["VersionLabel"]?.string } == ["2.0", "1.0"])
        #expect(versions.map { $0["VersionId"]?.number.map { Int($0) } } == [1024, 512])
        #expect(versions.map { $0["IsCurrentVersion"] } == [.bool(true), .bool(false)])
        #expect(versions.map { $0["Title"]?.string } == ["Fixed", "Fix the printer"])
        #expect(versions.first?["odata.type"]?.string == "SP.ListItemVersion")
        #expect(versions.first?["Editor"]?["LookupValue"]?.string == "Alice Example")
        let missing = try await client.get("/_api/web/lists/getbytitle('Tasks')/items(999)/Versions")
        #expect(missing.status == 404)
    }

    @Test func attachmentsAreListedReadAndAdded() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let item = "/_api/web/lists/getbytitle('Tasks')/items(1)"
        let listed = try #require(try await client.get(item + "/AttachmentFiles").json?["value"]?.array)
        #expect(listed.map { $0["FileName"]?.string } == ["agenda.txt", "O'Brien plan.txt"])
        #expect(
            Self.keys(listed.first) == [
                "FileName", "FileNameAsPath", "ServerRelativePath", "ServerRelativeUrl",
            ])
        #expect(
            listed.first?["ServerRelativePath"]?["DecodedUrl"]?.string == "/Lists/Tasks/Attachments/1/agenda.txt")
        let bytes = try await client.get(item + "/AttachmentFiles('O''Brien%20plan.txt')/$value")
        #expect(bytes.status == 200)
        #expect(bytes.body == "Quotes in attachment names are doubled.\n")
        #expect(try await client.get(item + "/AttachmentFiles('nope.txt')/$value").status == 404)

        let digest = try await client.digest()
        let added = try await client.post(
            "/_api/web/lists/getbytitle('Tasks')/items(2)/AttachmentFiles/add(FileName='new.txt')",
            body: Array("new".utf8), digest: digest, accept: "application/json;odata=nometadata")
        #expect(added.status == 200, "\(added.body)")
        let again = try await client.post(
            "/_api/web/lists/getbytitle('Tasks')/items(2)/AttachmentFiles/add(FileName='new.txt')",
            body: Array("new".utf8), digest: digest, accept: "application/json;odata=nometadata")
        #expect(again.status == 400)
        let names = try await client.get("/_api/web/lists/getbytitle('Tasks')/items(2)/AttachmentFiles")
        #expect(names.json?["value"]?.array?.map { $0["FileName"]?.string } == ["new.txt"])
    }

    @Test func recycleAnswersTheEntryIdAndTheBinListsIt() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let noDigest = try await client.post(Self.documents + "/recycle()")
        #expect(noDigest.status == 403, "a write without the digest")
        let digest = try await client.digest()
        let recycled = try await client.post(
            Self.documents + "/recycle()", digest: digest, accept: "application/json;odata=verbose")
        #expect(recycled.status == 200, "\(recycled.body)")
        let id = try #require(recycled.json?["d"]?["Recycle"]?.string)
        #expect(UUID(uuidString: id) != nil)
        #expect(try await client.get(Self.documents).status == 404)
        #expect(try await client.post(Self.documents + "/recycle()", digest: digest).status == 404)
        let forms = try await client.post(
            "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents/Forms')/recycle()", digest: digest)
        #expect(forms.status == 403, "the library's own Forms folder")

        let bin = try #require(try await client.get("/_api/web/RecycleBin").json?["value"]?.array)
        #expect(bin.map { $0["Id"]?.string } == [id])
        #expect(bin.first?["LeafName"]?.string == "Welcome.txt")
        #expect(bin.first?["DirName"]?.string == "Shared Documents")
        #expect(bin.first?["ItemType"]?.number.map { Int($0) } == 1)
    }
}
