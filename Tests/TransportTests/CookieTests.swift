import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import Transport

@Suite struct CookieTests {
    /// `/set?c=<Set-Cookie line>` sets cookies; every path answers with the cookies received, sorted.
    static func cookieServer(address: String = "127.0.0.1", _ recorder: Recorder? = nil) throws -> HTTPServer {
        try HTTPServer(address: address) { request in
            recorder?.record(request)
            let lines = request.query.filter { $0.name == "c" }.map { ("Set-Cookie", $0.value) }
            let text = request.cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
            return HTTPServerResponse(status: 200, contentType: "text/plain", text: text, headers: lines)
        }
    }

    static func setURL(_ base: String, path: String = "/set", _ lines: String...) -> String {
        base + path + "?" + lines.map { "c=" + FormEncoder.escape($0) }.joined(separator: "&")
    }

    @Test func cookiesOfOneHostAreNotSentToAnother() async throws {
        let first = try Self.cookieServer()
        defer { first.stop() }
        let second = try Self.cookieServer(address: "127.0.0.2")
        defer { second.stop() }
        let client = try makeClient()
        _ = try await client.execute(HTTPRequest(url: Self.setURL(first.baseURL, "one=1; Path=/")))
        #expect(try await client.execute(HTTPRequest(url: second.baseURL + "/")).text == "")
        #expect(try await client.execute(HTTPRequest(url: first.baseURL + "/")).text == "one=1")
        let listed = try client.cookies.all()
        #expect(listed.count == 1)
        #expect(listed.first?.domain == "127.0.0.1" && listed.first?.hostOnly == true)
    }

    @Test func domainCookiesReachSiblingsHostOnlyCookiesDoNot() async throws {
        let server = try Self.cookieServer()
        defer { server.stop() }
        let client = try makeClient {
            $0.resolve = ["a.example.test:\(server.port):127.0.0.1", "b.example.test:\(server.port):127.0.0.1"]
        }
        let a = "http://a.example.test:\(server.port)"
        let b = "http://b.example.test:\(server.port)"
        _ = try await client.execute(
            HTTPRequest(url: Self.setURL(a, "wide=1; Domain=example.test; Path=/", "narrow=2; Path=/")))
        #expect(try await client.execute(HTTPRequest(url: a + "/")).text == "narrow=2;wide=1")
        #expect(try await client.execute(HTTPRequest(url: b + "/")).text == "wide=1")
        #expect(try client.cookies.cookies(for: b + "/").map(\.name) == ["wide"])
        #expect(try client.cookies.cookies(for: "http://example.test/").map(\.name) == ["wide"])
        #expect(try client.cookies.cookies(for: "http://notexample.test/").isEmpty)
        let wide = try client.cookies.all().first { $0.name == "wide" }
        #expect(wide?.domain == "example.test" && wide?.hostOnly == false)
    }

    /// libcurl sends Secure cookies over plain http to 127.0.0.1 (a secure context); the jar's answer for a URL
    /// is what libcurl sends there, not a rule of its own.
    @Test func secureCookiesOnLoopbackAreListedAsLibcurlSendsThem() async throws {
        let server = try Self.cookieServer()
        defer { server.stop() }
        let client = try makeClient()
        try client.cookies.add(Cookie(name: "sec", value: "1", domain: "127.0.0.1", secure: true))
        try client.cookies.add(Cookie(name: "plain", value: "2", domain: "127.0.0.1"))
        let sent = try await client.execute(HTTPRequest(url: server.baseURL + "/")).text
        let listed = try client.cookies.cookies(for: server.baseURL + "/").map { "\($0.name)=\($0.value)" }.sorted()
        #expect(sent == listed.joined(separator: ";"))
        #expect(listed == ["plain=2", "sec=1"])
    }

    @Test func pathSecureAndExpiryAreHonoured() async throws {
        let server = try Self.cookieServer(address: "127.0.0.2")
        defer { server.stop() }
        let client = try makeClient()
        let base = server.baseURL
        let setAt = Date()
        _ = try await client.execute(
            HTTPRequest(
                url: Self.setURL(
                    base, "scoped=1; Path=/app", "persist=2; Path=/; Max-Age=3600",
                    "old=3; Path=/; Expires=Wed, 21 Oct 2015 07:28:00 GMT")))
        try client.cookies.add(Cookie(name: "sec", value: "4", domain: "127.0.0.2", secure: true))
        try client.cookies.add(
            Cookie(name: "past", value: "5", domain: "127.0.0.2", expires: Date(timeIntervalSinceNow: -60)))
        #expect(try await client.execute(HTTPRequest(url: base + "/app/page")).text == "persist=2;scoped=1")
        #expect(try await client.execute(HTTPRequest(url: base + "/other")).text == "persist=2")
        #expect(try client.cookies.cookies(for: base + "/app/page").map(\.name) == ["scoped", "persist"])
        #expect(try client.cookies.cookies(for: base + "/application").map(\.name) == ["persist"])
        #expect(
            try client.cookies.cookies(for: "https://127.0.0.2/app").map(\.name).sorted() == [
                "persist", "scoped", "sec",
            ])
        let names = try Set(client.cookies.all().map(\.name))
        #expect(names == ["scoped", "persist", "sec"])
        let persist = try client.cookies.all().first { $0.name == "persist" }
        let expiry = try #require(persist?.expires)
        // Max-Age counts from when the cookie arrived: between the request's start and now, plus an hour.
        #expect(expiry >= setAt.addingTimeInterval(3600 - 2) && expiry <= Date().addingTimeInterval(3600 + 2))
        #expect(try client.cookies.all().first { $0.name == "scoped" }?.expires == nil)

