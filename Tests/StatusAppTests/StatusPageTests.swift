import Foundation
import Presentation
import SPSim
import TestSupport
import Testing
import Transport

@testable import spconnect_status

/// The pages against the simulator's content, over real loopback HTTP, compared with golden copies.
@Suite(.serialized) struct StatusPageTests {
    @Test func sessionPageShowsTheSessionAndIsGolden() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let response = try await fixture.get("/")
        #expect(response.status == 200)
        #expect(header(response, "Content-Type") == "text/html; charset=utf-8")
        let page = response.text
        #expect(page.contains("Signed in as Alice"))
        for cookie in fixture.session.cookies {
            #expect(page.contains(cookie.name))
            #expect(!page.contains(cookie.value), "a cookie value leaked into the page")
        }
        expectSnapshot(fixture.normalised(page), named: "session.html")
    }

    @Test func listsPageIsGolden() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let response = try await fixture.get("/lists")
        #expect(response.status == 200)
        expectSnapshot(fixture.normalised(response.text), named: "lists.html")
    }

    @Test func itemsPageIsPagedAndGolden() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let first = try await fixture.get("/lists/Tasks")
        #expect(first.status == 200)
        expectSnapshot(fixture.normalised(first.text), named: "tasks.html")
        #expect(first.text.contains("20 items · showing 1–5"))
        #expect(first.text.contains("Page 1 of 4"))
        #expect(first.text.contains("<a href=\"/lists/Tasks?after=5&amp;page=2\" rel=\"next\">"))
        #expect(!first.text.contains("rel=\"prev\""))
        // The default view's columns, Modified By included; Priority is a number, right-aligned.
        #expect(first.text.contains("<th scope=\"col\">Modified By</th>"))
        #expect(first.text.contains("<th class=\"num\" scope=\"col\">Priority</th>"))

        let second = try await fixture.get("/lists/Tasks?after=5&page=2")
        #expect(second.status == 200)
        #expect(second.text.contains("<td class=\"num\">6</td>"))
        #expect(!second.text.contains("<td class=\"num\">5</td>"))
        #expect(second.text.contains("20 items · showing 6–10"))
        #expect(second.text.contains("Page 2 of 4"))
        #expect(second.text.contains("<a href=\"/lists/Tasks\" rel=\"prev\">"), "back to the first page")
        #expect(second.text.contains("<a href=\"/lists/Tasks?after=10&amp;page=3\" rel=\"next\">"))

        let third = try await fixture.get("/lists/Tasks?after=10&page=3")
        #expect(third.text.contains("<a href=\"/lists/Tasks?after=5&amp;page=2\" rel=\"prev\">"))
        #expect(third.text.contains("Page 3 of 4"))

        let last = try await fixture.get("/lists/Tasks?after=15&page=4")
        #expect(last.text.contains("<td class=\"num\">20</td>"))
        #expect(last.text.contains("Page 4 of 4"))
        #expect(!last.text.contains("rel=\"next\""))
        #expect(last.text.contains("<a href=\"/lists/Tasks?after=10&amp;page=3\" rel=\"prev\">"))

        // A hand-made link: the page number is not known, the previous page still is.
        let handMade = try await fixture.get("/lists/Tasks?after=7")
        #expect(handMade.text.contains("<td class=\"num\">8</td>"))
        #expect(!handMade.text.contains("Page "))
        #expect(handMade.text.contains("<a href=\"/lists/Tasks?after=2\" rel=\"prev\">"))
    }

    @Test func aLibraryShowsNamesThatDownloadAndSizes() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let library = try await fixture.get("/lists/Documents")
        #expect(library.status == 200)
        #expect(library.text.contains("<th class=\"text\" scope=\"col\">Name</th>"))
        #expect(library.text.contains("<th class=\"num\" scope=\"col\">Size</th>"))
        #expect(!library.text.contains(">Title</th>"), "the default view of a library has no Title column")
        #expect(
            library.text.contains(
                "<td class=\"text\"><a href=\"/download?url=%2FShared%20Documents%2FWelcome.txt\">Welcome.txt</a></td>"
            ))
        #expect(library.text.contains("<td class=\"num\">32 B</td>"), "Welcome.txt is 32 bytes")
        let pictures = try await fixture.get("/lists/Photos")
        #expect(pictures.text.contains(">Picture Width</th>"))
        #expect(pictures.text.contains(">sunset.png</a></td>"))
    }

    @Test func columnsCanBeChosen() async throws {
        let fixture = try await StatusFixture(columns: ["Due Date", "title", "Nope"])
        defer { fixture.stop() }
        let tasks = try await fixture.get("/lists/Tasks")
        let headers = tasks.text.components(separatedBy: "</th>").dropLast().compactMap {
            $0.split(separator: ">").last.map(String.init)
        }
        #expect(headers == ["ID", "Due Date", "Title"])
        // A list without any of them keeps its default view.
        let projects = try await fixture.get("/lists/Projects")
        #expect(projects.text.contains(">Title</th>"))
    }

    @Test func galleryPageIsGolden() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let response = try await fixture.get("/photos/Photos")
        #expect(response.status == 200)
        expectSnapshot(fixture.normalised(response.text), named: "photos.html")
    }

    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        for path in [
            "/", "/lists", "/lists/Tasks", "/photos/Photos", "/status.json", "/thumb?url=%2FPhotos%2Fsea.png",
            "/thumb?url=http%3A%2F%2Fexample.com%2Fa.png", "/nowhere",
        ] {
            let response = try await fixture.get(path)
            #expect(header(response, "X-Content-Type-Options") == "nosniff", "\(path)")
            #expect(header(response, "Referrer-Policy") == "no-referrer", "\(path)")
            #expect(header(response, "X-Frame-Options") == "DENY", "\(path)")
            let policy = header(response, "Content-Security-Policy") ?? ""
            #expect(policy.hasPrefix("default-src 'none'"), "\(path)")
            #expect(policy.contains("frame-ancestors 'none'"), "\(path)")
            #expect(header(response, "Set-Cookie") == nil, "\(path)")
        }
        let other = try await fixture.browser.execute(HTTPRequest(method: "DELETE", url: fixture.baseURL + "/"))
        #expect(other.status == 405)
        #expect(header(other, "X-Frame-Options") == "DENY")
    }

    @Test func statusJSONIsHealthyThenGoneWithoutCredentials() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let healthy = try await fixture.get("/status.json")
        #expect(healthy.status == 200)
        #expect(header(healthy, "Content-Type") == "application/json; charset=utf-8")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(healthy.body)) as? [String: Any])
        #expect(json["healthy"] as? Bool == true)
        #expect(json["state"] as? String == "signed-in")
        #expect(json["user"] as? String == alice)
        #expect(json["site"] as? String == fixture.simulator.siteURL)
        #expect(json["flow"] as? String == "adfs")
        let cookies = try #require(json["cookies"] as? [[String: Any]])
        #expect(cookies.compactMap { $0["name"] as? String }.contains("FedAuth"))
        #expect(cookies.allSatisfy { $0["value"] == nil })
        let proof = try #require(json["proof"] as? [String: Any])
        #expect(proof["ok"] as? Bool == true)
        #expect(proof["latencyMilliseconds"] is Int)
        for cookie in fixture.session.cookies { #expect(!healthy.text.contains(cookie.value)) }

        fixture.simulator.expireSessions()
        let gone = try await fixture.get("/status.json")
        #expect(gone.status == 503)
        let goneJSON = try #require(try JSONSerialization.jsonObject(with: Data(gone.body)) as? [String: Any])
        #expect(goneJSON["healthy"] as? Bool == false)
        #expect(goneJSON["state"] as? String == "session-gone")
        #expect((goneJSON["reason"] as? String)?.isEmpty == false)

        let page = try await fixture.get("/")
        #expect(page.status == 200)
        #expect(page.text.contains("class=\"state bad\""))
        #expect(page.text.contains("The session has ended"))
        #expect(page.text.contains("(session-gone)"))
        #expect(!page.text.contains("Sign in again"))
    }

    @Test func noSavedSessionIsATypedRedState() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        try FileManager.default.removeItem(atPath: fixture.storeDirectory)
        let json = try await fixture.get("/status.json")
        #expect(json.status == 503)
        #expect(json.text.contains("\"state\": \"no-session\""))
        let page = try await fixture.get("/")
        #expect(page.text.contains("Not signed in"))
        #expect(page.text.contains("spconnect login"))
    }

    @Test func theSessionIsRenewedWhenCredentialsAreAvailable() async throws {
        let fixture = try await StatusFixture(mode: .entra, withPassword: true)
        defer { fixture.stop() }
        fixture.simulator.expireSessions()
        let renewed = try await fixture.get("/status.json")
        #expect(renewed.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(renewed.body)) as? [String: Any])
        let signIn = try #require(json["lastSignIn"] as? [String: Any])
        #expect(signIn["ok"] as? Bool == true)
        #expect(signIn["source"] as? String == "status app", "the app renewed the session itself")
        let steps = try #require(signIn["steps"] as? [[String: Any]])
        #expect(steps.count > 2)
        #expect(
            steps.contains {
                $0["host"] as? String
                    == "127.0.0.2:\(fixture.simulator.identityProviderURL.split(separator: ":").last ?? "")"
            })
        #expect(steps.allSatisfy { ($0["host"] as? String)?.contains("/") == false })
        #expect(!renewed.text.contains(alicePassword))

        let page = try await fixture.get("/")
        #expect(page.text.contains("Last sign-in"))
        #expect(page.text.contains("127.0.0.2"), "the trace names the identity provider's host")
        #expect(page.text.contains("Sign in again"))
        #expect(page.text.contains("name=\"csrf\" value=\"csrf-token-1\""))
        #expect(!page.text.contains(alicePassword))
        #expect(!page.text.contains("code="), "trace URLs are reduced to hosts")
    }

    @Test func aFailedSignInIsARedStateWithTheProvidersMessage() async throws {
        let fixture = try await StatusFixture(withPassword: true, password: "Autumn2025?")
        defer { fixture.stop() }
        let post = try await fixture.post(
            "/signin", fields: [("csrf", "csrf-token-1")], headers: ["Origin": fixture.baseURL])
        #expect(post.status == 303)
        // The old session still works: healthy, but the page says the sign-in failed.
        let json = try await fixture.get("/status.json")
        #expect(json.status == 200)
        #expect(json.text.contains("\"ok\": false"))
        let page = try await fixture.get("/")
        #expect(page.text.contains("class=\"state ok\""))
        #expect(page.text.contains("The last sign-in failed"))
        #expect(page.text.contains("the sign-in was rejected"))
        #expect(!page.text.contains("Autumn2025?"))

        // Once the session has ended, the renewal fails too: 503 with the typed reason.
        fixture.simulator.expireSessions()
        let gone = try await fixture.get("/status.json")
        #expect(gone.status == 503)
        #expect(gone.text.contains("\"state\": \"sign-in-failed\""))
        let red = try await fixture.get("/")
        #expect(red.text.contains("Signing in again failed"))
        #expect(red.text.contains("(sign-in-failed)"))
        #expect(!red.text.contains("class=\"state ok\""))
        expectSnapshot(fixture.normalised(red.text), named: "session-sign-in-failed.html")
        // Reloading does not send the wrong password again (the account would be locked).
        let attempts = fixture.simulator.requestLog().filter { $0.formFields.contains { $0.name == "Password" } }
        _ = try await fixture.get("/status.json")
        _ = try await fixture.get("/")
        #expect(
            fixture.simulator.requestLog().filter { $0.formFields.contains { $0.name == "Password" } }.count
                == attempts.count)
    }
}
