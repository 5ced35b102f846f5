import AuthFlow
import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing
import Transport

@Suite struct SessionStoreTests {
    let directory = NSTemporaryDirectory() + "spconnect-store-\(UUID().uuidString)"

    func session(host: String) -> Session {
        Session(
            siteURL: "http://\(host)", user: "alice@contoso.test", displayName: "Alice", flow: "entra",
            provedAt: Date(timeIntervalSince1970: 1_800_000_000),
            cookies: [
                Cookie(
                    name: "FedAuth", value: "77u/PD94bWwgdmVyc2lvbj0iMS4wIj8+PFNQPg", domain: "127.0.0.1",
                    hostOnly: true, path: "/", expires: Date().addingTimeInterval(3600), secure: false,
                    httpOnly: true),
                Cookie(name: "rtFa", value: "rt-value", domain: "127.0.0.1", httpOnly: true),
            ])
    }

    @Test func savesAtomicallyWithMode0600AndLoadsBack() throws {
        let store = SessionStore(directory: directory)
        let original = session(host: "127.0.0.1")
        try store.save(original, profile: "work")
        let path = try store.path(for: "work")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
        let loaded = try #require(try store.load(profile: "work"))
        #expect(loaded.user == original.user)
        #expect(loaded.siteURL == original.siteURL)
        #expect(loaded.displayName == "Alice")
        #expect(loaded.flow == "entra")
        #expect(loaded.provedAt == original.provedAt)
        #expect(loaded.cookies.map(\.name) == ["FedAuth", "rtFa"])
        #expect(loaded.cookies.first?.value == original.cookies.first?.value)
        #expect(loaded.cookies.first?.httpOnly == true)
        #expect(loaded.isValid(requiring: ["FedAuth", "rtFa"]))
        #expect(!loaded.isValid(requiring: ["FedAuth"], at: Date().addingTimeInterval(3590)))
        #expect(!loaded.description.contains("77u/"))
        try store.remove(profile: "work")
        #expect(try store.load(profile: "work") == nil)
        try store.remove(profile: "work")
    }

    /// How the user signed in survives the file; a file written before those fields existed reads as the defaults.
    @Test func howTheUserSignedInIsKeptAndOldFilesStillRead() throws {
        let store = SessionStore(directory: directory)
        var original = session(host: "127.0.0.1")
        original.targetCookies = ["SPOAuth", "rtFa"]
        original.staySignedIn = true
        original.loginURL = "https://login.example.test/extSTS.srf"
        try store.save(original, profile: "how")
        let loaded = try #require(try store.load(profile: "how"))
        #expect(loaded.targetCookies == ["SPOAuth", "rtFa"])
        #expect(loaded.staySignedIn)
        #expect(loaded.loginURL == "https://login.example.test/extSTS.srf")
        #expect(loaded.renewalConfiguration(password: Secret("x")).expectedCookies == ["SPOAuth", "rtFa"])

        let old = """
            # Netscape HTTP Cookie File
            # spconnect-session {"allowHTTPLoopback":true,"allowedHosts":[],"flow":"entra","provedAt":1800000000,\
            "site":"http://127.0.0.1","user":"alice@contoso.test"}
            #HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tFedAuth\tvalue

            """
        try old.write(toFile: try store.path(for: "old"), atomically: true, encoding: .utf8)
        chmod(try store.path(for: "old"), 0o600)
        let legacy = try #require(try store.load(profile: "old"))
        #expect(legacy.targetCookies.isEmpty && !legacy.staySignedIn && legacy.loginURL == nil)
        #expect(legacy.policy.allowHTTPLoopback && legacy.cookies.map(\.name) == ["FedAuth"])
    }

    /// Where a renewal finds the password is kept in the file as earlier versions wrote it (`passwordCommand`, or
    /// `passwordSource` "keyring"), and read back as the one typed source.
    @Test(arguments: [
        RenewalPasswordSource.unsaved, .command("pass show contoso/alice"), .keyring,
    ])
    func theRenewalPasswordSourceRoundTripsInTheFileFormat(_ source: RenewalPasswordSource) throws {
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var original = session(host: "127.0.0.1")
        original.renewalPasswordSource = source
        try store.save(original, profile: "work")
        #expect(try store.load(profile: "work")?.renewalPasswordSource == source)
        let text = try String(contentsOfFile: try store.path(for: "work"), encoding: .utf8)
        #expect(
            text.contains(#""passwordCommand":"pass show contoso/alice""#) == (source != .unsaved && source != .keyring)
        )
        #expect(text.contains(#""passwordSource":"keyring""#) == (source == .keyring))
    }

    @Test func refusesProfileNamesThatEscapeTheFolder() {
        let store = SessionStore(directory: directory)
        for name in ["../etc/passwd", "", ".hidden", "a/b", "name with space"] {
            #expect(throws: SessionStore.StoreError.invalidProfileName(name)) { try store.path(for: name) }
        }
    }

    @Test func corruptFileGivesAnActionableError() throws {
        let store = SessionStore(directory: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = try store.path(for: "broken")
        try "# Netscape HTTP Cookie File\nnot a cookie line\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        #expect {
            _ = try store.load(profile: "broken")
        } throws: { error in
            "\(error)".contains("sign in again")
        }
    }

    @Test func theRealCurlSendsASavedSession() async throws {
        let seen = CookieBox()
        let server = try HTTPServer { request in
            seen.set(request.cookies)
            return HTTPServerResponse(status: 200, contentType: "application/json", text: "{}")
        }
        defer { server.stop() }
        let store = SessionStore(directory: directory)
        try store.save(session(host: "127.0.0.1"), profile: "curl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-o", "/dev/null", "-b", try store.path(for: "curl"), server.baseURL + "/_api/web"]
        #expect(try await runToExit(process) == 0)
        #expect(seen.get()["FedAuth"] == "77u/PD94bWwgdmVyc2lvbj0iMS4wIj8+PFNQPg")
        #expect(seen.get()["rtFa"] == "rt-value")
    }
}

/// Cookies a test server saw, shared with the test.
final class CookieBox: Sendable {
    private let value = Mutex<[String: String]>([:])
    func set(_ cookies: [String: String]) { value.withLock { $0 = cookies } }
    func get() -> [String: String] { value.withLock { $0 } }
}
