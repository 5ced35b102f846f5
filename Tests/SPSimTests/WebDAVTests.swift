import Foundation
import SPSim
import TestSupport
import Testing

/// The simulator's WebDAV on its libraries (`Tools/spsim/SPSim/WebDAV`), driven with curl over loopback: each
/// method's status as SharePoint answers it, the multistatus of PROPFIND read back (hrefs and properties), writes
/// seen by the REST API and its change log, and the lost-session answer a WebDAV client gets.
@Suite(.childProcesses) struct WebDAVTests {
    static let alice = ["-u", "alice@contoso.test:Spring2026!"]

    /// One WebDAV request as alice (Basic) to a server-relative, percent-encoded `path`.
    static func dav(
        _ simulator: Simulator, _ browser: Browser, _ method: String, _ path: String, headers: [String] = [],
        body: [UInt8]? = nil, signedIn: Bool = true
    ) async throws -> Answer {
        try await browser.request(
            simulator.siteURL + path, method: method, headers: headers, body: body, extra: signedIn ? alice : [],
            useJar: false)
    }

    /// The `D:response`s of a multistatus body: href → its properties' text, by local name.
    static func responses(_ xml: String) -> [String: [String: String]] {
        var found: [String: [String: String]] = [:]
        for block in captures("<D:response>(.*?)</D:response>", in: xml).map({ $0[0] }) {
            let href = captures("<D:href>(.*?)</D:href>", in: block).first?[0] ?? ""
            var properties: [String: String] = [:]
            for pair in captures("<D:([A-Za-z]+)>([^<]*)</D:\\1>", in: block) where pair.count == 2 {
                properties[pair[0]] = pair[1]
            }
            if block.contains("<D:collection/>") { properties["collection"] = "yes" }
            found[href] = properties
        }
        return found
    }

    @Test func optionsAndPropfindDescribeTheLibrary() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let browser = Browser()
        let options = try await Self.dav(simulator, browser, "OPTIONS", "/Shared%20Documents")
        #expect(options.status == 200)
        #expect(options.header("DAV") == "1,2" && options.header("MS-Author-Via") == "DAV")

        let one = try await Self.dav(simulator, browser, "PROPFIND", "/Shared%20Documents", headers: ["Depth: 1"])
        #expect(one.status == 207, "\(one.body)")
        #expect(one.header("Content-Type")?.hasPrefix("text/xml") == true)
        let listed = Self.responses(one.body)
        let root = simulator.siteURL + "/Shared%20Documents/"
        #expect(listed[root]?["collection"] == "yes")
        #expect(listed[root]?["displayname"] == "Shared Documents")
        let welcome = try #require(listed[root + "Welcome.txt"], "\(listed.keys.sorted())")
        #expect(welcome["displayname"] == "Welcome.txt")
        #expect(welcome["getcontentlength"] == "32")
        #expect(welcome["getcontenttype"] == "text/plain")
        #expect(welcome["collection"] == nil)
        #expect(welcome["getlastmodified"]?.hasSuffix(" GMT") == true && welcome["getlastmodified"]?.count == 29)
        #expect(welcome["creationdate"]?.hasSuffix("Z") == true)
        #expect(welcome["getetag"]?.hasPrefix("&quot;{") == true)
        #expect(listed[root + "Forms/"]?["collection"] == "yes")
        let get = try await Self.dav(simulator, browser, "GET", "/Shared%20Documents/Welcome.txt")
        #expect(get.status == 200 && get.bodyBytes.count == 32)