        // Max-Age=0 from the server deletes.
        _ = try await client.execute(HTTPRequest(url: Self.setURL(base, "persist=x; Path=/; Max-Age=0")))
        #expect(try await client.execute(HTTPRequest(url: base + "/")).text == "")
    }

    @Test func addRemoveAndClear() async throws {
        let server = try Self.cookieServer()
        defer { server.stop() }
        let client = try makeClient()
        try client.cookies.add(setCookie: "a=1; Path=/; HttpOnly", for: server.baseURL + "/x")
        try client.cookies.add(Cookie(name: "b", value: "2", domain: "127.0.0.1"))
        #expect(try client.cookies.all().first { $0.name == "a" }?.httpOnly == true)
        #expect(try await client.execute(HTTPRequest(url: server.baseURL + "/")).text == "a=1;b=2")
        try client.cookies.remove(name: "a", domain: "127.0.0.1")
        #expect(try await client.execute(HTTPRequest(url: server.baseURL + "/")).text == "b=2")
        try client.cookies.removeAll()
        #expect(try client.cookies.all().isEmpty)
        #expect(try await client.execute(HTTPRequest(url: server.baseURL + "/")).text == "")
        #expect(throws: TransportError.self) {
            try client.cookies.add(setCookie: "x=1; Domain=other.example", for: "http://a.example.test/")
        }
    }

    @Test func exportIsReadByCurlAndIsPrivate() async throws {
        let recorder = Recorder()
        let server = try Self.cookieServer(recorder)
        defer { server.stop() }
        let client = try makeClient()
        _ = try await client.execute(
            HTTPRequest(url: Self.setURL(server.baseURL, "FedAuth=abc123; Path=/; HttpOnly", "rtFa=xyz; Path=/")))
        let directory = URL(fileURLWithPath: try temporaryDirectory("transport"))
        let path = directory.appendingPathComponent("session.cookies").path
        try client.cookies.export(to: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["session.cookies"])

        let result = try await run("/usr/bin/curl", ["-s", "--max-time", "10", "-b", path, server.baseURL + "/curl"])
        #expect(result.status == 0)
        let seen = try #require(recorder.requests.last { $0.path == "/curl" })
        #expect(seen.cookies == ["FedAuth": "abc123", "rtFa": "xyz"])

        // Round trip into a fresh client.
        let other = try makeClient()
        #expect(try other.cookies.import(from: path) == 2)
        #expect(try await other.execute(HTTPRequest(url: server.baseURL + "/")).text == "FedAuth=abc123;rtFa=xyz")
        #expect(try other.cookies.all().first { $0.name == "FedAuth" }?.httpOnly == true)
    }

    @Test func importReadsAJarWrittenByCurl() async throws {
        let server = try Self.cookieServer()
        defer { server.stop() }
        let path = URL(fileURLWithPath: try temporaryDirectory("transport")).appendingPathComponent("curl.jar").path
        let setURL = Self.setURL(server.baseURL, "k=v1; Path=/; HttpOnly", "m=v2; Path=/m; Max-Age=600")
        #expect(try await run("/usr/bin/curl", ["-s", "--max-time", "10", "-c", path, setURL]).status == 0)
        let client = try makeClient()
        #expect(try client.cookies.import(from: path) == 2)
        #expect(try await client.execute(HTTPRequest(url: server.baseURL + "/m/x")).text == "k=v1;m=v2")
        let m = try #require(try client.cookies.all().first { $0.name == "m" })
        #expect(m.path == "/m" && m.expires != nil && m.hostOnly)
        #expect(throws: TransportError.self) { try client.cookies.import(from: path + ".missing") }
    }

    @Test func exportOverwritesAtomically() throws {
        let client = try makeClient()
        let directory = URL(fileURLWithPath: try temporaryDirectory("transport"))
        let path = directory.appendingPathComponent("jar.txt").path
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o644) == 0)
        try client.cookies.add(Cookie(name: "n", value: "v", domain: "example.test", hostOnly: false))
        try client.cookies.export(to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# Netscape HTTP Cookie File"))
        #expect(text.contains(".example.test\tTRUE\t/\tFALSE\t0\tn\tv"))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(throws: TransportError.self) { try client.cookies.export(to: "/nonexistent-dir/x/jar.txt") }
    }

    @Test func netscapeLinesRoundTrip() throws {
        let cookie = Cookie(
            name: "n", value: "v w", domain: ".Example.Test", hostOnly: false, path: "/p",
            expires: Date(timeIntervalSince1970: 2_000_000_000), secure: true, httpOnly: true)
        #expect(cookie.domain == "example.test")
        #expect(cookie.netscapeLine == "#HttpOnly_.example.test\tTRUE\t/p\tTRUE\t2000000000\tn\tv w")
        #expect(Cookie(netscapeLine: cookie.netscapeLine) == cookie)
        #expect(Cookie(netscapeLine: "# comment") == nil)
        #expect(!cookie.description.contains("v w"))
        let parsed = try #require(Cookie(setCookie: "id=7; Path=/a/b", url: "http://h.test/x/y/z"))
        #expect(parsed.path == "/a/b" && parsed.domain == "h.test" && parsed.hostOnly)
        #expect(Cookie(setCookie: "id=7", url: "http://h.test/x/y/z")?.path == "/x/y")
    }
}
