import Foundation
import HTTPServer
import TestSupport
import Testing

/// Servers that echo what the user typed and what they set: the password, a cookie value, escape sequences. None of
/// it may come back out of spconnect, in any place it writes (standard error, the sign-in record, `--trace`,
/// `--dump-pages`), in any encoding the page carried it in.
@Suite struct EchoingServerTests {
    static let password = "Echo-Pa55word&<1>"
    static let idpCookie = "idp-session-value-0123456789"

    /// The password and the cookie as a page may spell them.
    static var spellings: [String] {
        [
            password, "Echo-Pa55word%26%3C1%3E", "Echo-Pa55word&amp;&lt;1&gt;", "Echo-Pa55word\\u0026\\u003c1\\u003e",
            idpCookie,
        ]
    }

    /// A site on 127.0.0.1 sending the sign-in to an IdP on 127.0.0.2 whose answer to the password post is
    /// `answer(password, cookie)`.
    struct World {
        let site: HTTPServer
        let idp: HTTPServer
        let state: String

        init(answer: @escaping @Sendable (String, String) -> String) throws {
            let idp = try HTTPServer(address: "127.0.0.2") { request in
                if request.method == "POST" {
                    let typed = request.formValue("Password") ?? ""
                    let cookie = request.cookies["IdpSession"] ?? ""
                    return HTTPServerResponse(
                        status: 200, contentType: "text/html; charset=utf-8", text: answer(typed, cookie))
                }
                return HTTPServerResponse(
                    status: 200, contentType: "text/html; charset=utf-8", text: EchoingServerTests.loginForm(""),
                    headers: [("Set-Cookie", "IdpSession=\(EchoingServerTests.idpCookie); Path=/")])
            }
            self.idp = idp
            let idpURL = idp.baseURL
            site = try HTTPServer(address: "127.0.0.1") { _ in
                HTTPServerResponse(status: 302, headers: [("Location", idpURL + "/login")])
            }
            state = try temporaryDirectory("echo")
        }

        func login(_ extra: [String]) async throws -> RunResult {
            try await runSpconnect(
                [
                    "login", "--site", site.baseURL, "--user", "alice@contoso.test", "--password-stdin",
                    "--allow-http-loopback",
                ] + extra,
                stdin: EchoingServerTests.password + "\n", environment: ["XDG_STATE_HOME": state, "HOME": state])
        }

        /// Every file spconnect wrote under the state folder and `others`, with its text.
        func writtenFiles(_ others: [String]) -> [(path: String, text: String)] {
            var files: [(String, String)] = []
            for root in [state] + others {
                guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
                while let name = walker.nextObject() as? String {
                    let path = root + "/" + name
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                        files.append(
                            (
                                path,
                                String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
                            ))
                    }
                }
            }
            return files
        }

        func stop() {
            site.stop()
            idp.stop()
            try? FileManager.default.removeItem(atPath: state)
        }
    }

    static func loginForm(_ message: String) -> String {
        """
        <html><head><title>Sign in</title></head><body>
        \(message)
        <form method="post" action="/login">
          <input type="email" name="UserName" autocomplete="username">
          <input type="password" name="Password" autocomplete="current-password">
          <input type="submit" value="Sign in">
        </form></body></html>
        """
    }

    /// Where a secret shows up, if anywhere.
    static func leaks(in texts: [(place: String, text: String)]) -> [String] {
        texts.flatMap { place, text in spellings.filter { text.contains($0) }.map { "\(place) holds \($0)" } }
    }

    @Test func aWrongPasswordPageThatEchoesEverySecretRepeatsNone() async throws {
        let world = try World { typed, cookie in
            EchoingServerTests.loginForm(
                """
                <div class="error" role="alert">The password \(typed.replacingOccurrences(of: "&", with: "&amp;")
                    .replacingOccurrences(of: "<", with: "&lt;")) is wrong for session \(cookie).\u{1b}[2J\rFORGED</div>
                """)
        }
        defer { world.stop() }
        let trace = world.state + "/trace.jsonl"
        let result = try await world.login(["--trace", trace])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("is wrong for session"), "the page's message is kept: \(result.stderr)")
        #expect(result.stderr.contains("<redacted>"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1b}") && !result.stderr.contains("\r"), "raw controls reached stderr")
        let files = world.writtenFiles([])
        #expect(files.contains { $0.path.hasSuffix(".signin.json") }, "no sign-in record was written")
        #expect(files.contains { $0.path == trace })
        let leaks = Self.leaks(
            in: [("stderr", result.stderr), ("stdout", result.stdout)] + files.map { ($0.path, $0.text) })
        #expect(leaks.isEmpty, "\(leaks)")
    }

    @Test func anUnknownPageThatEchoesTheSecretsIsDumpedWithoutThem() async throws {
        let world = try World { typed, cookie in
            let percent = typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let json = typed.replacingOccurrences(of: "&", with: "\\u0026").replacingOccurrences(
                of: "<", with: "\\u003c"
            )
            .replacingOccurrences(of: ">", with: "\\u003e")
            let html = typed.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            return """
                <html><body><h1>Thanks</h1><p>We logged \(html) and \(cookie).</p>
                <a href="/again?p=\(percent)">again</a><script>var seen = "\(json)";</script></body></html>
                """
        }
        defer { world.stop() }
        let dumps = world.state + "/dumps"
        let result = try await world.login(["--dump-pages", dumps])
        #expect(result.status == 5, "\(result.stderr)")
        let files = world.writtenFiles([dumps])
        #expect(files.contains { $0.path.hasPrefix(dumps) }, "no page was dumped: \(result.stderr)")
        #expect(files.contains { $0.text.contains("We logged") }, "the dump lost the page's text")
        let leaks = Self.leaks(in: [("stderr", result.stderr)] + files.map { ($0.path, $0.text) })
        #expect(leaks.isEmpty, "\(leaks)")
    }
}
