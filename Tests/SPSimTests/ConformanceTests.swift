import Foundation
import SPSim
import TestSupport
import Testing

/// Every JSON fact in `shared/corpus/sp-rest/manifest.json` must hold, by key, envelope and type, for the
/// simulator's equivalent answer (and by value where the value is protocol, not content).
@Suite(.childProcesses) struct ManifestConformanceTests {
    struct Fact {
        var path: String
        var value: JSONValue
    }

    /// Resolves a manifest path (`odata.error.message.value`, `d.results[0].__metadata.etag`, `len(value)`).
    static func resolve(_ path: String, in root: JSONValue) -> JSONValue? {
        var text = path
        var wantsLength = false
        if text.hasPrefix("len("), text.hasSuffix(")") {
            wantsLength = true
            text = String(text.dropFirst(4).dropLast())
        }
        let dotted = [
            "odata.nextLink", "odata.error", "odata.type", "odata.editLink", "odata.metadata", "odata.id", "odata.etag",
        ]
        var current: JSONValue? = root
        var rest = Substring(text)
        while !rest.isEmpty, let node = current {
            if rest.hasPrefix(".") { rest = rest.dropFirst() }
            if rest.hasPrefix("[") {
                let close = rest.firstIndex(of: "]") ?? rest.endIndex
                let index = Int(rest[rest.index(after: rest.startIndex)..<close]) ?? -1
                current = node[index]
                rest = close < rest.endIndex ? rest[rest.index(after: close)...] : ""
                continue
            }
            var key: String
            if let special = dotted.first(where: { rest.hasPrefix($0) }) {
                key = special
            } else {
                let end = rest.firstIndex(where: { $0 == "." || $0 == "[" }) ?? rest.endIndex
                key = String(rest[..<end])
            }
            current = node[key]
            rest = rest.dropFirst(key.count)
        }
        if wantsLength, let array = current?.array { return .number(Double(array.count)) }
        return wantsLength ? nil : current
    }

    struct Probe {
        var method = "GET"
        var path: String
        var accept: String
        var body: [UInt8]? = nil
        var status: Int
        /// Paths whose value must match exactly (besides type).
        var exact: Set<String> = []
        /// Facts the simulator's content cannot have (e.g. geolocation columns).
        var skip: Set<String> = []
    }

    static func probes(tasksId: String, documentsFileId: String) -> [String: Probe] {
        let nometadata = "application/json;odata=nometadata"
        return [
            "contextinfo_minimalmetadata.json": Probe(
                method: "POST", path: "/_api/contextinfo", accept: "application/json, text/xml, application/xml, */*",
                status: 200, exact: ["FormDigestTimeoutSeconds"]),
            "error_404_file_missing_nometadata.json": Probe(
                path: "/_api/web/GetFileByServerRelativePath(decodedurl='/Shared%20Documents/IdontExist.pdf')",
                accept: nometadata, status: 404, exact: ["odata.error.code"]),
            "error_404_list_missing_nometadata.json": Probe(
                path: "/_api/web/lists/getbytitle('nonexisting')", accept: nometadata, status: 404,
                exact: ["odata.error.code", "odata.error.message.lang"]),
            "error_500_list_exists_nometadata.json": Probe(
                method: "POST", path: "/_api/web/lists", accept: nometadata,
                body: Array("{\"Title\":\"Tasks\",\"BaseTemplate\":100}".utf8), status: 500,
                exact: ["odata.error.code", "odata.error.message.value"]),
            "file_add_nometadata.json": Probe(
                method: "POST",
                path:
                    "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')/Files/add(url='PNP_SDK_TEST_test_added.docx',overwrite=true)",
                accept: nometadata, body: Array(repeating: 0x41, count: 20159), status: 200,
                exact: ["Name", "Length", "MajorVersion", "UIVersionLabel"]),
            "file_startupload_nometadata.json": Probe(
                method: "POST",
                path:
                    "/_api/web/getFileById('\(documentsFileId)')/startupload(uploadId=guid'2d4a8b1e-0f3c-4a5b-9c7d-1e2f3a4b5c6d')",
                accept: nometadata, body: Array(repeating: 0x42, count: 10_485_760), status: 200, exact: ["value"]),
            "folder_files_minimalmetadata.json": Probe(
                path: "/_api/web/GetFolderByServerRelativeURL('Shared%20Documents')/files",
                accept: "application/json;odata=minimalmetadata", status: 200, exact: ["value[0].odata.type"]),
            "folder_files_nometadata.json": Probe(
                path:
                    "/_api/web/getfolderbyserverrelativeurl('/Shared%20Documents')/files?$filter=Name%20eq%20'Welcome.txt'",
                accept: nometadata, status: 200, exact: ["len(value)"]),
            "item_fieldvalues_expanded_nometadata.json": Probe(
                path:
                    "/_api/web/lists/getbytitle('Tasks')/items?$filter=Id%20eq%201&$select=Id,FieldValuesAsHtml,FieldValuesAsText&$expand=FieldValuesAsHtml,FieldValuesAsText",
                accept: nometadata, status: 200,
                exact: [
                    "len(value)", "value[0].FieldValuesAsText.ID",
                    "value[0].FieldValuesAsText.OData__x005f_ModerationStatus",
                    "value[0].FieldValuesAsHtml.UniqueId",
                ]),
            "items_nometadata_page_nextlink.json": Probe(
                path: "/_api/web/lists(guid'\(tasksId)')/items?$top=2", accept: nometadata, status: 200,
                exact: ["len(value)", "value[1].Id", "value[0].OData__UIVersionString"]),
            "items_verbose_collection.json": Probe(
                path: "/_api/web/lists/getbytitle('Asset_Register')/items?$top=1",
                accept: "application/json;odata=verbose",
                status: 200, exact: ["d.results[0].Id"],
                skip: ["d.results[0].GeoLoc.__metadata.type", "d.results[0].City"]),
            "list_create_201_nometadata.json": Probe(
                method: "POST", path: "/_api/web/lists", accept: nometadata,
                body: Array("{\"Title\":\"RESTListItemPaging\",\"BaseTemplate\":100}".utf8), status: 201,
                exact: ["Title", "BaseTemplate", "ItemCount", "ListItemEntityTypeFullName", "EntityTypeName"]),
            "list_fields_expanded_nometadata.json": Probe(
                path: "/_api/web/lists(guid'\(tasksId)')?$select=Id,Fields&$expand=Fields", accept: nometadata,
                status: 200,
                exact: [
                    "Fields[0].InternalName", "Fields[0].TypeAsString", "Fields[0].FieldTypeKind",
                    "Fields[3].InternalName",
                ]),
            "list_single_nometadata.json": Probe(
                path: "/_api/web/lists/getbytitle('Documents')", accept: nometadata, status: 200,
                exact: ["Title", "BaseType", "ListItemEntityTypeFullName", "EntityTypeName"]),
            "lists_filtered_nometadata.json": Probe(
                path: "/_api/web/lists?$filter=BaseTemplate%20eq%20100", accept: nometadata, status: 200),
            "web_currentuser_nometadata.json": Probe(
                path: "/_api/web?$select=Id,CurrentUser&$expand=CurrentUser", accept: nometadata, status: 200,
                exact: ["CurrentUser.PrincipalType"]),
            "web_verbose.json": Probe(
                path: "/_api/web", accept: "application/json;odata=verbose", status: 200, exact: ["d.__metadata.type"]),
        ]
    }

