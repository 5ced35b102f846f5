import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect` against servers and neighbours that try to get a secret out of it: a planted session naming a
/// foreign site, an https site whose redirects and next links lead to plain http, a next-link cycle.
@Suite struct HostileServerTests {
    /// Every request a server saw, with its body.
    final class Log: Sendable {
        private let entries = Mutex<[(target: String, body: String)]>([])
        func add(_ request: HTTPServerRequest) {
            entries.withLock { $0.append((request.target, String(decoding: request.body, as: UTF8.self))) }
        }
        var all: [(target: String, body: String)] { entries.withLock { $0 } }
    }

    /// A session file for `site` (mode 0600 unless the caller changes it), in spconnect's format.
    static func sessionFile(site: String, host: String) -> String {
        """
        # Netscape HTTP Cookie File
        # spconnect-session {"allowHTTPLoopback":true,"allowedHosts":[],"flow":"forms","provedAt":1800000000,\
        "site":"\(site)","user":"alice@contoso.test"}

        #HttpOnly_\(host)\tFALSE\t/\tFALSE\t0\tFedAuth\tsession-cookie-value

        """
    }

    /// A private state folder whose sessions folder is `mode`.
    static func stateFolder(sessionsMode: mode_t) throws -> (state: String, sessions: String) {
        let state = try temporaryDirectory("hostile")
        let sessions = state + "/spconnect/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        chmod(sessions, sessionsMode)
        return (state, sessions)
    }

    /// Runs `command` as the unprivileged user `nobody` (the neighbour); needs root.
    static func asNobody(_ command: String) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", "nobody", "--", "/bin/sh", "-c", command]
        return try await runToExit(process)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to act as a second user (nobody)"))
    func aSessionPlantedByAnotherUserIsNeverUsedAndThePasswordStaysHome() async throws {
        let attacker = Log()
        let foreign = try HTTPServer(address: "127.0.0.2") { request in
            attacker.add(request)
            return HTTPServerResponse(status: 401, headers: [("WWW-Authenticate", "NTLM")])
        }
        defer { foreign.stop() }
        let (state, sessions) = try Self.stateFolder(sessionsMode: 0o777)
        defer { try? FileManager.default.removeItem(atPath: state) }
        chmod(state, 0o755)
        let source = state + "/planted.txt"
        try Self.sessionFile(site: foreign.baseURL, host: "127.0.0.2").write(
            toFile: source, atomically: true, encoding: .utf8)
        chmod(source, 0o644)
        let target = sessions + "/default.cookies"
        #expect(try await Self.asNobody("cp '\(source)' '\(target)' && chmod 600 '\(target)'") == 0)
        let environment = ["XDG_STATE_HOME": state, "HOME": state, "SPCONNECT_PASSWORD": "Planted-Pa55word!"]

        let open = try await runSpconnect(["whoami"], environment: environment)
        #expect(open.status == 1, "\(open.stderr)")
        #expect(open.stderr.contains("chmod 700"), "\(open.stderr)")

        // The victim closes the folder; the planted file is still someone else's.
        chmod(sessions, 0o700)
        let planted = try await runSpconnect(["whoami"], environment: environment)
        #expect(planted.status == 1, "\(planted.stderr)")
        #expect(planted.stderr.contains("uid 65534"), "\(planted.stderr)")

        // A link of the user's own to the neighbour's file is not followed either.
        let theirs = state + "/theirs.cookies"
        try FileManager.default.moveItem(atPath: target, toPath: theirs)
        try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: theirs)
        let linked = try await runSpconnect(["whoami"], environment: environment)
        #expect(linked.status == 1, "\(linked.stderr)")
        #expect(linked.stderr.contains("symbolic link"), "\(linked.stderr)")

        #expect(attacker.all.isEmpty, "the planted site was contacted: \(attacker.all.map(\.target))")
        for run in [open, planted, linked] { #expect(!run.stderr.contains("Planted-Pa55word!")) }
    }

    /// An https site (TLS on loopback) with a saved session; `respond` answers every request.
    struct SecureSite {
        let server: HTTPServer
        let certificate: TestCertificate
        let state: String
        let environment: [String: String]

        init(respond: @escaping @Sendable (HTTPServerRequest) -> HTTPServerResponse) async throws {
            certificate = try await TestCertificate.make()
            server = try HTTPServer(tls: (certificate.certificatePEM, certificate.keyPEM), handler: respond)
            let (state, sessions) = try HostileServerTests.stateFolder(sessionsMode: 0o700)
            self.state = state
            let path = sessions + "/default.cookies"
            try HostileServerTests.sessionFile(site: server.baseURL, host: "127.0.0.1").write(
                toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
            environment = ["XDG_STATE_HOME": state, "HOME": state]
        }

        func run(_ arguments: [String]) async throws -> RunResult {
            try await runSpconnect(arguments + ["--cacert", certificate.certificatePath], environment: environment)
        }

        func stop() {
            server.stop()
            try? FileManager.default.removeItem(atPath: state)
        }
    }

    static func page(_ ids: [Int], next: String?) -> HTTPServerResponse {
        let items = ids.map { "{\"Id\":\($0),\"Title\":\"Item \($0)\"}" }.joined(separator: ",")
        let link = next.map { ",\"odata.nextLink\":\"\($0)\"" } ?? ""
        return HTTPServerResponse(
            status: 200, contentType: "application/json;odata=nometadata;charset=utf-8",
            text: "{\"value\":[\(items)]\(link)}")
    }

    /// The session's cookie (not marked `Secure`) never goes over plain http: not through a redirect of `api`, not
    /// through an `http://` next link of a listing. Both end with exit 7 and the plain server sees nothing.
    @Test func anHTTPSSessionNeverFollowsAHopToPlainHTTP() async throws {
        let plain = Log()
        let clear = try HTTPServer { request in
            plain.add(request)
            return HostileServerTests.page([99], next: nil)
        }
        defer { clear.stop() }
        let clearURL = clear.baseURL
        let site = try await SecureSite { request in
            if request.path.lowercased().hasSuffix("/items") {
                return HostileServerTests.page([1, 2], next: clearURL + "/_api/web/lists/items?page=2")
            }
            return HTTPServerResponse(status: 302, headers: [("Location", clearURL + request.target)])
        }
        defer { site.stop() }

        let listing = try await site.run(["items", "Tasks", "--all", "--output", "ndjson", "--select", "Id"])
        #expect(listing.status == 7, "\(listing.stderr)")
        #expect(listing.stderr.contains("plain http"), "\(listing.stderr)")
        let api = try await site.run(["api", "GET", "/_api/web"])
        #expect(api.status == 7, "\(api.stderr)")
        #expect(api.stderr.contains("plain http"), "\(api.stderr)")
        #expect(plain.all.isEmpty, "plain http received \(plain.all.map(\.target))")
    }

    /// A SharePoint error that quotes the session cookie and carries terminal escapes is shown with the cookie
    /// removed and the escapes visible as text, on one line.
    @Test func aServerMessageCannotEchoTheCookieOrDriveTheTerminal() async throws {
        let site = try await SecureSite { _ in
            HTTPServerResponse(
                status: 500, contentType: "application/json;odata=nometadata",
                text: #"{"odata.error":{"code":"-2146232832, Microsoft.SharePoint.SPException","message":"#
                    + #"{"lang":"en-US","value":"Bad cookie session-cookie-value\u001b[2J\rspconnect: all good\n"}}}"#)
        }
        defer { site.stop() }
        let result = try await site.run(["web"])
        #expect(result.status != 0)
        #expect(!result.stderr.contains("session-cookie-value"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1b}") && !result.stderr.contains("\r"), "\(result.stderr)")
        #expect(result.stderr.contains("\\x1b[2J\\rspconnect: all good"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "a line was forged: \(result.stderr)")
    }

    /// `--timeout` bounds the whole command: a server that answers two bytes at a time ends it with exit 6 and a
    /// sentence naming the option.
    @Test func timeoutStopsACommandAgainstATricklingServer() async throws {
        let site = try await SecureSite { _ in
            let body = Array(#"{"Title":"slow","Url":"https://127.0.0.1/"}"#.utf8)
            let sent = Mutex(0)
            return HTTPServerResponse(
                status: 200, headers: [("Content-Type", "application/json;odata=nometadata")],
                body: .stream(length: body.count) {
                    let start = sent.withLock { position in
                        defer { position += 2 }
                        return position
                    }
                    guard start < body.count else { return .end }
                    Thread.sleep(forTimeInterval: 0.5)
                    return .data(Array(body[start..<min(start + 2, body.count)]))
                })
        }
        defer { site.stop() }
        let result = try await site.run(["web", "--timeout", "1"])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("--timeout"), "\(result.stderr)")
        let bad = try await site.run(["web", "--timeout", "soon"])
        #expect(bad.status == 2)
    }

    /// A listing whose next links go A → B → A stops at the first repeat with an error, having printed each item
    /// once and asked for each page once.
    @Test func aNextLinkCycleEndsTheListingWithoutDuplicates() async throws {
        let log = Log()
        let site = try await SecureSite { request in
            log.add(request)
            let base = "https://" + (request.header("Host") ?? "")
            guard request.queryValue("page") == "b" else {
                return HostileServerTests.page([1, 2], next: base + "/_api/web/lists/items?page=b")
            }
            // Back to the first page, exactly as it was asked for.
            return HostileServerTests.page([3, 4], next: base + (log.all.first?.target ?? "/"))
        }
        defer { site.stop() }
        let result = try await site.run(["items", "Tasks", "--all", "--output", "ndjson", "--select", "Id"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("leads back"), "\(result.stderr)")
        #expect(result.stdout == "{\"Id\":1}\n{\"Id\":2}\n{\"Id\":3}\n{\"Id\":4}\n", "\(result.stdout)")
        #expect(log.all.count == 2, "\(log.all.map(\.target))")
    }
}
