import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect login --otp-command CMD` against a page that asks for a one-time code after the password: the
/// command's first line is the code; a refused code fails with exit 3; no source in a job is exit 4 naming the
/// option; the code appears in no output.
@Suite struct OneTimeCodeCLITests {
    static let code = "975310"

    final class Received: Sendable {
        let codes = Mutex<[String]>([])
    }

    /// A page on 127.0.0.1 behind a sign-in on 127.0.0.2 that asks for `code` after the password `pw-Ab12!`.
    static func world(_ received: Received, accepts: @escaping @Sendable (String) -> Bool = { $0 == code }) throws
        -> (HTTPServer, HTTPServer)
    {
        let idp = try HTTPServer(address: "127.0.0.2") { request in
            func page(_ text: String) -> HTTPServerResponse {
                HTTPServerResponse(status: 200, contentType: "text/html; charset=utf-8", text: text)
            }
            let next = request.formValue("next") ?? request.queryValue("next") ?? ""
            if request.method == "POST", request.path == "/code" {
                received.codes.withLock { $0.append(request.formValue("code") ?? "") }
                guard accepts(request.formValue("code") ?? "") else {
                    return page(
                        "<p role=alert>Wrong code</p><form method=post action=/code><input name=code "
                            + "autocomplete=one-time-code aria-invalid=true><input type=hidden name=next value='\(next)'></form>"
                    )
                }
                return HTTPServerResponse(status: 302, headers: [("Location", next)])
            }
            if request.method == "POST", request.formValue("password") == "pw-Ab12!" {
                return page(
                    "<form method=post action=/code><input name=code autocomplete=one-time-code>"
                        + "<input type=hidden name=next value='\(next)'><button>Verify</button></form>")
            }
            return page(
                "<form method=post action=/login><input name=user autocomplete=username><input type=password "
                    + "name=password><input type=hidden name=next value='\(next)'></form>")
        }
        let idpURL = idp.baseURL
        let site = try HTTPServer(address: "127.0.0.1") { request in
            if request.cookies["sid"] == "in" {
                return HTTPServerResponse(status: 200, contentType: "text/html", text: "<p>Welcome</p>")
            }
            if request.path == "/done" {
                return HTTPServerResponse(status: 302, headers: [("Location", "/"), ("Set-Cookie", "sid=in; Path=/")])
            }
            let done = "http://" + (request.header("Host") ?? "") + "/done"
            return HTTPServerResponse(status: 302, headers: [("Location", idpURL + "/login?next=" + done)])
        }
        return (site, idp)
    }

    func login(site: HTTPServer, _ extra: [String]) async throws -> (RunResult, String) {
        let state = try temporaryDirectory("otp")
        let result = try await runSpconnect(
            [
                "login", "--url", site.baseURL + "/", "--user", "alice", "--password-stdin", "--allow-http-loopback",
                "--trace", state + "/trace.jsonl",
            ] + extra,
            stdin: "pw-Ab12!\n", environment: ["XDG_STATE_HOME": state, "HOME": state])
        return (result, state)
    }

    @Test func theCommandsCodeSignsInAndAppearsNowhere() async throws {
        let received = Received()
        let (site, idp) = try Self.world(received)
        defer {
            site.stop()
            idp.stop()
        }
        let (result, state) = try await login(site: site, ["--otp-command", "echo \(Self.code)"])
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(received.codes.withLock { $0 } == [Self.code])
        let files = (FileManager.default.enumerator(atPath: state)?.allObjects as? [String]) ?? []
        for name in files {
            let text = (try? String(contentsOfFile: state + "/" + name, encoding: .utf8)) ?? ""
            #expect(!text.contains(Self.code), "\(name) holds the code")
        }
        #expect(!result.stderr.contains(Self.code) && !result.stdout.contains(Self.code))
    }

    /// `--totp-secret-file`: the built-in generator's code is what `oathtool --totp` gives for the same secret now;
    /// a secret file others may read is refused before anything is sent.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/oathtool"), "oathtool not installed"))
    func aTOTPSecretFileAnswersTheCodePage() async throws {
        let secret = "JBSWY3DPEHPK3PXP"
        let received = Received()
        // The server's own check: oathtool's codes for the windows around now, computed before the server starts
        // (a server thread must not spawn processes: libmicrohttpd's threads have small stacks), for ten minutes
        // ahead: on a loaded machine the login came more than 90 s after this (a full suite beside two builds).
        let now = Int(Date().timeIntervalSince1970)
        var accepted: Set<String> = []
        for offset in stride(from: -30, through: 600, by: 30) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/oathtool")
            process.arguments = ["--totp", "--base32", "--now", "@\(now + offset)", secret]
            accepted.insert(
                String(decoding: try await runCollectingOutput(process).output, as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let codes = accepted
        let (site, idp) = try Self.world(received) { codes.contains($0) }
        defer {
            site.stop()
            idp.stop()
        }
        let folder = try temporaryDirectory("totp")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/secret"
        #expect(FileManager.default.createFile(atPath: file, contents: Data((secret + "\n").utf8)))
        chmod(file, 0o644)
        let (open, openState) = try await login(site: site, ["--totp-secret-file", file])
        defer { try? FileManager.default.removeItem(atPath: openState) }
        #expect(open.status == 2 && received.codes.withLock { $0 }.isEmpty, "\(open.stderr)")
        chmod(file, 0o600)
        let (result, state) = try await login(site: site, ["--totp-secret-file", file])
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(received.codes.withLock { $0 }.count == 1)
        #expect(!result.stderr.contains(secret))
    }

    @Test func aWrongCodeIsExit3AndNoSourceIsExit4() async throws {
        let received = Received()
        let (site, idp) = try Self.world(received)
        defer {
            site.stop()
            idp.stop()
        }
        let (wrong, wrongState) = try await login(site: site, ["--otp-command", "echo 000000"])
        defer { try? FileManager.default.removeItem(atPath: wrongState) }
        #expect(wrong.status == 3, "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("000000"), "\(wrong.stderr)")
        let (none, noneState) = try await login(site: site, [])
        defer { try? FileManager.default.removeItem(atPath: noneState) }
        #expect(none.status == 4, "\(none.stderr)")
        #expect(none.stderr.contains("--otp-command"), "\(none.stderr)")
    }
}