        let zero = try await Self.dav(simulator, browser, "PROPFIND", "/Shared%20Documents/", headers: ["Depth: 0"])
        #expect(Array(Self.responses(zero.body).keys) == [root])
        let file = try await Self.dav(simulator, browser, "PROPFIND", "/Shared%20Documents/Welcome.txt")
        #expect(file.status == 403, "no Depth means infinity")
        let infinity = try await Self.dav(
            simulator, browser, "PROPFIND", "/Shared%20Documents", headers: ["Depth: infinity"])
        #expect(infinity.status == 403)
        let missing = try await Self.dav(
            simulator, browser, "PROPFIND", "/Shared%20Documents/nope", headers: ["Depth: 0"])
        #expect(missing.status == 404)
        let web = Self.responses(try await Self.dav(simulator, browser, "PROPFIND", "/", headers: ["Depth: 1"]).body)
        #expect(web[root]?["collection"] == "yes", "the web's root lists the libraries: \(web.keys.sorted())")
    }

    @Test func writesLandInTheModelTheRESTAPIServes() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let browser = Browser()
        let library = "/Shared%20Documents"
        let changes = simulator.changeCount
        let put = try await Self.dav(simulator, browser, "PUT", library + "/dav%20one.txt", body: Array("one".utf8))
        #expect(put.status == 201, "\(put.body)")
        #expect(simulator.changeCount == changes + 1, "the change log records a WebDAV PUT")
        let rest = try await RESTClient(simulator: simulator).get(
            "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/dav%20one.txt')")
        #expect(rest.json?["Length"]?.string == "3", "\(rest.body)")
        let replaced = try await Self.dav(
            simulator, browser, "PUT", library + "/dav%20one.txt", body: Array("uno!".utf8))
        #expect(replaced.status == 204)
        #expect(
            simulator.fileBytes(serverRelativeURL: "/Shared Documents/dav one.txt", offset: 0, count: 9)
                == Array("uno!".utf8))
        let orphan = try await Self.dav(simulator, browser, "PUT", library + "/no/such.txt", body: [1])
        #expect(orphan.status == 409)

        #expect(try await Self.dav(simulator, browser, "MKCOL", library + "/Reports").status == 201)
        #expect(try await Self.dav(simulator, browser, "MKCOL", library + "/Reports").status == 405)
        #expect(try await Self.dav(simulator, browser, "MKCOL", library + "/a/b").status == 409)
        let folders = try await RESTClient(simulator: simulator).get(
            "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')/Folders")
        #expect(folders.body.contains("/Shared Documents/Reports"), "\(folders.body)")
        let inside = try await Self.dav(simulator, browser, "PUT", library + "/Reports/q1.csv", body: Array("a,b".utf8))
        #expect(inside.status == 201)

        // COPY and MOVE: Destination absolute, Overwrite F refuses an existing target, T replaces it.
        let target = simulator.siteURL + library
        let refused = try await Self.dav(
            simulator, browser, "COPY", library + "/dav%20one.txt",
            headers: ["Destination: \(target)/Reports/q1.csv", "Overwrite: F"])
        #expect(refused.status == 412)
        let copied = try await Self.dav(
            simulator, browser, "COPY", library + "/dav%20one.txt", headers: ["Destination: \(target)/copy.txt"])
        #expect(copied.status == 201)
        let moved = try await Self.dav(
            simulator, browser, "MOVE", library + "/copy.txt",
            headers: ["Destination: \(target)/Reports/q1.csv", "Overwrite: T"])
        #expect(moved.status == 204, "\(moved.body)")
        #expect(
            simulator.fileBytes(serverRelativeURL: "/Shared Documents/Reports/q1.csv", offset: 0, count: 9)
                == Array("uno!".utf8))
        #expect(simulator.fileLength(serverRelativeURL: "/Shared Documents/copy.txt") == nil)
        let folder = try await Self.dav(
            simulator, browser, "MOVE", library + "/Reports", headers: ["Destination: \(target)/Archive"])
        #expect(folder.status == 201)
        #expect(simulator.fileLength(serverRelativeURL: "/Shared Documents/Archive/q1.csv") == 4)

        #expect(try await Self.dav(simulator, browser, "DELETE", library + "/dav%20one.txt").status == 204)
        #expect(simulator.fileLength(serverRelativeURL: "/Shared Documents/dav one.txt") == nil)
        #expect(try await Self.dav(simulator, browser, "DELETE", library + "/Archive").status == 204)
        let gone = try await Self.dav(simulator, browser, "PROPFIND", library + "/Archive", headers: ["Depth: 0"])
        #expect(gone.status == 404)
        #expect(try await Self.dav(simulator, browser, "DELETE", library + "/Archive").status == 404)
        #expect(try await Self.dav(simulator, browser, "DELETE", library).status == 403, "a library stays")
        let lock = try await Self.dav(simulator, browser, "LOCK", library + "/Welcome.txt")
        #expect(lock.status == 200 && lock.header("Lock-Token")?.hasPrefix("<opaquelocktoken:") == true)
        let token = try #require(lock.header("Lock-Token"))
        let unlock = try await Self.dav(
            simulator, browser, "UNLOCK", library + "/Welcome.txt", headers: ["Lock-Token: " + token])
        #expect(unlock.status == 204)
        let head = try await browser.request(
            simulator.siteURL + library + "/Welcome.txt", extra: Self.alice + ["-I"], useJar: false)
        #expect(
            head.status == 200 && head.header("Content-Length") == "32" && !head.body.contains("Welcome"),
            "\(head.headers)")
    }

    @Test func aSiteCollectionsLibrariesAreItsOwn() async throws {
        var options = SimulatorOptions(mode: .basic)
        options.siteCollections = ["hr"]
        let simulator = try Simulator(options)
        defer { simulator.stop() }
        let browser = Browser()
        let library = "/sites/hr/Shared%20Documents"
        let put = try await Self.dav(simulator, browser, "PUT", library + "/leave.txt", body: Array("days".utf8))
        #expect(put.status == 201, "\(put.body)")
        let listing = try await Self.dav(simulator, browser, "PROPFIND", library, headers: ["Depth: 1"])
        let listed = Self.responses(listing.body)
        let root = simulator.siteURL + library + "/"
        #expect(listed[root + "leave.txt"]?["getcontentlength"] == "4", "\(listed.keys.sorted())")
        #expect(listed[root + "About%20hr.txt"] != nil, "\(listed.keys.sorted())")
        #expect(simulator.fileLength(serverRelativeURL: "/Shared Documents/leave.txt") == nil, "not the root site's")
        let web = Self.responses(
            try await Self.dav(simulator, browser, "PROPFIND", "/sites/hr", headers: ["Depth: 1"]).body)
        #expect(web.keys.sorted() == [simulator.siteURL + "/sites/hr/", root], "\(web.keys.sorted())")
    }

    @Test func aLostSessionGetsSharePointsWebDAVRefusal() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        try await Drivers.entraSignIn(simulator, browser)
        let url = simulator.siteURL + "/Shared%20Documents"
        let signedIn = try await browser.request(url, method: "PROPFIND", headers: ["Depth: 1"])
        #expect(signedIn.status == 207, "\(signedIn.body)")
        simulator.expireSessions()
        for method in ["PROPFIND", "PUT", "MKCOL", "GET"] {
            let refused = try await browser.request(url + "/x.txt", method: method, headers: ["Depth: 0"])
            #expect(refused.status == 403, "\(method)")
            #expect(
                refused.header("X-MSDAVEXT_Error")
                    == "917656; Access+denied.+Before+opening+files+in+this+location%2c+you+must+first+browse+to+the+web+site+and+select+the+option+to+login+automatically.",
                "\(method)")
        }
        let anonymous = try await Self.dav(simulator, browser, "PROPFIND", "/Shared%20Documents", signedIn: false)
        #expect(anonymous.status == 403 && anonymous.header("X-MSDAVEXT_Error")?.hasPrefix("917656") == true)
        let options = try await Self.dav(simulator, browser, "OPTIONS", "/Shared%20Documents", signedIn: false)
        #expect(options.status == 200 && options.header("DAV") == "1,2")
    }

    @Test func sessionsEndAfterTheRequestsAskedFor() async throws {
        let simulator = try startSimulator(.entra)
        defer { simulator.stop() }
        let browser = Browser()
        try await Drivers.entraSignIn(simulator, browser)
        let url = simulator.siteURL + "/Shared%20Documents"
        simulator.expireSessions(afterRequests: 2)
        var statuses: [Int] = []
        for _ in 0..<3 {
            statuses.append(try await browser.request(url, method: "PROPFIND", headers: ["Depth: 0"]).status)
        }
        #expect(statuses == [207, 207, 403])
    }
}
