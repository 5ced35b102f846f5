import AuthFlow
import CommandLineKit
import Foundation
import HTML
import JSON
import Presentation
import SharePoint
import Transport

/// `spconnect api METHOD PATH-OR-URL`: the escape hatch and generic JSON web-service caller.
let apiCommand = Command(
    name: "api",
    summary:
        "Call any REST endpoint: a SharePoint path with the profile's session, or any URL with --basic or --anonymous.",
    synopsis:
        "METHOD PATH-OR-URL [-H 'K: V']... [--data JSON|@FILE] [--raw] "
        + "[--basic USER [--password-stdin | --password-file FILE] [--allow-http-loopback] | --anonymous]",
    options: [
        .repeatable(.header, "'K: V'", short: "H", "add a request header (repeatable; replaces a default one)"),
        .value(.data, "JSON|@FILE", "the request body (JSON text, or @FILE to read it from a file)"),
        .value(.basic, "USER", "HTTP Basic as USER instead of the saved session (password: see --password-stdin)"),
        .flag(.anonymous, "no credentials at all (public services)"),
        PasswordOptions.stdin, PasswordOptions.file, PasswordOptions.allowHTTPLoopback,
        .flag(.raw, "print the response body exactly as received (no pretty JSON)"),
        outFileOption,
        profileOption,
    ] + connectionOptions + [
        .flag(.quiet, short: "q", "no status line on standard error when the answer is not 2xx")
    ],
    examples: [
        "spconnect api GET '/_api/web/lists?$select=Title'",
        "spconnect api POST /_api/web/lists/getbytitle('Tasks')/items --data @item.json",
        "spconnect api GET https://svc.example/api/status --anonymous",
    ]
) { arguments in
    let words = try positionals(arguments, "METHOD", "PATH-OR-URL")
    let method = words[0].uppercased()
    let target = words[1]
    if arguments.has(.anonymous), arguments.value(.basic) != nil {
        throw UsageError(description: "--basic and --anonymous exclude each other")
    }
    var headers: [(String, String)] = []
    for header in arguments.all(.header) {
        guard let colon = header.firstIndex(of: ":") else {
            throw UsageError(description: "header '\(header)' is not 'Name: value'")
        }
        let name = header[..<colon].trimmingCharacters(in: .whitespaces)
        let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0.isNewline }),
            !value.contains(where: \.isNewline)
        else { throw UsageError(description: "header '\(header)' is not 'Name: value'") }
        headers.append((name, value))
    }
    var body: [UInt8]?
    if let data = arguments.value(.data) {
        if data.hasPrefix("@") {
            guard let contents = FileManager.default.contents(atPath: String(data.dropFirst())) else {
                throw UsageError(description: "cannot read the body file \(data.dropFirst())")
            }
            body = Array(contents)
        } else {
            body = Array(data.utf8)
        }
    }
    let configuration = clientConfiguration(arguments)

    var url: String
    var client: HTTPClient?
    var auth: Authentication?
    var site: SharePointSite?
    var defaults: [(String, String)] = [("Accept", "application/json")]
    if arguments.has(.anonymous) || arguments.value(.basic) != nil {
        guard target.hasPrefix("http://") || target.hasPrefix("https://") else {
            throw UsageError(description: "with --basic or --anonymous give an absolute http(s) URL")
        }
        if arguments.value(.basic) != nil {
            // A password in the clear only to this machine, and only when asked (the same rule as `login`).
            do {
                try SignInPolicy(allowHTTPLoopback: arguments.has(.allowHttpLoopback))
                    .checkCredentialTransport(to: target)
            } catch {
                throw UsageError(
                    description: "refusing to send the --basic password over plain http to "
                        + "\(AuthFlow.Redaction.url(target)): use https (plain http only to a loopback address, with "
                        + "--allow-http-loopback)")
            }
        }
        url = target
        client = try HTTPClient(configuration: configuration)
        if let user = arguments.value(.basic) {
            auth = .basic(user: user, password: try PasswordSource.read(arguments, user: user))
        }
    } else {
        let context = try SessionContext.open(arguments)
        let siteClient = SharePointSite(
            client: context.client, siteURL: context.session.siteURL, authentication: context.httpAuthentication,
            reauthenticate: context.renewal.reauthenticate, authenticationProvider: context.tokens)
        site = siteClient
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            url = target
        } else {
            url = siteClient.siteURL + (target.hasPrefix("/") ? target : "/" + target)
        }
        defaults = [("Accept", "application/json;odata=nometadata")]
    }
    // As a browser sends what is typed in its address bar: a space in a path is sent as %20, not refused.
    url = URLResolver.typed(url)
    if body != nil { defaults.append(("Content-Type", "application/json")) }
    var requestHeaders = HTTPHeaders()
    for (name, value) in defaults where !headers.contains(where: { $0.0.lowercased() == name.lowercased() }) {
        requestHeaders.add(name, value)
    }
    for (name, value) in headers { requestHeaders.add(name, value) }

    // Throttled reads are retried like the site client's (`Retry-After` honoured up to 5 minutes); a POST or
    // any other non-idempotent call is never repeated, as its effect is unknown.
    let retry = NetworkOptions.retryPolicy(site?.readRetry ?? SharePointSite.defaultReadRetry, arguments)
    let response: HTTPResponse
    do throws(SharePointError) {
        if let site {
            // The session's credentials and digest go to the site only; one renewal when the session ended.
            response = try await site.send(method: method, url: url, headers: requestHeaders, body: body, retry: retry)
        } else if let client {
            do throws(TransportError) {
                response = try await client.execute(
                    HTTPRequest(
                        method: method, url: url, headers: requestHeaders,
                        body: body.map(HTTPRequest.Body.bytes) ?? .none, auth: auth, redirects: .follow(max: 10),
                        retry: retry))
            } catch {
                throw SharePointError(transport: error)
            }
        } else {
            return .usage
        }
    } catch {
        printError("spconnect api: \(error.description)")
        return exitCode(for: error)
    }
    if site != nil, response.status == 401 || response.status == 403,
        let refused = await RefusedRenewal.report("api")
    {
        return refused
    }
    let text = arguments.has(.raw) ? response.text : prettyJSON(response.body) ?? response.text
    let sink = try OutputFile.sink(arguments)
    if !text.isEmpty { sink.write(text.hasSuffix("\n") ? text : text + "\n") }
    if arguments.value(.out) != nil { OutputFile.settled(sink) } else { sink.flush() }
    guard (200..<300).contains(response.status) else {
        if !arguments.has(.quiet) {
            printError("spconnect api: \(method) \(AuthFlow.Redaction.url(url)) answered HTTP \(response.status)")
        }
        return .httpError
    }
    return .ok
}

/// A JSON body re-indented (member order kept), or nil when the body is not JSON.
func prettyJSON(_ body: [UInt8]) -> String? {
    guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
        first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    guard let value = try? JSONValue.parse(Data(body)) else { return nil }
    return JSONText.pretty(value)
}
