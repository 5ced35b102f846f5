import Foundation
import JSON
import LocalFiles
import SPSim
import SharePoint
import TestSupport
import Testing

/// File properties, versions, attachments and the recycle bin: the decoders on the captures that show those shapes
/// (`SP.File` with `CheckOutType`, `CheckInComment`, `UIVersionLabel`, `UniqueId`, `ETag`) and, for the shapes no
/// capture shows yet (`SP.FileVersion`, `SP.ListItemVersion`, `SP.Attachment`, `recycle()`'s answer), in every flavour
/// against the simulator.
struct ObjectModelTests {
    @Suite(.enabled(if: Corpus.available, Corpus.absentMessage))
    struct Captures {
        @Test func anAddedFileReadsItsVersionCheckOutAndIdentity() throws {
            let file = try File.decode(try Corpus.data("file_add_nometadata.json"))
            #expect(file.checkOutType == CheckOutType.none)
            #expect(file.checkOutType?.isCheckedOut == false)
            #expect(file.checkInComment == "")
            #expect(file.uiVersionLabel == "1.0")
            #expect(file.uniqueId == "fc3ef14e-2127-4995-8b35-119bc34f3748")
            #expect(file.etag == "\"{FC3EF14E-2127-4995-8B35-119BC34F3748},1\"")
            #expect(file.author == nil && file.modifiedBy == nil, "not expanded in the capture")
        }

        @Test(arguments: ["folder_files_minimalmetadata.json", "folder_files_nometadata.json"])
        func listedFilesReadTheirProperties(_ capture: String) throws {
            let page = try Page<File>.decode(try Corpus.data(capture))
            #expect(!page.items.isEmpty)
            for file in page.items {
                #expect(file.checkOutType == CheckOutType.none, "\(file.name)")
                #expect(file.uiVersionLabel == "\(file.majorVersion ?? -1).0", "\(file.name)")
                // The ETag's number counts every save, not the major version (clipboard.txt: 1.0, ETag …,3).
                #expect(file.etag?.hasPrefix("\"{\(file.uniqueId?.uppercased() ?? "?")},") == true, "\(file.name)")
            }
        }
    }

    @Test func checkOutTypesReadAsSharePointNumbersThem() {
        #expect(CheckOutType(rawValue: 0) == .online)
        #expect(CheckOutType(rawValue: 1) == .offline)
        #expect(CheckOutType(rawValue: 2) == CheckOutType.none)
        #expect(CheckOutType(rawValue: 7) == .other(7))
        #expect(CheckOutType(rawValue: 0).isCheckedOut)
    }

    @Test func aMissingAttachmentOrListAddressIsAMissingFileNotAMissingItem() {
        func body(_ code: String, _ message: String) -> Data {
            Data(#"{"odata.error":{"code":"\#(code)","message":{"lang":"en-US","value":"\#(message)"}}}"#.utf8)
        }
        let missingFile = body("-2130575338, Microsoft.SharePoint.SPException", "The file does not exist.")
        let fileNotFound = body("-2147024894, System.IO.FileNotFoundException", "File Not Found.")
        let api = "https://contoso.sharepoint.com/sites/team/_api/web"
        let item = api + "/lists/getbytitle('Tasks')/items(7)"
        let attachment = SharePointError(
            status: 404, headers: [:], body: missingFile, url: item + "/AttachmentFiles('a.txt')/$value")
        #expect(attachment.kind == .fileNotFound)
        #expect(
            SharePointError(status: 404, headers: [:], body: fileNotFound, url: item + "/AttachmentFiles('a.txt')")
                .kind == .fileNotFound)
        // The CSOM-style answer of a missing item shares the missing file's code: the URL decides.
        #expect(SharePointError(status: 404, headers: [:], body: missingFile, url: item).kind == .itemNotFound)
        // `GetList('…')` of an address that is no list's answers "File Not Found." below it too.
        let byAddress = SharePointError(
            status: 404, headers: [:], body: fileNotFound, url: api + "/GetList('/sites/team/Taks')/items(7)/Versions")
        #expect(byAddress.kind == .fileNotFound)
    }

    @Test(arguments: [ODataFlavor.noMetadata, .minimalMetadata, .verbose])
    func aReplacedFileKeepsItsEarlierVersion(flavor: ODataFlavor) async throws {
        let fixture = try SiteFixture(mode: .basic, flavor: flavor)
        defer { fixture.sim.stop() }
        let scratch = try temporaryDirectory("client")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let local = scratch + "/v.txt"
        try Data("one".utf8).write(to: URL(fileURLWithPath: local))
        _ = try await fixture.site.upload(file: local, toFolder: "/Shared Documents")
        try Data("two, longer".utf8).write(to: URL(fileURLWithPath: local))
        _ = try await fixture.site.upload(file: local, toFolder: "/Shared Documents")

        let versions = try await fixture.site.fileVersions(serverRelativeURL: "/Shared Documents/v.txt")
        #expect(versions.map(\.label) == ["1.0"])
        #expect(versions.first?.id == 512)
        #expect(versions.first?.length == 3)
        #expect(versions.first?.isCurrent == false)
        #expect(versions.first?.url?.hasPrefix("_vti_history/512/") == true)
        let file = try await fixture.site.fileProperties(serverRelativeURL: "/Shared Documents/v.txt")
        #expect(file.uiVersionLabel == "2.0")
        #expect(file.length == 11)
        #expect(file.author?.title == "Alice Example", "$expand=Author in \(flavor)")
        #expect(file.modifiedBy?.email == aliceEmail, "$expand=ModifiedBy in \(flavor)")
    }

