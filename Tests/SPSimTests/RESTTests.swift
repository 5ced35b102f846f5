import Foundation
import SPSim
import TestSupport
import Testing

/// A basic-mode client: no sign-in needed, so these tests focus on REST behaviour.
struct RESTClient {
    let simulator: Simulator
    let browser = Browser()
    var accept = "application/json;odata=nometadata"

    func get(_ path: String, accept: String? = nil) async throws -> Answer {
        let url = path.hasPrefix("http") ? path : simulator.siteURL + path
        return try await browser.request(
            url, headers: ["Accept: " + (accept ?? self.accept)], extra: ["-u", "alice@contoso.test:Spring2026!"])
    }

    func post(
        _ path: String, body: [UInt8] = [], headers: [String] = [], digest: String? = nil, accept: String? = nil
    ) async throws -> Answer {
        var all = ["Accept: " + (accept ?? self.accept), "Content-Type: application/json;odata=verbose"] + headers
        if let digest { all.append("X-RequestDigest: " + digest) }
        return try await browser.request(
            simulator.siteURL + path, method: "POST", headers: all, body: body,
            extra: ["-u", "alice@contoso.test:Spring2026!"])
    }

    func digest() async throws -> String {
        try #require(try await post("/_api/contextinfo").json?["FormDigestValue"]?.string)
    }
}

@Suite(.childProcesses) struct PagingTests {
    @Test func paging12345ItemsYieldsEveryIdOnceInOrder() async throws {
        let simulator = try startSimulator(.basic, items: 12345)
        defer { simulator.stop() }
        for (accept, top) in [("application/json;odata=nometadata", 1000), ("application/json;odata=verbose", 5000)] {
            let client = RESTClient(simulator: simulator, accept: accept)
            var next: String? = "/_api/web/lists/getbytitle('Big')/items?$top=\(top)&$select=Id,Title"
            var ids: [Int] = []
            var pages = 0
            while let url = next {
                let answer = try await client.get(url)
                #expect(answer.status == 200)
                let json = try #require(answer.json)
                let isVerbose = accept.contains("verbose")
                let results = (isVerbose ? json["d"]?["results"] : json["value"])?.array ?? []
                ids += results.compactMap { $0["Id"]?.number.map { Int($0) } }
                next = isVerbose ? json["d"]?["__next"]?.string : json["odata.nextLink"]?.string
                if let link = next {
                    #expect(link.hasPrefix(simulator.siteURL + "/_api/"))
                    #expect(link.contains("%24skiptoken=Paged%3dTRUE%26p_ID%3d"))
                    #expect(link.contains("%24select=Id,Title"))
                }
                pages += 1
            }
            #expect(ids == Array(1...12345))
            #expect(pages == (12345 + top - 1) / top)
        }
    }