    @Test func everyJSONFactHoldsForTheSimulatorsAnswer() async throws {
        guard let corpus = corpusDirectory() else {
            Issue.record("shared corpus not found beside the repository")
            return
        }
        let manifest = try JSONDecoder().decode(
            JSONValue.self, from: Data(contentsOf: corpus.appendingPathComponent("sp-rest/manifest.json")))
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let site = simulator.siteURL
        let browser = Browser()
        let auth = ["-u", "alice@contoso.test:Spring2026!"]
        func call(_ method: String, _ path: String, accept: String, body: [UInt8]? = nil, digest: String? = nil)
            async throws
            -> Answer
        {
            var headers = ["Accept: " + accept]
            if let digest { headers.append("X-RequestDigest: " + digest) }
            if body != nil { headers.append("Content-Type: application/json") }
            return try await browser.request(site + path, method: method, headers: headers, body: body, extra: auth)
        }
        let digest = try #require(
            await call("POST", "/_api/contextinfo", accept: "application/json;odata=nometadata").json?[
                "FormDigestValue"]?
                .string)
        let tasksId = try #require(
            await call(
                "GET", "/_api/web/lists/getbytitle('Tasks')?$select=Id", accept: "application/json;odata=nometadata"
            )
            .json?[
                "Id"]?.string)
        let placeholder = try await call(
            "POST",
            "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')/Files/add(url='big.bin',overwrite=true)",
            accept: "application/json;odata=nometadata", body: [], digest: digest)
        let fileId = try #require(placeholder.json?["UniqueId"]?.string)
        let probes = Self.probes(tasksId: tasksId, documentsFileId: fileId)

        var checked = 0
        for entry in manifest["files"]?.array ?? [] {
            guard let file = entry["file"]?.string, entry["format"]?.string == "json",
                let probe = probes[file]
            else { continue }
            let answer = try await call(
                probe.method, probe.path, accept: probe.accept, body: probe.body, digest: digest)
            #expect(answer.status == probe.status, "\(file): status \(answer.status) \(answer.body.prefix(300))")
            if let expected = entry["typical_content_type"]?.string {
                #expect(answer.header("Content-Type") == expected, "\(file): content type")
            }
            let json = try #require(answer.json, "\(file): not JSON: \(answer.body.prefix(200))")
            for fact in entry["facts"]?.array ?? [] {
                guard let path = fact["path"]?.string, !probe.skip.contains(path) else { continue }
                let expected = fact["value"] ?? .null
                let actual = Self.resolve(path, in: json)
                checked += 1
                guard let actual else {
                    Issue.record("\(file): \(path) missing in \(json)")
                    continue
                }
                if expected == .null {
                    #expect(actual != .null, "\(file): \(path) should be present")
                    continue
                }
                #expect(actual.kind == expected.kind, "\(file): \(path) is \(actual.kind), corpus has \(expected.kind)")
                if probe.exact.contains(path) {
                    #expect(actual == expected, "\(file): \(path) = \(actual), corpus \(expected)")
                }
            }
        }
        #expect(checked >= 60)
    }

    @Test func patternedValuesMatchTheCorpusShapes() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let site = simulator.siteURL
        let browser = Browser()
        let auth = ["-u", "alice@contoso.test:Spring2026!"]
        let tasks = try await browser.request(
            site + "/_api/web/lists/getbytitle('Tasks')/items?$top=2",
            headers: ["Accept: application/json;odata=nometadata"],
            extra: auth)
        let id = try #require(
            await browser.request(
                site + "/_api/web/lists/getbytitle('Tasks')?$select=Id",
                headers: ["Accept: application/json;odata=nometadata"],
                extra: auth
            ).json?["Id"]?.string)
        #expect(
            tasks.json?["odata.nextLink"]?.string
                == "\(site)/_api/web/lists(guid%27\(id)%27)/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d2&%24top=2")
        let verbose = try await browser.request(
            site + "/_api/web/lists/getbytitle('Tasks')/items?$top=2",
            headers: ["Accept: application/json;odata=verbose"],
            extra: auth)
        let item = try #require(verbose.json?["d"]?["results"]?[0])
        #expect(item["__metadata"]?["etag"]?.string == "\"1\"")
        #expect(item["__metadata"]?["type"]?.string == "SP.Data.TasksListItem")
        #expect(
            verbose.json?["d"]?["__next"]?.string?.hasPrefix(site + "/_api/Web/Lists(guid'\(id)')/Items?%24skiptoken=")
                == true)
        let files = try await browser.request(
            site + "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')/Files",
            headers: ["Accept: application/json;odata=nometadata"], extra: auth)
        let etag = try #require(files.json?["value"]?[0]?["ETag"]?.string)
        #expect(captures("^\"\\{[0-9A-F-]{36}\\},\\d+\"$", in: etag).count == 1)
        #expect(files.json?["value"]?[0]?["ServerRelativeUrl"]?.string == "/Shared Documents/Welcome.txt")
        let minimal = try await browser.request(
            site + "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')/Files",
            headers: ["Accept: application/json;odata=minimalmetadata"], extra: auth)
        #expect(minimal.json?["odata.metadata"]?.string == site + "/_api/$metadata#SP.ApiData.Files12")
        #expect(
            minimal.json?["value"]?[0]?["odata.editLink"]?.string
                == "Web/GetFileByServerRelativePath(decodedurl='/Shared%20Documents/Welcome.txt')")
        let web = try await browser.request(
            site + "/_api/web", headers: ["Accept: application/json;odata=verbose"], extra: auth)
        #expect(web.json?["d"]?["Lists"]?["__deferred"]?["uri"]?.string == site + "/_api/Web/Lists")
        #expect(web.json?["d"]?["Url"]?.string == site)
        let error = try await browser.request(
            site + "/_api/web/lists/getbytitle('Nope')", headers: ["Accept: application/json;odata=verbose"],
            extra: auth)
        #expect(error.json?["error"]?["code"]?.string == "-1, System.ArgumentException")
        #expect(error.json?["odata.error"] == nil)
        let atom = try await browser.request(site + "/_api/web/lists/getbytitle('Nope')", extra: auth)
        #expect(atom.body.contains("<m:code>-1, System.ArgumentException</m:code>"))
        for header in [
            "SPRequestGuid", "request-id", "SPClientServiceRequestDuration", "X-SharePointHealthScore",
            "X-SP-SERVERSTATE", "MicrosoftSharePointTeamServices",
        ] {
            #expect(web.header(header) != nil, "missing \(header)")
        }
    }

    @Test func unauthenticatedFileRequestMatchesTheCapturedHeaders() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let answer = try await Browser().request(simulator.siteURL + "/Shared%20Documents/AO2006MIS.zip")
        #expect(answer.status == 403)
        #expect(answer.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(
            answer.header("X-Forms_Based_Auth_Required")
                == simulator.siteURL
                + "/_forms/default.aspx?ReturnUrl=/_layouts/15/error.aspx&Source=%2fShared%2520Documents%2fAO2006MIS.zip"
        )
        #expect(
            answer.header("X-IDCRL_AUTH_PARAMS_V1")
                == "IDCRL Type=\"BPOSIDCRL\", EndPoint=\"/_vti_bin/idcrl.svc/\", RootDomain=\"sharepoint.com\", Policy=\"MBI\""
        )
        #expect(
            answer.header("X-MSDAVEXT_Error")
                == "917656; Access+denied.+Before+opening+files+in+this+location%2c+you+must+first+browse+to+the+web+site+and+select+the+option+to+login+automatically."
        )
        #expect(answer.header("MicrosoftSharePointTeamServices")?.hasPrefix("16.0.0.") == true)
    }
}