    @Test(arguments: [ODataFlavor.noMetadata, .minimalMetadata, .verbose])
    func anUpdatedItemListsEachVersionWithItsValues(flavor: ODataFlavor) async throws {
        let fixture = try SiteFixture(mode: .basic, flavor: flavor)
        defer { fixture.sim.stop() }
        _ = try await fixture.site.updateItem(
            in: .title("Tasks"), id: 4, fields: [("Title", .string("Update the wiki!"))])
        let versions = try await fixture.site.itemVersions(in: .title("Tasks"), id: 4)
        #expect(versions.map(\.label) == ["2.0", "1.0"])
        #expect(versions.map(\.isCurrent) == [true, false])
        #expect(versions.map(\.id) == [1024, 512])
        #expect(versions[0].fields.first { $0.0 == "Title" }?.1 == .string("Update the wiki!"))
        #expect(versions[1].fields.first { $0.0 == "Title" }?.1 == .string("Update the wiki"))
        #expect(!versions[0].fields.contains { $0.0 == "VersionLabel" || $0.0 == "IsCurrentVersion" })
        #expect(versions[0].created != nil)
    }

    @Test(arguments: [ODataFlavor.noMetadata, .minimalMetadata, .verbose])
    func attachmentsAreListedAndSavedOnlyWhereNothingIs(flavor: ODataFlavor) async throws {
        let fixture = try SiteFixture(mode: .basic, flavor: flavor)
        defer { fixture.sim.stop() }
        let attachments = try await fixture.site.attachments(in: .title("Tasks"), id: 1)
        #expect(attachments.map(\.fileName) == ["agenda.txt", "O'Brien plan.txt"])
        #expect(attachments.map(\.serverRelativeUrl).first == "/Lists/Tasks/Attachments/1/agenda.txt")

        let scratch = try temporaryDirectory("client")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folder = try LocalFolder(path: scratch)
        let size = try await fixture.site.downloadAttachment(
            named: "O'Brien plan.txt", in: .title("Tasks"), id: 1, into: folder, as: "plan.txt", replacing: false)
        #expect(size == 40)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: scratch + "/plan.txt"))
        let refused = await sharePointError {
            try await fixture.site.downloadAttachment(
                named: "O'Brien plan.txt", in: .title("Tasks"), id: 1, into: folder, as: "plan.txt", replacing: false)
        }
        #expect(refused?.kind == .alreadyExists)
        #expect(try String(contentsOfFile: scratch + "/plan.txt", encoding: .utf8) == "mine")
        #expect(folder.names() == ["plan.txt"], "no temporary file left")
        let missing = await sharePointError {
            try await fixture.site.downloadAttachment(
                named: "nope.txt", in: .title("Tasks"), id: 1, into: folder, as: "x")
        }
        #expect(missing?.kind == .fileNotFound, "a missing attachment is no missing item")
    }

    @Test(arguments: [ODataFlavor.noMetadata, .minimalMetadata, .verbose])
    func recycledFilesAndFoldersAreInTheRecycleBin(flavor: ODataFlavor) async throws {
        let fixture = try SiteFixture(mode: .basic, flavor: flavor)
        defer { fixture.sim.stop() }
        let id = try #require(try await fixture.site.recycleFile(serverRelativeURL: "/Shared Documents/Welcome.txt"))
        _ = try await fixture.site.createFolder(named: "Old", in: "/Shared Documents")
        let folderId = try #require(try await fixture.site.recycleFolder(serverRelativeURL: "/Shared Documents/Old"))
        let gone = await sharePointError {
            _ = try await fixture.site.file(serverRelativeURL: "/Shared Documents/Welcome.txt")
        }
        #expect(gone?.kind == .fileNotFound)
        let again = await sharePointError {
            try await fixture.site.recycleFile(serverRelativeURL: "/Shared Documents/Welcome.txt")
        }
        #expect(again?.kind == .fileNotFound)
        var bin: [UUID?] = []
        for try await entry in fixture.site.pages(API.web.appending("RecycleBin"), of: RecycleBinEntry.self).elements {
            bin.append(entry.id)
        }
        #expect(bin == [id, folderId])
    }
}

/// An `SP.RecycleBinItem`, as far as these tests read it.
private struct RecycleBinEntry: ODataDecodable {
    let id: UUID?
    init(entity: ODataEntity) throws(SharePointError) { id = entity.uuid("Id") }
}