    /// Answers only: how fast the simulator serves a big list is the benchmark's business (`Tools/bench`), not a
    /// test's (a time limit here failed on a loaded machine).
    @Test func hundredThousandRowsAnswerIdOrderedQueriesAndIdRanges() async throws {
        let simulator = try startSimulator(.basic, items: 100_000)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        #expect(
            try await client.get("/_api/web/lists/getbytitle('Big')?$select=ItemCount").json?["ItemCount"]?.number
                == 100_000)
        let last = try await client.get("/_api/web/lists/getbytitle('Big')/items?$orderby=ID%20desc&$top=2&$select=Id")
        #expect(last.json?["value"]?.array?.compactMap { $0["Id"]?.number } == [100_000, 99_999])
        let next = try #require(last.json?["odata.nextLink"]?.string)
        #expect(try await client.get(next).json?["value"]?[0]?["Id"]?.number == 99_998)
        let range = try await client.get(
            "/_api/web/lists/getbytitle('Big')/items?$filter=ID%20ge%2050000%20and%20ID%20lt%2050003")
        #expect(range.json?["value"]?.array?.count == 3)
        let tail = try await client.get(
            "/_api/web/lists/getbytitle('Big')/items?$filter=Category%20eq%20'Red'%20and%20ID%20gt%2099900&$top=500")
        let tailIds = (tail.json?["value"]?.array ?? []).compactMap { $0["Id"]?.number }
        #expect(!tailIds.isEmpty && tailIds.allSatisfy { $0 > 99_900 })
    }

    @Test func skipIsIgnoredOnItemsAndTopDefaultsTo100() async throws {
        let simulator = try startSimulator(.basic, items: 300)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let skipped = try await client.get("/_api/web/lists/getbytitle('Big')/items?$skip=50&$top=3")
        #expect(skipped.json?["value"]?[0]?["Id"]?.number == 1)
        let defaults = try await client.get("/_api/web/lists/getbytitle('Big')/items")
        #expect(defaults.json?["value"]?.array?.count == 100)
    }

    @Test func filterSelectOrderbyAndExpand() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let base = "/_api/web/lists/getbytitle('Tasks')/items"
        let completed = try await client.get(base + "?$filter=Completed%20eq%20true&$select=Id,Status")
        for item in completed.json?["value"]?.array ?? [] { #expect(item["Status"]?.string == "Completed") }
        let priority = try await client.get(
            base + "?$filter=Priority%20ge%202%20and%20Priority%20lt%203&$select=Priority")
        #expect((priority.json?["value"]?.array ?? []).allSatisfy { $0["Priority"]?.number == 2 })
        let quoted = try await client.get(
            base + "?$filter=substringof('O''Brien',Title)%20or%20startswith(Title,'Plan')")
        let titles = Set((quoted.json?["value"]?.array ?? []).compactMap { $0["Title"]?.string })
        #expect(titles == ["O'Brien's onboarding", "Plan the kickoff"])
        let dated = try await client.get(base + "?$filter=DueDate%20gt%20datetime'2026-01-20T00:00:00Z'&$select=Id")
        #expect(dated.json?["value"]?.array?.count == 12)
        let ordered = try await client.get(base + "?$orderby=Title%20desc&$top=2&$select=Title")
        #expect(ordered.json?["value"]?[0]?["Title"]?.string == "Write the newsletter")
        let expanded = try await client.get(
            base + "(1)?$select=Title,AssignedTo/Title,Author/Title&$expand=AssignedTo,Author")
        #expect(expanded.json?["AssignedTo"]?["Title"]?.string != nil)
        #expect(expanded.json?["Author"]?["Title"]?.string == "Alice Example")
        let text = try await client.get(base + "(1)/FieldValuesAsText")
        #expect(text.json?["Completed"]?.string == "Yes" || text.json?["Completed"]?.string == "No")
        let bad = try await client.get(base + "?$filter=Nope%20eq%201")
        #expect(bad.status == 400)
        #expect(bad.json?["odata.error"]?["code"]?.string == "-2147024809, System.ArgumentException")
    }

    @Test func orderedPagingVisitsEveryItemOnce() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        var next: String? = "/_api/web/lists/getbytitle('Tasks')/items?$orderby=Title&$top=7&$select=Id,Title"
        var titles: [String] = []
        while let url = next {
            let json = try #require(try await client.get(url).json)
            titles += (json["value"]?.array ?? []).compactMap { $0["Title"]?.string }
            next = json["odata.nextLink"]?.string
        }
        #expect(titles.count == 20)
        #expect(titles == titles.sorted { $0.lowercased() < $1.lowercased() })
        #expect(Set(titles).count == 20)
    }

    @Test func usersFromJSONFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spsim-users-\(UUID().uuidString).json")
        try Data(#"[{"email":"zoe@fabrikam.test","password":"P@ss w0rd&<>","ca":true}]"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let users = try [SimulatedUser].load(jsonFile: file.path)
        #expect(
            users == [
                SimulatedUser(
                    email: "zoe@fabrikam.test", password: "P@ss w0rd&<>", displayName: "zoe", conditionalAccess: true)
            ])
        let simulator = try Simulator(SimulatorOptions(mode: .basic, users: users))
        defer { simulator.stop() }
        let answer = try await Browser().request(
            simulator.siteURL + "/_api/web/currentuser", headers: ["Accept: application/json;odata=nometadata"],
            extra: ["-u", "zoe@fabrikam.test:P@ss w0rd&<>"])
        #expect(answer.json?["Email"]?.string == "zoe@fabrikam.test")
    }

    @Test func thresholdOnUnindexedColumnsOfBigLists() async throws {
        let simulator = try startSimulator(.basic, items: 6000)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let throttled = try await client.get("/_api/web/lists/getbytitle('Big')/items?$filter=Number%20gt%20500")
        #expect(throttled.status == 500)
        #expect(
            throttled.json?["odata.error"]?["code"]?.string
                == "-2147024860, Microsoft.SharePoint.SPQueryThrottledException")
        let indexed = try await client.get(
            "/_api/web/lists/getbytitle('Big')/items?$filter=Category%20eq%20'Red'&$top=5")
        #expect(indexed.status == 200)
        #expect(try await client.get("/_api/web/lists/getbytitle('Big')/items?$top=5001").status == 500)
        #expect(
            try await client.get("/_api/web/lists/getbytitle('Big')/items?$filter=ID%20gt%205990").json?["value"]?
                .array?
                .count == 10)
        // Under the threshold the same filter works.
        let small = try startSimulator(.basic, items: 4000)
        defer { small.stop() }
        #expect(
            try await RESTClient(simulator: small).get(
                "/_api/web/lists/getbytitle('Big')/items?$filter=Number%20gt%20500"
            )
            .status == 200)
    }

    @Test func listLookupsByTitleIdAndQuoteEscaping() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let id = try #require(await client.get("/_api/web/lists/getbytitle('Tasks')").json?["Id"]?.string)
        #expect(try await client.get("/_api/web/lists(guid'\(id)')").json?["Title"]?.string == "Tasks")
        #expect(try await client.get("/_api/web/lists/getbyid('\(id)')").json?["Title"]?.string == "Tasks")
        #expect(try await client.get("/_api/web/GetList('/Lists/Tasks')").json?["Title"]?.string == "Tasks")
        let fields = try await client.get("/_api/web/lists/getbytitle('Tasks')/fields?$filter=Hidden%20eq%20false")
        let names = (fields.json?["value"]?.array ?? []).compactMap { $0["InternalName"]?.string }
        #expect(names.contains("AssignedTo") && names.contains("DueDate") && !names.contains("ContentTypeId"))
        let file = try await client.get(
            "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/O''Brien%20notes.txt')/$value")
        #expect(file.body == "Quotes in names must be doubled in OData literals.\n")
    }
}

