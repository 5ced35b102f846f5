import CommandLineKit
import Foundation
import HTTPServer
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

@testable import spconnect_status

/// Escaping of hostile content, thumbnails only from the site, cross-site POSTs refused, loopback by default.
@Suite(.serialized) struct SecurityTests {
    static let hostileList = "<script>alert(1)</script>"
    static let hostileItem = "\"><img src=x onerror=alert(2)>"

    /// A client with alice's session, the site URL, and the headers of a write (with a fresh request digest).
    static func writer(_ fixture: StatusFixture) async throws -> (HTTPClient, String, HTTPHeaders) {
        let client = try HTTPClient()
        try fixture.session.install(into: client)
        let site = fixture.simulator.siteURL
        let context = try await client.execute(
            HTTPRequest(
                method: "POST", url: site + "/_api/contextinfo",
                headers: ["Accept": "application/json;odata=nometadata"]))
        let digest = try #require(
            (try JSONSerialization.jsonObject(with: Data(context.body)) as? [String: Any])?["FormDigestValue"]
                as? String)
        let headers: HTTPHeaders = [
            "Accept": "application/json;odata=nometadata", "Content-Type": "application/json;odata=nometadata",
            "X-RequestDigest": digest,
        ]
        return (client, site, headers)
    }

    /// Writes hostile content through the simulator's REST endpoints with alice's session.
    static func addHostileContent(_ fixture: StatusFixture) async throws {
        let (client, site, headers) = try await Self.writer(fixture)
        let listBody = try JSONSerialization.data(withJSONObject: ["Title": hostileList, "BaseTemplate": 100])
        let list = try await client.execute(
            HTTPRequest(
                method: "POST", url: site + "/_api/web/lists", headers: headers, body: .bytes([UInt8](listBody))))
        #expect(list.status == 201)
        let itemBody = try JSONSerialization.data(withJSONObject: ["Title": hostileItem])
        let item = try await client.execute(
            HTTPRequest(
                method: "POST", url: site + "/_api/web/lists/getbytitle('Tasks')/items", headers: headers,
                body: .bytes([UInt8](itemBody))))
        #expect(item.status == 201)
        // A picture whose name is markup.
        let picture = NSTemporaryDirectory() + "spc-status-" + UUID().uuidString + ".png"
        defer { try? FileManager.default.removeItem(atPath: picture) }
        let png = try await client.execute(
            HTTPRequest(url: site + "/_api/web/GetFileByServerRelativeUrl('%2FPhotos%2Fsea.png')/$value"))
        #expect(FileManager.default.createFile(atPath: picture, contents: Data(png.body)))
        _ = try await SharePointSite(client: client, siteURL: site).upload(
            file: picture, toFolder: "/Photos", as: hostilePicture)
    }

    static let hostilePicture = "\"><img src=x onerror=alert(3)>.png"

    /// A list item that quotes the session's own cookie (a server echoing it back) is shown without it.
    @Test func aPageNeverShowsTheSessionsCookieValue() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let fedAuth = try #require(fixture.session.cookies.first { $0.value.count >= 8 }?.value)
        let (client, site, headers) = try await Self.writer(fixture)
        let listBody = try JSONSerialization.data(withJSONObject: ["Title": "Echo", "BaseTemplate": 100])
        let list = try await client.execute(
            HTTPRequest(
                method: "POST", url: site + "/_api/web/lists", headers: headers, body: .bytes([UInt8](listBody))))
        #expect(list.status == 201)
        let itemBody = try JSONSerialization.data(withJSONObject: ["Title": "echo " + fedAuth + " end"])
        let item = try await client.execute(
            HTTPRequest(
                method: "POST", url: site + "/_api/web/lists/getbytitle('Echo')/items", headers: headers,
                body: .bytes([UInt8](itemBody))))
        #expect(item.status == 201)
        let page = try await fixture.get("/lists/Echo")
        #expect(page.status == 200)
        #expect(
            page.text.contains("echo &lt;redacted&gt; end") || page.text.contains("echo <redacted> end"),
            "\(page.text.prefix(300))")
        #expect(!page.text.contains(fedAuth))
    }

    @Test func hostileTitlesAndValuesAreShownAsText() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        try await Self.addHostileContent(fixture)

        let lists = try await fixture.get("/lists")
        #expect(lists.status == 200)
        #expect(lists.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!lists.text.contains("<script"))
        // The link to the list is percent-encoded, so the title cannot break out of the attribute.
        #expect(lists.text.contains("href=\"/lists/%3Cscript%3Ealert%281%29%3C%2Fscript%3E\""))

        let list = try await fixture.get("/lists/%3Cscript%3Ealert%281%29%3C%2Fscript%3E")
        #expect(list.status == 200)
        #expect(list.text.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        #expect(list.text.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt; · SPConnect status</title>"))
        #expect(!list.text.contains("<script"))

        let tasks = try await fixture.get("/lists/Tasks?after=20")
        #expect(tasks.text.contains("<td class=\"text\">&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</td>"))
        #expect(!tasks.text.contains("<img src=x"))

        let gallery = try await fixture.get("/photos/Photos")
        #expect(gallery.status == 200)
        #expect(gallery.text.contains("<strong>&quot;&gt;&lt;img src=x onerror=alert(3)&gt;.png</strong>"))
        #expect(gallery.text.contains("alt=\"&quot;&gt;&lt;img src=x onerror=alert(3)&gt;.png\""))
        #expect(
            gallery.text.contains(
                "src=\"/thumb?url=%2FPhotos%2F%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert%283%29%3E.png\""))
        #expect(!gallery.text.contains("<img src=x"))
        let thumbnail = try await fixture.get(
            "/thumb?url=%2FPhotos%2F%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert%283%29%3E.png")
        #expect(thumbnail.status == 200)
        #expect(header(thumbnail, "Content-Type") == "image/png")

        let missing = try await fixture.get("/lists/%3Cb%3Enope%3C%2Fb%3E")
        #expect(missing.status == 404)
        #expect(!missing.text.contains("<b>nope"))
    }

    @Test func thumbnailsAreServedWithTheirTypeAndOnlyForTheSitesOwnURLs() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let png = try await fixture.get("/thumb?url=%2FPhotos%2Fsunset.png")
        #expect(png.status == 200)
        #expect(header(png, "Content-Type") == "image/png")
        #expect(Array(png.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(header(png, "Set-Cookie") == nil)
        #expect(header(png, "Content-Security-Policy")?.contains("sandbox") == true)

        let svg = try await fixture.get("/thumb?url=%2FPhotos%2Flogo.svg")
        #expect(svg.status == 200)
        #expect(header(svg, "Content-Type") == "image/svg+xml")
        #expect(header(svg, "Content-Security-Policy")?.contains("sandbox") == true)

        // Cached: a second request does not reach SharePoint again.
        let before = fixture.simulator.requestLog().count
        let again = try await fixture.get("/thumb?url=%2FPhotos%2Fsunset.png")
        #expect(again.status == 200 && again.body == png.body)
        #expect(fixture.simulator.requestLog().count == before)

        for refused in [
            "http://example.com/a.png", "//example.com/a.png", "https://127.0.0.1/Photos/sunset.png",
            "/Photos/../Photos/sunset.png", "/Photos/./sunset.png", "Photos/sunset.png", "/Photos\\sunset.png",
            "/Shared Documents/Welcome.txt", "/Photos/sunset.png?x=1", "/Photos//sunset.png", "",
        ] {
            let encoded = refused.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let response = try await fixture.get("/thumb?url=" + encoded)
            #expect(response.status == 400, "\(refused)")
            #expect(header(response, "Content-Type") == "text/html; charset=utf-8", "\(refused)")
        }
        let missingParameter = try await fixture.get("/thumb")
        #expect(missingParameter.status == 400)
        let absent = try await fixture.get("/thumb?url=%2FPhotos%2Fnone.png")
        #expect(absent.status == 404)
        // No request for a refused URL reached any server but the app.
        #expect(!fixture.simulator.requestLog().contains { $0.path.lowercased().contains("example.com") })
    }

    @Test func thumbnailRulesAndSniffing() {
        #expect(ThumbnailCache.validate("/sites/team/Photos/a.jpg", sitePath: "/sites/team") != nil)
        #expect(ThumbnailCache.validate("/sites/other/Photos/a.jpg", sitePath: "/sites/team") == nil)
        #expect(ThumbnailCache.validate("/sites/teamwork/a.jpg", sitePath: "/sites/team") == nil)
        #expect(ThumbnailCache.validate("/Photos/a.exe", sitePath: "/") == nil)
        #expect(ThumbnailCache.validate("/Photos/a\u{0}.png", sitePath: "/") == nil)
        #expect(ThumbnailCache.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(ThumbnailCache.sniff(Array("GIF89a....".utf8)) == "image/gif")
        #expect(ThumbnailCache.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(ThumbnailCache.sniff(Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"…\"/>".utf8)) == "image/svg+xml")
        #expect(ThumbnailCache.sniff(Array("<html><svg></svg></html>".utf8)) == nil)
        #expect(ThumbnailCache.sniff(Array("Welcome".utf8)) == nil)
    }

    @Test func crossSitePostsAreRefused() async throws {
        let fixture = try await StatusFixture(withPassword: true)
        defer { fixture.stop() }
        fixture.simulator.clearRequestLog()
        let origin = fixture.baseURL
        let token = ("csrf", "csrf-token-1")
        let refused: [(String, [(name: String, value: String)], HTTPHeaders)] = [
            ("wrong Origin", [token], ["Origin": "http://evil.example"]),
            ("null Origin", [token], ["Origin": "null"]),
            ("missing token", [], ["Origin": origin]),
            ("wrong token", [("csrf", "csrf-token-2")], ["Origin": origin]),
            ("cross-site fetch", [token], ["Sec-Fetch-Site": "cross-site"]),
            ("same-site fetch", [token], ["Sec-Fetch-Site": "same-site", "Origin": origin]),
        ]
        for (why, fields, headers) in refused {
            let response = try await fixture.post("/signin", fields: fields, headers: headers)
            #expect(response.status == 403, "\(why)")
            #expect(response.text.contains("Cross-site request refused"), "\(why)")
        }
        let idpLogins = fixture.simulator.requestLog().filter { $0.method == "POST" && $0.host == "127.0.0.2" }
        #expect(idpLogins.isEmpty, "a refused POST must not sign in")

        let accepted = try await fixture.post(
            "/signin", fields: [token], headers: ["Origin": origin, "Sec-Fetch-Site": "same-origin"])
        #expect(accepted.status == 303)
        #expect(header(accepted, "Location") == "/")
        let page = try await fixture.get("/")
        #expect(page.text.contains("Last sign-in"))
        #expect(page.text.contains("Succeeded"))

        let get = try await fixture.get("/signin")
        #expect(get.status == 404)
    }

    @Test func signInWithoutCredentialsIsRefused() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let response = try await fixture.post(
            "/signin", fields: [("csrf", "csrf-token-1")], headers: ["Origin": fixture.baseURL])
        #expect(response.status == 409)
    }

    /// DNS rebinding: the `Host` header must be exactly one of the app's names with its own port; a name that
    /// only starts like the app's address (`127.0.0.1:PORT.evil.example`) is another site.
    @Test func theHostHeaderMustNameTheAppsOwnAddressAndPortExactly() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let port = fixture.server.port
        for host in [
            "127.0.0.1:\(port).evil.example", "attacker.example:80", "attacker.example:\(port)", "127.0.0.1",
            "localhost", "127.0.0.1:\(port + 1)", "127.0.0.1.evil.example:\(port)", "127.0.0.1:\(port)@evil.example",
            "127.0.0.1:0\(port)",
        ] {
            let refused = try await fixture.get("/status.json", headers: ["Host": host])
            #expect(refused.status == 421, "\(host) was answered")
            #expect(!refused.text.contains(alice), "\(host)")
            #expect(refused.text.contains("This app answers to 127.0.0.1:\(port) and localhost:\(port) only"))
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LocalHost:\(port)"] {
            let answered = try await fixture.get("/status.json", headers: ["Host": host])
            #expect(answered.status == 200, "\(host) was refused")
        }
    }

    /// Listens on every address: kept apart from the test that frees a port number and binds it again.
    @Test(.portNumbers) func notBoundBeyondLoopbackWithoutTheFlag() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let session = fixture.app.session
        var options = StatusOptions()
        options.bind = "0.0.0.0"
        #expect(throws: UsageError.self) { try StatusServer(options: options, session: session) }

        options.allowRemote = true
        let remote = try StatusServer(options: options, session: session)
        defer { remote.stop() }
        let token = try #require(remote.app.accessToken)
        #expect(token.count == 64)
        #expect(remote.url.hasSuffix("/?token=" + token))
        let base = "http://127.0.0.1:\(remote.server.port)"
        let without = try await fixture.browser.execute(HTTPRequest(url: base + "/status.json"))
        #expect(without.status == 403)
        #expect(!without.text.contains(alice))
        let wrong = try await fixture.browser.execute(
            HTTPRequest(url: base + "/status.json?token=" + token.dropLast() + (token.hasSuffix("0") ? "1" : "0")))
        #expect(wrong.status == 403)
        let with = try await fixture.browser.execute(HTTPRequest(url: base + "/?token=" + token))
        #expect(with.status == 200)
        // Every link on the page carries the token.
        #expect(with.text.contains("href=\"/lists?token=" + token + "\""))

        var loopback = StatusOptions()
        loopback.bind = "127.0.0.1"
        let local = try StatusServer(options: loopback, session: session)
        defer { local.stop() }
        #expect(local.app.accessToken == nil)
        #expect(local.url == "http://127.0.0.1:\(local.server.port)/")
    }

    @Test func argumentsAreParsed() throws {
        let parsed = try StatusOptions.parse([
            "--profile", "work", "--port", "8080", "--bind", "10.0.0.5", "--allow-remote",
        ])
        #expect(parsed?.profile == "work")
        #expect(parsed?.port == 8080)
        #expect(parsed?.bind == "10.0.0.5")
        #expect(parsed?.allowRemote == true)
        #expect(try StatusOptions.parse([]) == StatusOptions())
        #expect(try StatusOptions.parse(["--port=9000", "--profile=a=b"])?.profile == "a=b")
        #expect(try StatusOptions.parse(["--port=9000"])?.port == 9000)
        #expect(try StatusOptions.parse(["--help"]) == nil)
        #expect(throws: UsageError.self) { try StatusOptions.parse(["--port", "http"]) }
        #expect(throws: UsageError.self) { try StatusOptions.parse(["--password", "x"]) }
        #expect(throws: UsageError.self) { try StatusOptions.parse(["--profile"]) }
        #expect(try StatusOptions.parse(["--columns", "Title, Due Date,,"])?.columns == ["Title", "Due Date"])
        #expect(try StatusOptions.parse(["--refresh=60"])?.refreshSeconds == 60)
        #expect(try StatusOptions.parse([])?.refreshSeconds == nil, "off by default")
        for refused in [["--refresh", "2"], ["--refresh", "soon"], ["--columns", ","]] {
            #expect(throws: UsageError.self, "\(refused)") { try StatusOptions.parse(refused) }
        }
    }

    @Test func passwordComesFromTheEnvironmentOnly() throws {
        let password = { (environment: [String: String]) in
            StatusServer.sessionConfiguration(StatusOptions(), environment: environment).password()?.revealedValue()
        }
        #expect(password(["SPCONNECT_PASSWORD": "p1"]) == "p1")
        #expect(password([:]) == nil)
        let path = NSTemporaryDirectory() + "spc-status-pw-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            FileManager.default.createFile(
                atPath: path, contents: Data("p2\nrest\n".utf8), attributes: [.posixPermissions: 0o600]))
        #expect(password(["SPCONNECT_PASSWORD_FILE": path]) == "p2")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(password(["SPCONNECT_PASSWORD_FILE": path]) == nil)
        // The app says so when it starts, with the remedy, instead of "no password" at the first renewal.
        let refusal = StatusServer.passwordFileRefusal(environment: ["SPCONNECT_PASSWORD_FILE": path])
        #expect(refusal?.contains("chmod 600") == true)
        #expect(
            StatusServer.passwordFileRefusal(environment: ["SPCONNECT_PASSWORD_FILE": path, "SPCONNECT_PASSWORD": "x"])
                == nil, "the variable comes first, so the file does not matter")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(StatusServer.passwordFileRefusal(environment: ["SPCONNECT_PASSWORD_FILE": path]) == nil)
        let configuration = StatusServer.sessionConfiguration(StatusOptions(), environment: ["SPCONNECT_PASSWORD": "x"])
        #expect(configuration.canSignIn)
        #expect(!StatusServer.sessionConfiguration(StatusOptions(), environment: [:]).canSignIn)
    }
}
