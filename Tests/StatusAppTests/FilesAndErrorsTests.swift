import AuthFlow
import Foundation
import HTTPServer
import SPSim
import Synchronization
import TestSupport
import Testing
import Transport

@testable import spconnect_status

/// Downloads through the app, the gallery's refusal of other lists, error pages in the user's words, and the
/// session rules shared with the CLI (trusted session files, the plain-http rule, quick "unreachable").
@Suite(.serialized) struct FilesAndErrorsTests {
    /// The file's bytes fetched straight from the simulator with the session's cookies (not through the app).
    static func direct(_ fixture: StatusFixture, _ serverRelativeURL: String) async throws -> [UInt8] {
        let client = try HTTPClient()
        try fixture.session.install(into: client)
        let url =
            fixture.simulator.siteURL + "/_api/web/GetFileByServerRelativeUrl('"
            + serverRelativeURL.replacingOccurrences(of: " ", with: "%20") + "')/$value"
        let response = try await client.execute(HTTPRequest(url: url))
        try #require(response.status == 200)
        return response.body
    }

    @Test func downloadsThroughTheAppAreByteIdentical() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        for file in ["/Shared Documents/Welcome.txt", "/Shared Documents/large.bin", "/Photos/sunset.png"] {
            let response = try await fixture.get("/download?url=" + StatusPages.Links().encode(file))
            #expect(response.status == 200, "\(file)")
            #expect(header(response, "Content-Type") == "application/octet-stream")
            #expect(header(response, "Content-Disposition")?.hasPrefix("attachment; filename=\"") == true)
            #expect(header(response, "Content-Security-Policy")?.contains("sandbox") == true)
            #expect(header(response, "Set-Cookie") == nil)
            let expected = try await Self.direct(fixture, file)
            #expect(response.body.count == expected.count, "\(file)")
            #expect(response.body == expected, "\(file): the bytes differ")
        }
        #expect(
            Downloads.contentDisposition("O'Brien notes é.txt")
                == "attachment; filename=\"O'Brien notes _.txt\"; filename*=UTF-8''O%27Brien%20notes%20%C3%A9.txt")
        // The library page links to exactly these downloads.
        let library = try await fixture.get("/lists/Documents")
        #expect(library.text.contains("href=\"/download?url=%2FShared%20Documents%2Flarge.bin\""))
    }

    @Test func downloadsAreRefusedOutsideTheSite() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let before = fixture.simulator.requestLog().count
        for refused in [
            "http%3A%2F%2Fexample.com%2Fa.txt", "%2F%2Fexample.com%2Fa", "%2FShared%20Documents%2F..%2Fx", "",
        ] {
            let response = try await fixture.get("/download?url=" + refused)
            #expect(response.status == 400, "\(refused)")
            #expect(response.text.contains("Not a file of this site"))
        }
        #expect(fixture.simulator.requestLog().count == before, "nothing refused reached SharePoint")
        let missing = try await fixture.get("/download?url=%2FShared%20Documents%2Fnope.txt")
        #expect(missing.status == 404)
        #expect(missing.text.contains("Not found: could not download the file"))
    }

    @Test func theGallerySaysWhenAListIsNotAPictureLibrary() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let tasks = try await fixture.get("/photos/Tasks")
        #expect(tasks.status == 404)
        #expect(tasks.text.contains("<h1>“Tasks” is not a picture library</h1>"))
        #expect(tasks.text.contains("<a href=\"/lists/Tasks\">Open “Tasks” as a list</a>"))
        #expect(!tasks.text.contains("No pictures"))
        let documents = try await fixture.get("/photos/Documents")
        #expect(documents.status == 404, "a document library is no picture library either")
        // The real gallery: each thumbnail links to the full picture and says its dimensions.
        let photos = try await fixture.get("/photos/Photos")
        #expect(photos.text.contains("<a href=\"/thumb?url=%2FPhotos%2Fsunset.png\" title=\"Open the full picture\">"))
        #expect(photos.text.contains("32 × 24 px"))
        #expect(photos.text.contains("<a href=\"/photos/Photos\" aria-current=\"page\">Photos</a>"))
        #expect(!photos.text.contains("Photos: Photos"))
    }

    @Test func anErrorPageSaysWhatFailedAndWhatToDo() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let missing = try await fixture.get("/lists/No%20such%20list")
        #expect(missing.status == 404)
        let page = missing.text
        #expect(page.contains("<h1>There is no list named “No such list”</h1>"))
        #expect(page.contains("<p>Check the name on the Lists page: lists are found by their title.</p>"))
        #expect(page.contains("<p class=\"muted detail\">HTTP 404 · -1, System.ArgumentException</p>"))
        let main = try #require(page.components(separatedBy: "<main>").last)
        for leak in ["_api", "`", "does not exist at site", fixture.simulator.siteURL, "<strong>"] {
            #expect(!main.contains(leak), "the page shows \(leak)")
        }
        #expect(main.components(separatedBy: "There is no list named").count == 2, "the heading appears once")
    }

    /// An unreachable site is a state of its own (unreachable, 502 on the lists page), not a page that hangs or a
    /// session said gone (the app retries a read once, briefly: StatusSession.readRetry).
    @Test func anUnreachableSiteIsSaidAsUnreachable() async throws {
        let refusing = try RefusingPort()
        let fixture = try await StatusFixture { $0.siteURL = refusing.baseURL }
        defer { fixture.stop() }
        let json = try await fixture.get("/status.json")
        let lists = try await fixture.get("/lists")
        #expect(json.status == 503)
        #expect(json.text.contains("\"state\": \"unreachable\""))
        #expect(lists.status == 502)
        #expect(lists.text.contains("<h1>SharePoint cannot be reached</h1>"))
        #expect(lists.text.contains("No answer: the connection was refused or failed"))
        #expect(!lists.text.contains("_api"))
        let page = try await fixture.get("/")
        #expect(page.text.contains("SharePoint cannot be reached"))
    }

    @Test func anUntrustedSessionFileIsNotRead() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let file = try SessionStore(directory: fixture.storeDirectory).path(for: "test")
        #expect(chmod(file, 0o644) == 0)
        let json = try await fixture.get("/status.json")
        #expect(json.status == 503)
        #expect(json.text.contains("\"state\": \"no-session\""))
        #expect(json.text.contains("refusing to use"))
        #expect(json.text.contains("not 0600"))
        let lists = try await fixture.get("/lists")
        #expect(lists.status == 503)
        // A symbolic link is refused too, even to a private file.
        #expect(chmod(file, 0o600) == 0)
        #expect(rename(file, file + ".real") == 0)
        #expect(symlink(file + ".real", file) == 0)
        let linked = try await fixture.get("/status.json")
        #expect(linked.text.contains("symbolic link"))
        #expect(linked.status == 503)
    }

    @Test func anHTTPSSessionIsNeverSentOverPlainHTTP() async throws {
        let certificate = try await TestCertificate.make()
        let plainRequests = Atomic<Int>(0)
        let plain = try HTTPServer { _ in
            plainRequests.add(1, ordering: .relaxed)
            return HTTPServerResponse(status: 200, contentType: "application/json", text: "{\"value\":[]}")
        }
        defer { plain.stop() }
        let nextLink = plain.baseURL + "/_api/web/lists?page=2"
        // An https "site" whose list of lists continues at a plain-http address.
        let tls = try HTTPServer(tls: (certificate.certificatePEM, certificate.keyPEM)) { request in
            guard request.path.lowercased().hasPrefix("/_api/web/lists") else {
                return HTTPServerResponse(status: 404, contentType: "text/plain", text: "no")
            }
            let body =
                "{\"value\":[{\"Id\":\"8f3c8d8e-1b7a-4d7e-9c55-0e4f0c1d2a3b\",\"Title\":\"A\",\"ItemCount\":1,"
                + "\"BaseTemplate\":100,\"Hidden\":false}],\"odata.nextLink\":\"\(nextLink)\"}"
            return HTTPServerResponse(
                status: 200, contentType: "application/json;odata=nometadata;charset=utf-8", text: body)
        }
        defer { tls.stop() }
        let fixture = try await StatusFixture(
            clientConfiguration: HTTPClient.Configuration(caFile: certificate.certificatePath)
        ) {
            $0.siteURL = tls.baseURL
        }
        defer { fixture.stop() }
        let lists = try await fixture.get("/lists")
        #expect(lists.status == 502)
        #expect(lists.text.contains("<h1>Refused to send the session over plain http</h1>"))
        #expect(plainRequests.load(ordering: .relaxed) == 0, "a request went to the plain-http address")
    }

    @Test func theSessionPageRefreshesOnlyWhenAsked() async throws {
        let fixture = try await StatusFixture(refreshSeconds: 30)
        defer { fixture.stop() }
        let page = try await fixture.get("/")
        #expect(page.text.contains("<meta http-equiv=\"refresh\" content=\"30\">"))
        #expect(page.text.contains("This page reloads every 30 s."))
        #expect(!page.text.contains("<script"))
        let lists = try await fixture.get("/lists")
        #expect(!lists.text.contains("http-equiv=\"refresh\""), "only the session page reloads itself")
        let plain = try await StatusFixture()
        defer { plain.stop() }
        #expect(!(try await plain.get("/")).text.contains("http-equiv=\"refresh\""), "off by default")
    }
}