/// Answers that used to differ from SharePoint's: a missing item, `FileRef` under `$select`, sub-folders.
@Suite(.childProcesses) struct ReadFidelityTests {
    /// `items(N)` / `getitembyid(N)` of a missing item: 404 and SharePoint's ArgumentException body, in both envelopes,
    /// for reads and writes alike.
    @Test func missingItemIs404WithSharePointsErrorBody() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let message = "Item does not exist. It may have been deleted by another user."
        for path in ["items(999999)", "getitembyid(999999)", "items(999999)/FieldValuesAsText"] {
            let answer = try await client.get("/_api/web/lists/getbytitle('Tasks')/" + path)
            #expect(answer.status == 404, "\(path)")
            #expect(answer.json?["odata.error"]?["code"]?.string == "-2147024809, System.ArgumentException")
            #expect(answer.json?["odata.error"]?["message"]?["value"]?.string == message)
            #expect(answer.json?["odata.error"]?["message"]?["lang"]?.string == "en-US")
        }
        let verbose = try await client.get(
            "/_api/web/lists/getbytitle('Tasks')/items(999999)", accept: "application/json;odata=verbose")
        #expect(verbose.status == 404)
        #expect(verbose.json?["error"]?["code"]?.string == "-2147024809, System.ArgumentException")
        #expect(verbose.json?["error"]?["message"]?["value"]?.string == message)

        let merge = try await client.post(
            "/_api/web/lists/getbytitle('Tasks')/items(999999)",
            body: Array(#"{"__metadata":{"type":"SP.Data.TasksListItem"},"Title":"x"}"#.utf8),
            headers: ["X-HTTP-Method: MERGE", "IF-MATCH: *"], digest: try await client.digest())
        #expect(merge.status == 404)
        #expect(merge.json?["odata.error"]?["message"]?["value"]?.string == message)
        // An item that exists still answers 200.
        #expect(try await client.get("/_api/web/lists/getbytitle('Tasks')/items(3)").status == 200)
    }

