import Foundation
import SharePoint
import Testing

/// The addressing rule of docs/cli.md ("Addressing lists, folders and files"), pure: what a word names.
@Suite struct SiteAddressingTests {
    let team = SiteAddressing(siteURL: "https://contoso.sharepoint.com/sites/team/")

    @Test func aListIsATitleAnIdOrAnAddress() throws {
        #expect(try team.list("Tasks") == .title("Tasks", fallbackAddress: "/sites/team/Tasks"))
        let id = UUID()
        #expect(try team.list("{\(id.uuidString)}") == .id(id))
        #expect(try team.list("Lists/Tasks") == .address("/sites/team/Lists/Tasks"))
        #expect(
            try team.list("https://contoso.sharepoint.com/sites/team/Lists/Tasks/AllItems.aspx")
                == .address("/sites/team/Lists/Tasks"))
    }

    @Test func aRelativePathMayStartWithALibraryTitle() throws {
        let reference = try team.path("Documents/Reports/", container: true)
        #expect(reference.path == "/sites/team/Documents/Reports")
        #expect(reference.titleAndRest?.title == "Documents" && reference.titleAndRest?.rest == "/Reports")
        let absolute = try team.path("/sites/team/Shared Documents//a.txt", container: false)
        #expect(absolute.path == "/sites/team/Shared Documents/a.txt" && absolute.titleAndRest == nil)
    }

    @Test func browserAddressesNameTheFolderTheyShow() throws {
        let modern =
            "https://contoso.sharepoint.com/sites/team/Shared%20Documents/Forms/AllItems.aspx"
            + "?id=%2Fsites%2Fteam%2FShared%20Documents%2FReports"
        #expect(try team.path(modern, container: true).path == "/sites/team/Shared Documents/Reports")
        let sharing = "https://contoso.sharepoint.com/:f:/r/sites/team/Shared%20Documents/Plans?csf=1"
        #expect(try team.path(sharing, container: true).path == "/sites/team/Shared Documents/Plans")
        #expect(
            try team.path("Shared%20Documents/a.txt", container: false).path == "/sites/team/Shared Documents/a.txt")
    }

    @Test func anAddressOnAnotherHostIsRefusedWithTheWayOut() {
        #expect {
            _ = try team.path("https://fabrikam.sharepoint.com/sites/team/Documents", container: true)
        } throws: { error in
            "\(error)".contains("fabrikam.sharepoint.com") && "\(error)".contains("--profile")
        }
    }
}
