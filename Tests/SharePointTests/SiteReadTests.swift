import Foundation
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

/// End-to-end tests of `SharePointSite` against spsim over loopback HTTP. Serialized: they share two cores and
/// the download test measures this process's memory.
@Suite(.serialized) struct SiteClientTests {}

extension SiteClientTests {
    @Suite struct Reads {
        @Test(arguments: [ODataFlavor.noMetadata, .verbose])
        func webUserListsAndFields(flavor: ODataFlavor) async throws {
            let fixture = try SiteFixture(mode: .basic, flavor: flavor)
            defer { fixture.sim.stop() }
            let site = fixture.site

            let web = try await site.web()
            #expect(web.title == "SPSim Team")
            #expect(web.url == fixture.sim.siteURL)
            #expect(web.serverRelativeUrl == "/")
            #expect(!web.id.isEmpty)
            #expect(web.metadata.type == (flavor == .verbose ? "SP.Web" : nil))

            let user = try await site.currentUser()
            #expect(user.id == 10)
            #expect(user.title == "Alice Example")
            #expect(user.email == aliceEmail)
            #expect(user.loginName == "i:0#.w|contoso\\alice")

            let visible = try await site.lists()
            let titles = visible.map(\.title)
            #expect(titles.contains("Tasks"))
            #expect(titles.contains("Documents"))
            #expect(visible.allSatisfy { $0.hidden == false })
            let everything = try await site.lists(includeHidden: true)
            #expect(everything.count >= visible.count)

            let tasks = try await site.list(title: "Tasks")
            #expect(tasks.listItemEntityTypeFullName == "SP.Data.TasksListItem")
            #expect(tasks.itemCount == 20)
            let byId = try await site.list(id: try #require(UUID(uuidString: tasks.id)))
            #expect(byId.title == "Tasks")
            let byType = try await site.list(entityTypeName: "SP.Data.TasksListItem")
            #expect(byType.id == tasks.id)
            let documents = try await site.list(entityTypeName: "Shared_x0020_Documents")
            #expect(documents.title == "Documents")

            let fields = try await site.fields(of: .title("Tasks"))
            let priority = try #require(fields.first { $0.internalName == "Priority" })
            #expect(priority.typeAsString == "Number")
            #expect(fields.contains { $0.internalName == "Title" && $0.typeAsString == "Text" })
            let filtered = try await site.fields(
                of: try #require(tasks.path), query: ODataQuery(filter: .eq("Hidden", .bool(false))))
            #expect(filtered.allSatisfy { $0.hidden == false })
            #expect(filtered.count < fields.count)
        }

        @Test(arguments: [ODataFlavor.noMetadata, .verbose])
        func defaultViewFields(flavor: ODataFlavor) async throws {
            let fixture = try SiteFixture(mode: .basic, flavor: flavor)
            defer { fixture.sim.stop() }
            let tasks = try await fixture.site.defaultViewFields(of: .title("Tasks"))
            #expect(tasks.first == "Checkmark")
            #expect(tasks.contains("LinkTitle") && tasks.last == "Editor")
            let documents = try await fixture.site.defaultViewFields(of: .title("Documents"))
            #expect(documents == ["DocIcon", "LinkFilename", "Modified", "Editor"])
            #expect(fixture.logged("/DefaultView/ViewFields").count == 2)
            await #expect(throws: SharePointError.self) {
                try await fixture.site.defaultViewFields(of: .title("No such list"))
            }
        }

        @Test(arguments: [ODataFlavor.noMetadata, .verbose])
        func itemsDecodeWithEtagsAndText(flavor: ODataFlavor) async throws {
            let fixture = try SiteFixture(mode: .anonymous, flavor: flavor)
            defer { fixture.sim.stop() }
            let site = fixture.site
            var titles: [String] = []
            for try await item in site.items(in: .title("Tasks")).elements {
                titles.append(item["Title"]?.stringValue ?? "")
                #expect(item.entityType == (flavor == .verbose ? "SP.Data.TasksListItem" : nil))
            }
            #expect(titles.count == 20)
            #expect(titles.first == "Plan the kickoff")
            #expect(titles.contains("O'Brien's onboarding"))

            let item = try await site.item(in: .title("Tasks"), id: 3)
            #expect(item.id == 3)
            #expect(item["Title"]?.stringValue == "Order new laptops")
            #expect(item.etag == "\"1\"")

            let text = try await site.fieldValuesAsText(in: .title("Tasks"), id: 3)
            #expect(text.contains { $0.0 == "Title" && $0.1 == "Order new laptops" })

            let files = try await site.files(inFolder: "/Shared Documents")
            let large = try #require(files.first { $0.name == "large.bin" })
            #expect(large.length == 8 * 1024 * 1024)
            #expect(files.contains { $0.name == "O'Brien notes.txt" })
            let folders = try await site.folders(inFolder: "/Shared Documents")
            #expect(folders.map(\.serverRelativeUrl) == ["/Shared Documents/Forms"])
            let metadata = try await site.file(serverRelativeURL: "/Shared Documents/O'Brien notes.txt")
            #expect(metadata.name == "O'Brien notes.txt")
        }

        /// 12,345 generated items: every id once, in order; each page requested once, with the server's link;
        /// the same when each page is requested while the one before is being read.
        @Test(arguments: [ODataFlavor.noMetadata, .verbose], [false, true])
        func pagingFollowsTheServersNextLinksExactly(flavor: ODataFlavor, readingAhead: Bool) async throws {
            let fixture = try SiteFixture(mode: .anonymous, flavor: flavor, items: 12_345)
            defer { fixture.sim.stop() }
            var expected = 1
            var links: [String] = []
            var pageCount = 0
            let pages = fixture.site.items(in: .title("Big"), query: ODataQuery(select: ["Id", "Title"], top: 500))
            #expect(pages.readsAhead == false)
            for try await page in readingAhead ? pages.readingAhead() : pages {
                pageCount += 1
                for item in page.items {
                    #expect(item.id == expected)
                    expected += 1
                }
                if let next = page.nextLink { links.append(next) }
            }
            #expect(expected == 12_346)
            #expect(pageCount == 25)
            #expect(links.count == 24)

            let requests = fixture.logged("/items", method: "GET").map(\.query)
            #expect(requests.count == 25)
            #expect(Set(requests).count == 25, "every page is requested exactly once")
            #expect(requests.first == "$select=Id,Title&$top=500")
            // Pages 2…25 went to exactly the URLs the server wrote, query strings byte for byte.
            let following = Array(requests.dropFirst())
            #expect(following == links.map { String($0.split(separator: "?", maxSplits: 1)[1]) })
            #expect(links.allSatisfy { $0.hasPrefix(fixture.sim.siteURL + "/_api/") })
        }

        /// Reading ahead asks for the page after the one handed out, and no further: a caller that stops after the
        /// first page has caused two requests, and the page it never used is dropped without trouble. Reading on,
        /// every page is requested once.
        @Test func readingAheadStaysOnePageAhead() async throws {
            let fixture = try SiteFixture(mode: .anonymous, items: 6_000)
            defer { fixture.sim.stop() }
            let pages = fixture.site.items(in: .title("Big"), query: ODataQuery(select: ["Id"], top: 1_000))
                .readingAhead()
            do {
                var iterator = pages.makeAsyncIterator()
                let first = try #require(try await iterator.next())
                #expect(first.items.map(\.id) == Array(1...1_000))
                try await Task.sleep(for: .milliseconds(500))
                #expect(
                    fixture.logged("/items", method: "GET").count == 2,
                    "the second page was requested while the caller held the first, and no other")
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(fixture.logged("/items", method: "GET").count == 2)

            var ids: [Int] = []
            for try await page in pages { ids += page.items.map(\.id) }
            #expect(ids == Array(1...6_000))
            let requests = fixture.logged("/items", method: "GET").dropFirst(2).map(\.query)
            #expect(requests.count == 6)
            #expect(Set(requests).count == 6, "every page is requested exactly once")
        }

        @Test func queryOptionsPassThrough() async throws {
            let fixture = try SiteFixture(mode: .anonymous)
            defer { fixture.sim.stop() }
            let query = ODataQuery(
                select: ["Id", "Title", "Priority"], filter: .ge("Priority", .integer(2)),
                orderBy: [.init("Title", descending: true)], top: 4)
            var pages: [Page<ListItem>] = []
            for try await page in fixture.site.items(in: .title("Tasks"), query: query) { pages.append(page) }
            let items = pages.flatMap(\.items)
            #expect(pages.first?.items.count == 4)
            #expect(pages.count > 1)
            #expect(items.allSatisfy { ($0["Priority"]?.doubleValue ?? 0) >= 2 })
            #expect(items.allSatisfy { Set($0.fields.map(\.0)).isSubset(of: ["Id", "ID", "Title", "Priority"]) })
            let titles = items.compactMap { $0["Title"]?.stringValue }
            #expect(titles == titles.sorted { $0.lowercased() > $1.lowercased() })
            let first = try #require(fixture.logged("getbytitle('Tasks')/items").first)
            #expect(first.query == "$select=Id,Title,Priority&$filter=Priority%20ge%202&$orderby=Title%20desc&$top=4")
        }

        @Test func thresholdAndNotFoundErrors() async throws {
            let fixture = try SiteFixture(mode: .anonymous, items: 6000)
            defer { fixture.sim.stop() }
            let site = fixture.site
            let unindexed = ODataQuery(filter: .eq("Number", .integer(5)))
            let threshold = await sharePointError {
                for try await _ in site.items(in: .title("Big"), query: unindexed) {}
            }
            #expect(threshold?.kind == .thresholdExceeded)
            #expect(threshold?.description.contains("Filter on an indexed column") == true)
            #expect(threshold?.url?.contains("getbytitle('Big')/items") == true)

            // An indexed column is fine above the threshold.
            var red = 0
            for try await item in site.items(
                in: .title("Big"), query: ODataQuery(filter: .eq("Category", .string("Red")), top: 5000)
            ).elements {
                #expect(item["Category"]?.stringValue == "Red")
                red += 1
            }
            #expect(red > 1000)

            let tooMany = await sharePointError {
                for try await _ in site.items(in: .title("Big"), query: ODataQuery(top: 5001)) {}
            }
            #expect(tooMany?.kind == .thresholdExceeded)

            let missingList = await sharePointError { _ = try await site.list(title: "Nope") }
            #expect(missingList?.kind == .listNotFound)
            #expect(missingList?.status == 404)
            #expect(missingList?.url == fixture.sim.siteURL + "/_api/web/lists/getbytitle('Nope')")
            let missingItems = await sharePointError {
                for try await _ in site.items(in: .title("Nope")).elements {}
            }
            #expect(missingItems?.kind == .listNotFound)
            let missingById = await sharePointError { _ = try await site.list(id: UUID()) }
            #expect(missingById?.kind == .listNotFound)
            let missingType = await sharePointError { _ = try await site.list(entityTypeName: "SP.Data.NopeListItem") }
            #expect(missingType?.kind == .listNotFound)
            let missingItem = await sharePointError { _ = try await site.item(in: .title("Tasks"), id: 999) }
            #expect(missingItem?.kind == .itemNotFound)
            let missingFile = await sharePointError {
                _ = try await site.file(serverRelativeURL: "/Shared Documents/none.txt")
            }
            #expect(missingFile?.kind == .fileNotFound)
        }

        @Test func transportFailuresAreSharePointErrors() async throws {
            let fixture = try SiteFixture(mode: .anonymous)
            let refusing = try RefusingPort()
            let url = refusing.baseURL + "/sites/gone"
            let site = SharePointSite(client: fixture.client, siteURL: url, readRetry: .never)
            let error = await sharePointError { _ = try await site.web() }
            #expect(error?.kind == .transport)
            #expect(error?.kind.transportKind == .connect)
            #expect(error?.url == url + "/_api/web")
            #expect(error?.description.hasPrefix("The request to SharePoint failed:") == true)
            withExtendedLifetime(refusing) {}
        }
    }
}