    /// `$select=FileRef` comes back as `FileRef` (the server-relative URL), never as a lookup id `FileRefId`.
    @Test func selectedFileRefKeepsItsName() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let page = try await client.get(
            "/_api/web/lists/getbytitle('Documents')/items?$select=Id,FileRef,FileLeafRef&$orderby=Id")
        let first = try #require(page.json?["value"]?[0])
        #expect(first["FileRef"]?.string == "/Shared Documents/Welcome.txt")
        #expect(first["FileLeafRef"]?.string == "Welcome.txt")
        #expect(first["FileRefId"] == nil)
        let one = try await client.get("/_api/web/lists/getbytitle('Photos')/items(2)?$select=FileRef")
        #expect(one.json?["FileRef"]?.string == "/Photos/sea.png")
        #expect(one.json?["FileRefId"] == nil)
        let verbose = try await client.get(
            "/_api/web/lists/getbytitle('Documents')/items(1)?$select=FileRef", accept: "application/json;odata=verbose"
        )
        #expect(verbose.json?["d"]?["FileRef"]?.string == "/Shared Documents/Welcome.txt")
        let field = try await client.get(
            "/_api/web/lists/getbytitle('Documents')/fields/getbyinternalnameortitle('FileRef')")
        #expect(field.json?["EntityPropertyName"]?.string == "FileRef")
        // People fields keep the Id suffix.
        let task = try await client.get("/_api/web/lists/getbytitle('Tasks')/items(1)?$select=AssignedToId")
        #expect(task.json?["AssignedToId"]?.number != nil)
    }

    /// A folder's `/Folders` lists its real sub-folders (a library's `Forms`, a list's `Attachments`), and each
    /// sub-folder answers as a folder of its own.
    @Test func folderListsItsSubFolders() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        for (folder, child) in [
            ("/Shared Documents", "Forms"), ("/Photos", "Forms"), ("/Lists/Tasks", "Attachments"),
        ] {
            let encoded = folder.replacingOccurrences(of: " ", with: "%20")
            let listing = try await client.get(
                "/_api/web/GetFolderByServerRelativeUrl('\(encoded)')/Folders?$select=Name,ServerRelativeUrl")
            #expect(listing.status == 200)
            let entries = listing.json?["value"]?.array ?? []
            #expect(entries.compactMap { $0["Name"]?.string } == [child], "\(folder)")
            #expect(entries.compactMap { $0["ServerRelativeUrl"]?.string } == [folder + "/" + child])

            let sub = try await client.get(
                "/_api/web/GetFolderByServerRelativePath(decodedurl='\(encoded)/\(child)')")
            #expect(sub.status == 200, "\(folder)/\(child)")
            #expect(sub.json?["Name"]?.string == child)
            #expect(sub.json?["ServerRelativeUrl"]?.string == folder + "/" + child)
            let subFiles = try await client.get(
                "/_api/web/GetFolderByServerRelativeUrl('\(encoded)/\(child)')/Files")
            #expect(subFiles.status == 200 && subFiles.json?["value"]?.array?.isEmpty == true)
            let subFolders = try await client.get(
                "/_api/web/GetFolderByServerRelativeUrl('\(encoded)/\(child)')/Folders")
            #expect(subFolders.status == 200 && subFolders.json?["value"]?.array?.isEmpty == true)
        }
        let verbose = try await client.get(
            "/_api/web/lists/getbytitle('Documents')/RootFolder/Folders", accept: "application/json;odata=verbose")
        #expect(verbose.json?["d"]?["results"]?[0]?["Name"]?.string == "Forms")
        let missing = try await client.get("/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents/Nope')")
        #expect(missing.status == 404)
        #expect(missing.json?["odata.error"]?["code"]?.string == "-2147024894, System.IO.FileNotFoundException")
    }
}

