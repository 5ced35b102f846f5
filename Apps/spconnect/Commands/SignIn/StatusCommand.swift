import AppSupport
import AuthFlow
import CommandLineKit
import Foundation
import JSON
import Transport

/// `spconnect status`: what the saved session is, without any network request.
let statusCommand = Command(
    name: "status",
    summary: "Show the saved session: site, user, flow, cookie names and expiry, last proof, last sign-in.",
    synopsis: "[--profile NAME] [-o json] [--serve [--port N] [--bind ADDRESS --allow-remote]]",
    options: [
        profileOption,
        .value(
            .output, "FORMAT", short: "o",
            "text (default; table and csv mean text too) or json: the same facts as one JSON object"),
        .flag(.serve, "serve the HTML status app (spconnect-status) instead of printing"),
        .value(.port, "N", "with --serve: the port (default: a free one)"),
        .value(.bind, "ADDRESS", "with --serve: the address (default 127.0.0.1)"),
        .flag(.allowRemote, "with --serve: allow a non-loopback --bind (an access token is then required)"),
    ],
    examples: [
        "spconnect status",
        "spconnect status -o json | jq -r .renewal",
        "spconnect status --profile prod --serve",
    ]
) { arguments in
    let profile = arguments.value(.profile) ?? "default"
    if arguments.has(.serve) {
        var forwarded = ["--profile", profile]
        for key in [OptionKey.port, .bind] {
            if let value = arguments.value(key) { forwarded += ["--\(key.name)", value] }
        }
        if arguments.has(.allowRemote) { forwarded.append("--allow-remote") }
        return try StatusAppLauncher.exec(forwarded)
    }
    let json: Bool
    switch arguments.value(.output)?.lowercased() {
    // `output = csv` or `table` in the config file (which every listing command reads) leaves the text view.
    case nil, "text", "table", "csv": json = false
    case "json", "ndjson": json = true
    case let other?: throw UsageError(description: "unknown output format '\(other)' for status; use text or json")
    }
    let store = SessionStore()
    // The last sign-in (`spconnect login`, a renewal or the status app), when one was recorded and can be read.
    // An unreadable record is said as such: it is only a summary, and the session may still be fine.
    let record = Result { try store.lastSignIn(profile: profile) }
    let lastSignIn: String?
    switch record {
    case .success(let record):
        lastSignIn = record.map { record in
            let outcome = record.succeeded ? "succeeded" : "failed"
            let source = record.source.map { ", by \($0)" } ?? ""
            return "\(ISO8601DateFormatter().string(from: record.at)) \(outcome) in \(record.steps.count) steps"
                + "\(source): \(record.cliMessage)"
        }
    case .failure(let error):
        lastSignIn = "unknown: \(error)"
    }
    guard let session = try store.load(profile: profile) else {
        if let lastSignIn { printError("Last sign-in: \(lastSignIn)") }
        printError("No session for profile '\(profile)'. Run 'spconnect login --site URL --user NAME' first.")
        return .signInRequired
    }
    if json {
        let report = StatusReport.json(session, profile: profile, lastSignIn: (try? record.get()) ?? nil)
        print(report.serialized(options: .prettyPrinted))
        return .ok
    }
    print("profile:  \(profile)")
    if let proofURL = session.proofURL {
        print("page:     \(session.siteURL)")
        if proofURL != session.siteURL { print("proof:    \(proofURL)") }
        if !session.targetCookies.isEmpty { print("session:  \(session.targetCookies.joined(separator: ", "))") }
    } else {
        print("site:     \(session.siteURL)")
    }
    print("user:     \(session.displayName.map { "\($0) (\(session.user))" } ?? session.user)")
    print("flow:     \(session.flow)")
    for fact in SessionSummary.tokenFacts(session) {
        print((fact.label + ":").padding(toLength: 10, withPad: " ", startingAt: 0) + fact.value)
    }
    print("proved:   \(ISO8601DateFormatter().string(from: session.provedAt))")
    for cookie in session.cookies {
        let expiry = cookie.expires.map { ISO8601DateFormatter().string(from: $0) } ?? "end of session"
        print("cookie:   \(cookie.name) (\(cookie.domain), expires \(expiry))")
    }
    print("lifetime: " + SessionSummary.lifetimes(session))
    if let renewal = renewalLine(session) { print("renewal:  \(renewal)") }
    if let lastSignIn { print("sign-in:  \(lastSignIn)") }
    return .ok
}

/// The `renewal:` line for this process's environment and terminal.
func renewalLine(_ session: Session) -> String? {
    SessionSummary.renewal(
        session, environment: ProcessInfo.processInfo.environment, terminal: isatty(STDIN_FILENO) == 1)
}

/// `status -o json`: the facts of the text view as one object, dates in ISO 8601 (UTC), absent ones `null`. Never a
/// cookie value, token or password: names, domains and expiry only.
enum StatusReport {
    static func json(_ session: Session, profile: String, lastSignIn record: SignInRecord?) -> JSONValue {
        let format = ISO8601DateFormatter()
        func date(_ value: Date?) -> JSONValue { value.map { .string(format.string(from: $0)) } ?? .null }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let cookies = session.cookies.map { cookie in
            JSONValue.object([
                ("name", .string(cookie.name)), ("domain", .string(cookie.domain)), ("expires", date(cookie.expires)),
            ])
        }
        var members: [(String, JSONValue)] = [
            ("profile", .string(profile)), ("site", .string(session.siteURL)), ("proof", text(session.proofURL)),
            ("user", .string(session.user)), ("displayName", text(session.displayName)),
            ("flow", .string(session.flow)), ("proved", date(session.provedAt)), ("cookies", .array(cookies)),
            ("siteSessionExpires", date(session.cookies.compactMap(\.expires).min())),
            ("identityProviderSession", .bool(!session.identityProviderCookies.isEmpty)),
            ("identityProviderExpires", date(session.identityProviderExpiry)),
            ("lifetime", .string(SessionSummary.lifetimes(session))), ("renewal", text(renewalLine(session))),
        ]
        if let tokens = session.tokens {
            members.append(
                (
                    "token",
                    .object([
                        ("kind", .string(tokens.kind == .appOnly ? "app-only" : "delegated")),
                        ("appId", .string(tokens.appId)), ("tenant", .string(tokens.tenant)),
                        ("expires", date(tokens.expiresAt)), ("expired", .bool(tokens.expiresAt <= Date())),
                    ])
                ))
        }
        members.append(
            (
                "lastSignIn",
                record.map { record in
                    .object([
                        ("at", date(record.at)), ("succeeded", .bool(record.succeeded)),
                        ("steps", .integer(Int64(record.steps.count))), ("source", text(record.source)),
                        ("message", .string(record.cliMessage)),
                        ("hints", .array(record.hints.map { .string($0.cliAdvice) })),
                    ])
                } ?? .null
            ))
        return .object(members)
    }
}
