import AuthFlow
import CommandLineKit
import Foundation
import JSON
import Presentation
import Transport

/// What `cookies --format` prints.
enum CookieFormat: String, CaseIterable {
    case header, netscape, json

    /// `--format`, one of the cases.
    static let option = OptionSpec.choice(
        .format, "FORMAT", of: CookieFormat.self,
        "\(OptionSpec.listed(CookieFormat.self)): header (default) is 'Cookie: a=b; c=d', netscape is for curl -b FILE")
}

/// `spconnect cookies`: the saved session for other tools (curl, wget, httpie, rclone), only the cookies a URL
/// would get.
let cookiesCommand = Command(
    name: "cookies",
    summary: "Print the saved session's cookies for another tool: a Cookie header, a Netscape file, or JSON.",
    synopsis: "[--profile NAME] [--format header|netscape|json] [--url URL]",
    options: [
        profileOption,
        CookieFormat.option,
        .value(.url, "URL", "only the cookies a request to URL would carry (default: the session's own URL)"),
    ],
    examples: [
        "curl -H \"$(spconnect cookies)\" https://contoso.sharepoint.com/sites/team/_api/web",
        "spconnect cookies --format netscape > cookies.txt",
    ]
) { arguments in
    _ = try positionals(arguments)
    let profile = arguments.value(.profile) ?? "default"
    guard let session = try SessionStore().load(profile: profile) else {
        throw SessionMissing(description: "no session for profile '\(profile)'; sign in first with 'spconnect login'")
    }
    let format = try arguments.choice(.format, as: CookieFormat.self) ?? .header
    let url = arguments.value(.url) ?? session.proofURL ?? session.siteURL + "/"
    guard let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
        throw UsageError(description: "--url \(url) is not an absolute http(s) URL")
    }
    // libcurl's own matching (domain, path, Secure) decides which cookies the URL would carry.
    let cookies = try session.cookies(for: url)
    ErrorOutput.remember(cookies: cookies)
    let sink = FileDescriptorSink.standardOutput()
    switch format {
    case .netscape:
        sink.write(cookies.netscapeFile(comment: "cookies of spconnect profile '\(profile)' for \(url)"))
    case .json:
        let values: [JSONValue] = cookies.map { cookie in
            .object([
                ("name", .string(cookie.name)), ("value", .string(cookie.value)), ("domain", .string(cookie.domain)),
                ("path", .string(cookie.path)), ("secure", .bool(cookie.secure)), ("httpOnly", .bool(cookie.httpOnly)),
                ("expires", cookie.expires.map { .integer(Int64($0.timeIntervalSince1970)) } ?? .null),
            ])
        }
        sink.write(JSONValue.array(values).serialized(options: .prettyPrinted) + "\n")
    case .header:
        guard !cookies.isEmpty else {
            // A session of HTTP authentication may hold no cookie at all: each request signs in again.
            if [SignInFlow.basic, .ntlm, .kerberos].map(\.rawValue).contains(session.flow) {
                let curl = session.flow == "kerberos" ? "--negotiate -u :" : "--\(session.flow) -u USER"
                printError(
                    "spconnect cookies: the session holds no cookie: it signs in by \(session.flow) on every request "
                        + "(with curl: \(curl))")
                return .ok
            }
            printError("spconnect cookies: the session holds no cookie that \(Redaction.url(url)) would get")
            return .notFound
        }
        sink.write(cookies.cookieHeaderLine + "\n")
    }
    sink.flush()
    return .ok
}

/// `whoami` for a session of any web page: the proof URL is asked again with the session; 2xx on its origin that
/// is not a sign-in page means signed in. A session that ended is renewed once when a password is at hand.
func webWhoami(_ arguments: ParsedArguments, context: SessionContext, proofURL: String) async throws -> ExitCode {
    let output = try Output(arguments)
    var renewed = false
    while true {
        let result: WebSessionCheck.Result
        do {
            result = try await WebSessionCheck(url: proofURL).run(
                client: context.client, authentication: context.httpAuthentication)
        } catch {
            printError("spconnect whoami: \(error)")
            return .network
        }
        switch result {
        case .signedIn(let status):
            output.renderOne(
                Record([
                    Field("user", .string(context.session.user)), Field("url", .string(proofURL)),
                    Field("status", .int(status)), Field("flow", .string(context.session.flow)),
                ]),
                columns: [
                    Column("user", title: "User"), Column("url", title: "URL"), Column("status", title: "Status"),
                    Column("flow", title: "Flow"),
                ])
            output.note("Signed in at \(proofURL) (profile '\(context.profile)').")
            return .ok
        case .notSignedIn(let status, let landedAt, let sameOrigin):
            if !renewed, (try? await context.renewal.reauthenticate()) == true {
                renewed = true
                continue
            }
            printError(
                "spconnect whoami: the session no longer opens \(Redaction.url(proofURL)) (HTTP \(status)"
                    + (sameOrigin ? "" : ", sent to \(Redaction.url(landedAt))")
                    + "); sign in again with 'spconnect login --url \(proofURL) --user \(context.session.user)'")
            return .signInRequired
        }
    }
}