@Suite(.childProcesses) struct WriteTests {
    @Test func addMergeDeleteWithDigestAndEtags() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let items = "/_api/web/lists/getbytitle('Tasks')/items"
        let body = Array(
            "{\"__metadata\":{\"type\":\"SP.Data.TasksListItem\"},\"Title\":\"New task\",\"Priority\":2}".utf8)
        let noDigest = try await client.post(items, body: body)
        #expect(noDigest.status == 403)
        #expect(noDigest.json?["odata.error"]?["code"]?.string == "-2130575252, Microsoft.SharePoint.SPException")
        let digest = try await client.digest()
        let created = try await client.post(items, body: body, digest: digest)
        #expect(created.status == 201)
        let id = try #require(created.json?["Id"]?.number.map { Int($0) })
        #expect(id == 21)
        let wrongType = try await client.post(
            items, body: Array("{\"__metadata\":{\"type\":\"SP.Data.NopeListItem\"},\"Title\":\"x\"}".utf8),
            digest: digest)
        #expect(wrongType.status == 400)
        let merge = try await client.post(
            items + "(\(id))", body: Array("{\"Title\":\"Renamed\"}".utf8),
            headers: ["X-HTTP-Method: MERGE", "IF-MATCH: \"1\""], digest: digest)
        #expect(merge.status == 204)
        #expect(merge.header("ETag") == "\"2\"")
        let stale = try await client.post(
            items + "(\(id))", body: Array("{\"Title\":\"Again\"}".utf8),
            headers: ["X-HTTP-Method: MERGE", "IF-MATCH: \"1\""], digest: digest)
        #expect(stale.status == 412)
        #expect(try await client.get(items + "(\(id))").json?["Title"]?.string == "Renamed")
        let delete = try await client.post(
            items + "(\(id))", headers: ["X-HTTP-Method: DELETE", "IF-MATCH: *"], digest: digest)
        #expect(delete.status == 200 && delete.body.isEmpty)
        #expect(try await client.get(items + "(\(id))").status == 404)
    }

    @Test func uploadsSmallAndChunked() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let digest = try await client.digest()
        let folder = "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')"
        let small = try await client.post(
            folder + "/Files/add(url='hello.txt',overwrite=true)", body: Array("hi".utf8), digest: digest)
        #expect(small.status == 200 && small.json?["Length"]?.string == "2")
        #expect(
            try await client.get("/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/hello.txt')/$value").body
                == "hi")
        let placeholder = try await client.post(folder + "/Files/add(url='chunked.bin',overwrite=true)", digest: digest)
        let fileId = try #require(placeholder.json?["UniqueId"]?.string)
        let upload = "guid'0f8fad5b-d9cb-469f-a165-70867728950e'"
        let file = "/_api/web/getFileById('\(fileId)')"
        let first = try await client.post(
            file + "/startupload(uploadId=\(upload))", body: Array(repeating: 0x61, count: 3000), digest: digest)
        #expect(first.json?["value"]?.string == "3000")
        let verbose = try await client.post(
            file + "/continueupload(uploadId=\(upload),fileOffset=3000)", body: Array(repeating: 0x62, count: 2000),
            digest: digest, accept: "application/json;odata=verbose")
        #expect(verbose.json?["d"]?["ContinueUpload"]?.string == "5000")
        let wrongOffset = try await client.post(
            file + "/continueupload(uploadId=\(upload),fileOffset=1)", body: [1], digest: digest)
        #expect(wrongOffset.status == 400)
        let finished = try await client.post(
            file + "/finishupload(uploadId=\(upload),fileOffset=5000)", body: Array("end".utf8), digest: digest)
        #expect(finished.json?["Length"]?.string == "5003")
        let bytes = try await client.get(
            "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/chunked.bin')/$value"
        )
        .bodyBytes
        #expect(
            bytes.count == 5003 && bytes.prefix(3000).allSatisfy { $0 == 0x61 } && bytes.suffix(3) == Array("end".utf8))
    }

    @Test func largeFileStreamsWhole() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let answer = try await RESTClient(simulator: simulator).get(
            "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/large.bin')/$value")
        #expect(answer.status == 200 && answer.exitCode == 0)
        #expect(answer.bodyBytes.count == 8 * 1024 * 1024)
    }

    /// The 50 MiB generated file: listed with its Length as a JSON string, announced with Content-Length and sent
    /// whole on every file route (path, id, library item, site page); the content API answers ranges cut at the end
    /// (byte-for-byte checks of downloads are in SharePointTests and CLITests).
    @Test func fiftyMegabyteFileIsListedAndSentWithItsLength() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let size = 52_428_800
        #expect(Simulator.largeFileURL == "/Shared Documents/large-50MB.bin")
        #expect(simulator.fileLength(serverRelativeURL: Simulator.largeFileURL) == size)
        let listing = try await client.get(
            "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')/Files?$select=Name,Length,UniqueId")
        let entry = try #require(
            listing.json?["value"]?.array?.first { $0["Name"]?.string == "large-50MB.bin" })
        #expect(entry["Length"]?.string == "52428800")
        let uniqueId = try #require(entry["UniqueId"]?.string)
        let item = try await client.get(
            "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/large-50MB.bin')/ListItemAllFields")
        let itemId = try #require(item.json?["Id"]?.number.map { Int($0) })

        // curl writes the body to /dev/null and reports the headers and how much arrived.
        let headerFile = FileManager.default.temporaryDirectory.appendingPathComponent("spsim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: headerFile) }
        for route in [
            "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/large-50MB.bin')/$value",
            "/_api/web/GetFileByServerRelativePath(decodedurl='/Shared%20Documents/large-50MB.bin')/$value",
            "/_api/web/getFileById('\(uniqueId)')/$value",
            "/_api/web/lists/getbytitle('Documents')/items(\(itemId))/File/$value",
            "/Shared%20Documents/large-50MB.bin",
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = [
                "-s", "--max-time", "120", "-u", "alice@contoso.test:Spring2026!", "-D", headerFile.path, "-o",
                "/dev/null", "-w", "%{http_code} %{size_download}", simulator.siteURL + route,
            ]
            let run = try await runCollectingOutput(process)
            let output = String(decoding: run.output, as: UTF8.self)
            #expect(run.status == 0)
            #expect(output == "200 \(size)", "\(route)")
            let headers = try String(contentsOf: headerFile, encoding: .utf8).lowercased()
            #expect(headers.contains("content-length: \(size)\r\n"), "\(headers)")
        }
        let first = try #require(simulator.fileBytes(serverRelativeURL: Simulator.largeFileURL, offset: 0, count: 16))
        let last = try #require(
            simulator.fileBytes(serverRelativeURL: Simulator.largeFileURL, offset: size - 4, count: 99))
        #expect(first.count == 16 && last.count == 4)
        #expect(simulator.fileBytes(serverRelativeURL: Simulator.largeFileURL, offset: size, count: 1) == [])
        #expect(simulator.fileBytes(serverRelativeURL: "/Shared Documents/none.bin", offset: 0, count: 1) == nil)
    }

    @Test func photosAreRealImages() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let items = try await client.get(
            "/_api/web/lists/getbytitle('Photos')/items?$select=FileLeafRef,ImageWidth,ImageHeight")
        let first = try #require(items.json?["value"]?[0])
        #expect(first["FileLeafRef"]?.string == "sunset.png")
        #expect(first["ImageWidth"]?.number == 32 && first["ImageHeight"]?.number == 24)
        let png = try await client.get("/Photos/sunset.png")
        #expect(png.header("Content-Type") == "image/png")
        // Decode with a real zlib (Python's) and check size, CRCs and pixel count.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spsim-\(UUID().uuidString).png")
        try Data(png.bodyBytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, idat, size = 8, b'', None
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos+8])
                body = data[pos+8:pos+8+length]
                assert zlib.crc32(kind + body) == struct.unpack('>I', data[pos+8+length:pos+12+length])[0]
                if kind == b'IHDR': size = struct.unpack('>II', body[:8])
                if kind == b'IDAT': idat += body
                pos += 12 + length
            raw = zlib.decompress(idat)
            assert len(raw) == size[1] * (size[0] * 3 + 1)
            print('%dx%d' % size)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, file.path]
        let run = try await runCollectingOutput(process)
        let output = String(decoding: run.output, as: UTF8.self)
        #expect(run.status == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "32x24")
        #expect(try await client.get("/Photos/logo.svg").body.contains("<svg"))
        let withFiles = try await client.get(
            "/_api/web/lists/getbytitle('Photos')/items?$select=Id,File/Name,File/Length&$expand=File")
        #expect(withFiles.json?["value"]?[0]?["File"]?["Name"]?.string == "sunset.png")
        let folders = try await client.get("/_api/web/RootFolder/Folders?$select=Name,ServerRelativeUrl")
        let urls = (folders.json?["value"]?.array ?? []).compactMap { $0["ServerRelativeUrl"]?.string }
        #expect(urls == ["/Shared Documents", "/Photos"])
        let viaItem = try await client.get("/_api/web/lists/getbytitle('Photos')/items(1)/File/$value")
        #expect(viaItem.bodyBytes == png.bodyBytes)
        #expect(
            try await client.get("/_api/web/lists/getbytitle('Photos')/items(1)/File").json?["Name"]?.string
                == "sunset.png")
    }
}

