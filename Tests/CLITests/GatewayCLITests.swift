import Foundation
import SPSim
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect gateway` (docs/cli.md) against the simulator, with curl as the other tool: requests with the
/// gateway's secret reach the site with the session's cookies, everything else is refused before anything is sent,
/// a session that ends is renewed once and the request repeated, and no secret appears in any output.
/// Serialized: each case runs a simulator, the gateway and several curl processes.
@Suite(.serialized) struct GatewayCLITests {
    /// A running gateway: its URL, secret, and the process to stop.
    struct Running {
        let url: String
        let secret: String
        let pid: pid_t
        let exited: Task<Int32, Never>
        let folder: String

        func stop() async -> Int32 {
            kill(pid, SIGTERM)
            return await exited.value
        }

        var log: String {
            (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? ""
        }
    }

    static func start(_ fixture: CLIFixture, extra: [String: String] = [:]) async throws -> Running {
        let folder = try temporaryDirectory("gateway")
        let environment = fixture.environment.merging(extra) { $1 }
        let script = "echo $$ > \"$1/pid\"; exec \"$0\" gateway --secret-file \"$1/secret\" > \"$1/out\" 2> \"$1/err\""
        let exited = Task {
            await spawnToExit("/bin/sh", ["-c", script, spconnectPath, folder], environment: environment)
        }
        for _ in 0..<200 where (try? String(contentsOfFile: folder + "/out", encoding: .utf8))?.contains("\n") != true {
            try await Task.sleep(for: .milliseconds(50))
        }
        let url = try String(contentsOfFile: folder + "/out", encoding: .utf8).split(separator: "\n").first.map(
            String.init)
        let secret = try String(contentsOfFile: folder + "/secret", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // The secret file is the gateway's key: only its owner may read it, and no temporary copy is left beside it.
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/secret")[.posixPermissions] as? Int
        #expect(mode == 0o600, "secret file mode \(String(mode ?? 0, radix: 8))")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains(".spconnect-") })
        let pid =
            pid_t(
                try String(contentsOfFile: folder + "/pid", encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)) ?? 0
        return Running(url: try #require(url), secret: secret, pid: pid, exited: exited, folder: folder)
    }

    /// curl's status code and body for one request.
    static func curl(_ arguments: [String]) async throws -> (status: Int, body: String) {
        let folder = try temporaryDirectory("curl")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = await spawnToExit(
            "/usr/bin/curl", ["-s", "-o", folder + "/body", "-w", "%{http_code}"] + arguments,
            environment: ["PATH": "/usr/bin:/bin"], standardOutput: folder + "/code", timeout: .seconds(60))
        let code = Int((try? String(contentsOfFile: folder + "/code", encoding: .utf8)) ?? "") ?? 0
        return (code, (try? String(contentsOfFile: folder + "/body", encoding: .utf8)) ?? "")
    }

    /// The response headers curl received for one request (`-D FILE`, apart from the body), and the status.
    static func curlHeaders(_ arguments: [String]) async throws -> (status: Int, headers: String) {
        let folder = try temporaryDirectory("curl")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = await spawnToExit(
            "/usr/bin/curl", ["-s", "-D", folder + "/headers", "-o", "/dev/null", "-w", "%{http_code}"] + arguments,
            environment: ["PATH": "/usr/bin:/bin"], standardOutput: folder + "/code", timeout: .seconds(60))
        let code = Int((try? String(contentsOfFile: folder + "/code", encoding: .utf8)) ?? "") ?? 0
        return (code, (try? String(contentsOfFile: folder + "/headers", encoding: .utf8)) ?? "")
    }

    /// The site's `Set-Cookie` stays in the session: spsim here answers every signed-in REST request with a load
    /// balancer's affinity cookie (the positive control: the site does send one, and curl sees it when asking the
    /// site directly), and no answer of the gateway carries it, or any `Set-Cookie`.
    @Test func theSitesSetCookieNeverReachesAGatewayClient() async throws {
        let fixture = try await CLIFixture(restAffinityCookie: true)
        let cookies = try String(contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
        let fedAuth = try #require(
            cookies.split(separator: "\n").first { $0.contains("\tFedAuth\t") }?.split(separator: "\t").last)
        let direct = try await Self.curlHeaders([
            "-H", "Cookie: FedAuth=\(fedAuth)", "-H", "Accept: application/json;odata=nometadata",
            fixture.sim.siteURL + "/_api/web",
        ])
        #expect(direct.status == 200 && direct.headers.lowercased().contains("set-cookie: spaffinity="), "\(direct)")
        let gateway = try await Self.start(fixture)
        for path in ["/_api/web", "/_api/web/lists", "/Shared%20Documents/Welcome.txt"] {
            let answer = try await Self.curlHeaders(["-u", "any:\(gateway.secret)", gateway.url + path])
            #expect(answer.status == 200, "\(path): \(answer)")
            #expect(!answer.headers.lowercased().contains("set-cookie"), "\(path): \(answer.headers)")
        }
        #expect(await gateway.stop() == 0, "\(gateway.log)")
    }

    @Test func requestsWithTheSecretReachTheSiteAndOthersAreRefused() async throws {
        let fixture = try await CLIFixture()
        let gateway = try await Self.start(fixture)
        let accept = "Accept: application/json;odata=nometadata"
        fixture.sim.clearRequestLog()

        let web = try await Self.curl([
            "-u", "any:\(gateway.secret)", "-H", accept, gateway.url + "/_api/web?$select=Title",
        ])
        #expect(web.status == 200 && web.body.contains("SPSim Team"), "\(web) \(gateway.log)")
        let bearer = try await Self.curl([
            "-H", "Authorization: Bearer \(gateway.secret)", gateway.url + "/Shared%20Documents/Welcome.txt",
        ])
        #expect(bearer.status == 200 && bearer.body.hasPrefix("Welcome"), "\(bearer)")
        let sent = fixture.sim.requestLog().count
        #expect(sent == 2)

        let refusals: [(String, [String], Int)] = [
            ("no secret", [gateway.url + "/_api/web"], 401),
            ("wrong secret", ["-u", "any:wrong", gateway.url + "/_api/web"], 401),
            (
                "foreign Host",
                ["-u", "any:\(gateway.secret)", "-H", "Host: sharepoint.example", gateway.url + "/_api/web"], 421
            ),
            (
                "foreign Origin",
                ["-u", "any:\(gateway.secret)", "-H", "Origin: https://evil.example", gateway.url + "/_api/web"], 403
            ),
            (
                "outside the site",
                ["-u", "any:\(gateway.secret)", "--path-as-is", gateway.url + "/a/../../etc/passwd"], 400
            ),
        ]
        for (name, arguments, status) in refusals {
            let refused = try await Self.curl(arguments)
            #expect(refused.status == status, "\(name): \(refused)")
        }
        #expect(fixture.sim.requestLog().count == sent, "a refused request is never sent on")

        let headers = try await Self.curl(["-u", "any:\(gateway.secret)", gateway.url + "/_api/web"])
        #expect(await gateway.stop() == 0, "\(gateway.log)")
        let cookies = try String(contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
        for value in cookies.split(separator: "\n").compactMap({ $0.split(separator: "\t").last })
        where value.count > 12 {
            #expect(!(web.body + bearer.body + headers.body + gateway.log).contains(value))
        }
        #expect(!gateway.log.contains(gateway.secret), "\(gateway.log)")

        let remote = try await fixture.run(["gateway", "--listen", "0.0.0.0:8700"])
        #expect(remote.status == 2 && remote.stderr.contains("loopback"), "\(remote.stderr)")
    }

    @Test func anEndedSessionIsRenewedOnceAndTheRequestRepeated() async throws {
        let fixture = try await CLIFixture()
        let gateway = try await Self.start(fixture, extra: ["SPCONNECT_PASSWORD": alicePassword])
        let first = try await Self.curl(["-u", "x:\(gateway.secret)", gateway.url + "/_api/web"])
        #expect(first.status == 200, "\(first)")
        fixture.sim.expireSessions()
        let signIns = fixture.sim.passwordSignIns(for: aliceEmail)
        // Eight clients at once after the expiry: one renewal between them.
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try await Self.curl(["-u", "x:\(gateway.secret)", gateway.url + "/_api/web"]).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: 200, count: 8), "\(results) \(gateway.log)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == signIns + 1)
        _ = await gateway.stop()
        #expect(!gateway.log.contains(alicePassword))

        // Without a password source the client gets a 503 with the reason, not the sign-in page.
        let bare = try await Self.start(fixture)
        fixture.sim.expireSessions()
        let gone = try await Self.curl(["-u", "x:\(bare.secret)", bare.url + "/_api/web"])
        #expect(gone.status == 503 && gone.body.contains("could not be renewed"), "\(gone)")
        _ = await bare.stop()
    }
}
