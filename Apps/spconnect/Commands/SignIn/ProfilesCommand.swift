import AuthFlow
import Foundation
import Presentation

/// `spconnect profiles`: every saved session, one row each (name, site, user, kind, expiry), read through
/// ``SessionStore`` with its trust checks. Never a cookie value: only what `status` shows.
let profilesCommand = Command(
    name: "profiles",
    summary: "List the saved profiles: name, site, user, kind and when the session expires (no secrets).",
    synopsis: "[--output FORMAT]", options: outputOptions,
    examples: [
        "spconnect profiles", "spconnect profiles -o json",
        "SPCONNECT_PROFILE=prod spconnect whoami            # use the profile 'prod' by default",
    ]
) { arguments in
    _ = try positionals(arguments)
    let output = try Output(arguments)
    let store = SessionStore()
    var records: [Record] = []
    var unreadable = 0
    for name in try store.profiles() {
        do throws(SessionStore.StoreError) {
            guard let session = try store.load(profile: name) else { continue }
            records.append(ProfileRows.record(name: name, session: session))
        } catch {
            // One bad file does not hide the others; it is named, and the exit status says so.
            printError("spconnect profiles: profile '\(name)' cannot be read: \(error.description)")
            unreadable += 1
        }
    }
    output.render(RecordSet(columns: ProfileRows.columns, records: records))
    if records.isEmpty && unreadable == 0 {
        output.note("No saved profiles in \(store.directory). Sign in with 'spconnect login --site URL --user NAME'.")
    }
    return unreadable == 0 ? .ok : .failure
}

/// The rows of `spconnect profiles`.
enum ProfileRows {
    static let columns = [
        Column("name", title: "Profile"), Column("site", title: "Site"), Column("user", title: "User"),
        Column("kind", title: "Kind"), Column("expires", title: "Expires"),
    ]

    /// One profile: `kind` is `sharepoint` (a site session) or `web` (a page behind single sign-on, `login --url`)
    /// and its flow; `expires` the earliest cookie expiry (null for cookies that last until the site ends them).
    static func record(name: String, session: Session) -> Record {
        let kind = (session.proofURL == nil ? "sharepoint" : "web") + " (\(session.flow))"
        let expires: Cell = session.cookies.compactMap(\.expires).min().map { .date($0) } ?? .null
        return Record([
            Field("name", .string(name)), Field("site", .string(session.siteURL)), Field("user", .string(session.user)),
            Field("kind", .string(kind)), Field("expires", expires),
        ])
    }
}