@Suite(.childProcesses) struct FaultTests {
    @Test func specParsing() throws {
        let spec = try FaultSpec(
            parsing: "latency=200,status429=3,retryAfter=1,drop=/path,cookieLifetime=30,redirectLoop")
        #expect(spec.latencyMilliseconds == 200 && spec.status429 == 3 && spec.retryAfterSeconds == 1)
        #expect(spec.dropPath == "/path" && spec.cookieLifetimeSeconds == 30 && spec.redirectLoop)
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: "bogus=1") }
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: "latency=abc") }
    }

    @Test func throttlingWithRetryAfter() async throws {
        let simulator = try startSimulator(
            .basic, faults: try FaultSpec(parsing: "status429=2,status503=1,retryAfter=7"))
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        var statuses: [Answer] = []
        for _ in 0..<4 { statuses.append(try await client.get("/_api/web")) }
        #expect(statuses.map(\.status) == [429, 429, 503, 200])
        #expect(statuses[0].header("Retry-After") == "7" && statuses[2].header("Retry-After") == "7")
    }

    /// `noRetryAfter`: the injected 429s and 503s come without `Retry-After`, so a client's own exponential back-off
    /// is what gets exercised.
    @Test func throttlingWithoutRetryAfter() async throws {
        let spec = try FaultSpec(parsing: "status429=1,status503=1,retryAfter=7,noRetryAfter")
        #expect(try FaultSpec(parsing: "noRetryAfter=false") == FaultSpec())
        #expect(try FaultSpec(parsing: "noRetryAfter=true") == FaultSpec(parsing: "noRetryAfter"))
        #expect(try FaultSpec(parsing: "noRetryAfter") != FaultSpec())
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: "noRetryAfter=maybe") }
        let simulator = try startSimulator(.basic, faults: spec)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        var answers: [Answer] = []
        for _ in 0..<3 { answers.append(try await client.get("/_api/web")) }
        #expect(answers.map(\.status) == [429, 503, 200])
        #expect(answers[0].header("Retry-After") == nil && answers[1].header("Retry-After") == nil)
        #expect(answers[0].header("SPRequestGuid") != nil)
    }

    @Test func droppedConnectionAndSlowDrip() async throws {
        let simulator = try startSimulator(
            .basic, faults: try FaultSpec(parsing: "drop=/large.bin,dropTimes=1,drip=Welcome.txt,dripDelay=20"))
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let path = "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/large.bin')/$value"
        let dropped = try await client.get(path)
        #expect(dropped.exitCode != 0)
        #expect(dropped.bodyBytes.count < 8 * 1024 * 1024)
        #expect(try await client.get(path).bodyBytes.count == 8 * 1024 * 1024)
        let start = Date()
        let dripped = try await client.get("/Shared%20Documents/Welcome.txt")
        #expect(dripped.body == "Welcome to the SPSim team site.\n")
        #expect(Date().timeIntervalSince(start) >= 0.015)
    }

    @Test func cookieLifetimeExpiresSessions() async throws {
        // Lifetimes are whole seconds (as cookie expiry is): 20 s leaves the sign-in and the first request time
        // enough even on a heavily loaded machine (3 s, then 8 s, were too short with builds running beside the
        // suite on two cores). The test waits in parallel with the others, so the length costs little.
        let simulator = try startSimulator(.fba, faults: try FaultSpec(parsing: "cookieLifetime=20"))
        defer { simulator.stop() }
        let browser = Browser()
        _ = try await Drivers.fbaSignIn(simulator, browser)
        #expect(try await browser.request(simulator.siteURL + "/_api/web").status == 200)
        try await Task.sleep(for: .seconds(21.1))
        #expect(try await browser.request(simulator.siteURL + "/_api/web").status == 403)
    }

    @Test func redirectLoopNeverReachesTheIdentityProvider() async throws {
        let simulator = try startSimulator(.entra, faults: try FaultSpec(parsing: "redirectLoop"))
        defer { simulator.stop() }
        let (answer, _) = try await Drivers.follow(
            Browser(), simulator.siteURL + "/_layouts/15/authenticate.aspx?Source=/", limit: 10)
        #expect(answer.status == 302)
        #expect(!simulator.requestLog().contains { $0.host == "127.0.0.2" })
    }

    @Test func latencyDelaysAnswers() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .anonymous, latencyMilliseconds: 150))
        defer { simulator.stop() }
        let start = Date()
        #expect(try await Browser().request(simulator.siteURL + "/_api/web").status == 200)
        #expect(Date().timeIntervalSince(start) >= 0.15)
    }
}

