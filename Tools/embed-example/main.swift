// The smallest program that embeds the sign-in engine: sign in, then call a REST endpoint with the
// same client (its cookie jar holds the session). Usage:
//   SPCONNECT_PASSWORD=... swift run embed-example https://site.example.com alice@example.com
import AuthFlow
import Foundation
import Transport

let arguments = CommandLine.arguments
guard arguments.count == 3, let password = ProcessInfo.processInfo.environment["SPCONNECT_PASSWORD"] else {
    FileHandle.standardError.write(Data("usage: SPCONNECT_PASSWORD=... embed-example SITE-URL USER\n".utf8))
    exit(2)
}
let site = arguments[1]
let loopback = site.hasPrefix("http://127.") || site.hasPrefix("http://localhost")

let client = try HTTPClient()
let outcome = await SignIn(
    client: client,
    configuration: SignInConfiguration(
        siteURL: site, username: arguments[2], password: Secret(password),
        policy: SignInPolicy(allowHTTPLoopback: loopback))
).run()

guard case .signedIn(let session) = outcome else {
    FileHandle.standardError.write(Data("sign-in failed: \(outcome.message)\n".utf8))
    exit(1)
}
print("signed in as \(session.displayName ?? session.user) via \(session.flow)")
let web = try await client.execute(
    HTTPRequest(url: site + "/_api/web?$select=Title", headers: ["Accept": "application/json;odata=nometadata"]))
print("GET /_api/web -> HTTP \(web.status): \(web.text)")
