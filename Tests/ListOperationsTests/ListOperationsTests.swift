import CommandLineKit
import ListOperations
import Presentation
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

/// The list engine against an in-process spsim, with no spconnect process: a selection checked against the list's
/// fields, items as records page by page up to a cap, a library's items joined with their files.
@Suite struct ListOperationsTests {
    private func site() throws -> (Simulator, SharePointSite) {
        let sim = try Simulator(SimulatorOptions(mode: .basic))
        let site = SharePointSite(
            client: try HTTPClient(), siteURL: sim.siteURL + "/",
            authentication: .basic(user: aliceEmail, password: Secret(alicePassword)))
        return (sim, site)
    }

    @Test func aMisspelledFieldIsRefusedWithTheClosestNames() async throws {
        let (sim, site) = try site()
        defer { Task { await sim.stop() } }
        do {
            _ = try await FieldSelection.checked(["Titel"], in: .title("Tasks"), named: "Tasks", site: site)
            Issue.record("a field the list does not have was accepted")
        } catch let error as UsageError {
            #expect(error.description.contains("no field 'Titel'"), "\(error.description)")
            #expect(error.description.contains("did you mean Title"), "\(error.description)")
        }
    }

    @Test func itemsComePageByPageUpToTheCapWithTheirIDFirst() async throws {
        let (sim, site) = try site()
        defer { Task { await sim.stop() } }
        var request = ItemQuery()
        request.select = ["title"]
        request.cap = 3
        request.pageSize = 2
        var export = try await ItemExport(site: site, list: .title("Tasks"), named: "Tasks", request: request)
        var records: [Record] = []
        var pages = 0
        while try await export.nextPage({ records.append($0) }) != nil { pages += 1 }
        #expect(records.count == 3 && pages == 2, "\(records.count) records in \(pages) pages")
        let columns = export.columns(sample: records.first, forPeople: false).map(\.field)
        #expect(columns == ["Id", "Title"], "\(columns)")
    }

    @Test func aLibrarysItemsComeWithTheirFiles() async throws {
        let (sim, site) = try site()
        defer { Task { await sim.stop() } }
        let files = try await LibraryFiles.read(.title("Photos"), select: ["Title"], limit: 3, site: site)
        #expect(files.count == 3, "\(files.map(\.file.name))")
        for found in files {
            #expect(found.item.fileURL?.lowercased() == found.file.serverRelativeUrl.lowercased())
            #expect(found.file.length > 0)
        }
    }
}