@Suite(.childProcesses) struct CommandLineTests {
    /// Whether a child may open 4,096 files (the soft limit, which children inherit, is raised when the hard one
    /// allows).
    static let childrenMayOpenManyFiles: Bool = {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 4_096, limit.rlim_max >= 4_096 {
            limit.rlim_cur = 4_096
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        return limit.rlim_cur >= 4_096
    }()

    /// The simulator's binary, built by `swift build --product spsim` (CI builds it before the tests).
    static var spsimBinary: String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/debug/spsim").path
    }
    static var spsimIsBuilt: Bool { FileManager.default.isExecutableFile(atPath: spsimBinary) }

    /// `--federation-port` outside entra mode names something that does not exist: refused with the reason.
    @Test(.enabled(if: spsimIsBuilt, "spsim is not built: swift build --product spsim"))
    func federationPortOutsideEntraIsAUsageError() async throws {
        let binary = URL(fileURLWithPath: Self.spsimBinary)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--mode", "fba", "--federation-port", "5000"]
        process.standardError = FileHandle.nullDevice
        #expect(try await runCollectingOutput(process).status == 2)
    }

    /// Also with every descriptor number below 1,100 taken before spsim starts (by the shell that execs it), so
    /// its sockets are numbered above 1,024: libmicrohttpd must poll() them, as select() cannot watch them (it
    /// then refused to start, or reset connections, in a test process with that many files open). In a child, so
    /// this process never holds a thousand extra files while other tests spawn processes.
    @Test(.enabled(if: spsimIsBuilt, "spsim is not built: swift build --product spsim"))
    func printsTheSiteURLFirstAndStopsWhenStdinCloses() async throws {
        try await siteURLFirstAndStopOnStdinClose(withHighDescriptors: false)
    }

