import AuthFlow
import Foundation
import ListOperations
import Presentation
import SharePoint
import Synchronization
import Transport

/// `spconnect demo`: the whole tool on a fresh machine, with nothing to set up. Starts the simulator (`spsim`, a
/// process of its own, ``DemoSimulator``) on loopback (Entra ID mode), signs in through the `entra` flow exactly as against a real site, lists the
/// lists and the Photos library, and shows what to try next. Uses a temporary session store, never the user's.
let demoCommand = Command(
    name: "demo",
    summary: "Start a simulated SharePoint site on loopback, sign in headlessly, list its lists and photos.",
    synopsis: "[--output FORMAT] [--no-color] [--quiet]", options: outputOptions,
    examples: [
        "spconnect demo",
        "spconnect demo -o json",
    ]
) { arguments in
    _ = try positionals(arguments)
    let output = try Output(arguments, forcing: arguments.value(.output) == nil ? .table : nil)
    let user = "alice@contoso.test"
    let password = "Spring2026!"

    let temporary = NSTemporaryDirectory() + "spconnect-demo-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: temporary) }

    let simulator: DemoSimulator
    do {
        simulator = try DemoSimulator(say: say)
    } catch let error as DemoError {
        printError("spconnect demo: \(error.description)")
        return .failure
    }
    defer { simulator.stop() }
    say("SPConnect demo: a simulated SharePoint site on loopback, signed in headlessly the way a browser would.")
    say("")
    say("1. Started the simulator (spsim, Entra ID mode)")
    say("   site:              \(simulator.siteURL)")
    if let identityProvider = simulator.identityProviderURL { say("   identity provider: \(identityProvider)") }
    say("")
    say("2. Signing in as \(user) with the entra flow (no browser; password only to the identity provider):")
    let client = try HTTPClient()
    let steps = Mutex<[SignInTraceStep]>([])
    let outcome = await SignIn(
        client: client,
        configuration: SignInConfiguration(
            siteURL: simulator.siteURL, username: user, password: Secret(password), flow: .entra,
            policy: SignInPolicy(allowHTTPLoopback: true)),
        options: SignIn.Options(trace: { step in steps.withLock { $0.append(step) } })
    ).run()
    for step in steps.withLock({ $0 }) {
        var line = "   \(step.step + 1). \(step.method) \(shortURL(step.url))"
        if let status = step.status { line += " → \(status)" }
        if let kind = step.pageKind { line += " [\(kind)]" }
        if let decision = step.decision { line += ": \(decision)" }
        say(line)
    }
    guard case .signedIn(let session) = outcome else {
        printError("spconnect demo: the sign-in failed: \(outcome.cliMessage)")
        return exitCode(for: outcome)
    }
    let store = SessionStore(directory: temporary + "/sessions")
    try store.save(session, profile: "demo")
    say(
        "   Signed in as \(session.displayName ?? user) (flow \(session.flow)); cookies "
            + session.cookies.map(\.name).joined(separator: ", ") + " saved to a temporary profile.")
    say("")

    let site = SharePointSite(client: client, siteURL: simulator.siteURL)
    return try await withSiteErrors("demo") {
        let me = try await site.currentUser()
        say("3. Proved the session: /_api/web/currentuser says \(me.title) <\(me.email)>.")
        say("")
        say("4. Lists (spconnect lists):")
        let lists = try await site.lists()
        output.render(
            RecordSet(columns: SharePointRecords.listColumns, records: lists.map(SharePointRecords.record(list:))))
        say("")
        say("5. Photos (spconnect items Photos --select Title,Created,FileRef):")
        let photos = try await photoRecords(site)
        output.render(
            RecordSet(
                columns: [
                    Column("id", title: "Id"), Column("title", title: "Title"), Column("created", title: "Created"),
                    Column("file", title: "File URL"), Column("size", title: "Size"),
                ], records: photos))
        say("")
        say("Try next, against your own site (the password is asked for, or read with --password-stdin):")
        say("  spconnect login --site https://contoso.sharepoint.com/sites/team --user you@contoso.com")
        say("  spconnect whoami")
        say("  spconnect lists")
        say("  spconnect items Tasks --select Id,Title,Status --output csv")
        say("  spconnect download Photos 1 --to /tmp")
        say("  spconnect api GET /_api/web/lists?\\$select=Title")
        say("Or against the simulator: swift run spsim --mode entra, then")
        say("  spconnect login --site SITE-URL --user \(user) --allow-http-loopback --password-stdin")
        return .ok
    }

    /// A demo line on standard output (flushed in order with the tables).
    func say(_ line: String) {
        output.sink.write(line + "\n")
        output.sink.flush()
    }
}

/// The Photos items with title, created, file URL and size (``LibraryFiles``: sizes read once per folder).
func photoRecords(_ site: SharePointSite) async throws(SharePointError) -> [Record] {
    try await LibraryFiles.read(.title("Photos"), select: ["Title", "Created", "FileLeafRef"], limit: nil, site: site)
        .map { found in
            let item = found.item
            let title =
                item["Title"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? item["FileLeafRef"]?.stringValue
            return Record([
                Presentation.Field("id", .int(item.id)), Presentation.Field("title", title.map(Cell.string) ?? .null),
                Presentation.Field("created", item["Created"].map(SharePointRecords.cell) ?? .null),
                Presentation.Field("file", .string(found.file.serverRelativeUrl)),
                Presentation.Field("size", Int(exactly: found.file.length).map(Cell.int) ?? .null),
            ])
        }
}

/// A URL without its query, for the demo's step lines.
func shortURL(_ url: String) -> String {
    url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
}