    @Test(
        .enabled(if: spsimIsBuilt, "spsim is not built: swift build --product spsim"),
        .enabled(if: childrenMayOpenManyFiles, "the open-files limit is below 4,096: no child can open 1,100 files"))
    func printsTheSiteURLFirstWithDescriptorsAbove1024() async throws {
        try await siteURLFirstAndStopOnStdinClose(withHighDescriptors: true)
    }

    private func siteURLFirstAndStopOnStdinClose(withHighDescriptors: Bool) async throws {
        let binary = URL(fileURLWithPath: Self.spsimBinary)
        let process = Process()
        if withHighDescriptors {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [
                // Only numbers not open yet: Foundation's Process watches the child through a descriptor it
                // inherits, and taking that one over reads as the child's exit.
                "-c",
                #"for n in $(seq 3 1100); do [ -e /dev/fd/$n ] || eval "exec $n</dev/null"; done; exec "$0" "$@""#,
                binary.path,
                "--mode", "anonymous", "--items", "10",
            ]
        } else {
            process.executableURL = binary
            process.arguments = ["--mode", "anonymous", "--items", "10"]
        }
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        let (exited, exit) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
        // The first line is read on a thread of its own: the test suspends meanwhile instead of blocking the pool.
        let reader = output.fileHandleForReading
        let line = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            Thread.detachNewThread {
                var line = ""
                while !line.hasSuffix("\n") {
                    let byte = reader.readData(ofLength: 1)
                    if byte.isEmpty { break }
                    line += String(decoding: byte, as: UTF8.self)
                }
                continuation.resume(returning: line)
            }
        }
        let site = line.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(site.hasPrefix("http://127.0.0.1:"))
        let answer = try await Browser().request(
            site + "/_api/web/lists/getbytitle('Big')", headers: ["Accept: application/json;odata=nometadata"])
        #expect(answer.json?["ItemCount"]?.number == 10)
        try input.fileHandleForWriting.close()
        for await _ in exited {}  // returns once spsim has exited, without blocking a thread meanwhile
        #expect(process.terminationStatus == 0)
    }
}
