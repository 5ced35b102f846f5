import Foundation
import Presentation
import SharePoint

/// `spconnect whoami`: proves the saved session with a request and prints the signed-in user.
let whoamiCommand = Command(
    name: "whoami",
    summary: "Sign-in check: prove the saved session with a request and print the signed-in user.",
    synopsis: "[--groups] [--profile NAME] [--output FORMAT]",
    options: [.flag(.groups, "list the signed-in user's SharePoint groups instead")] + SiteContext.options,
    examples: [
        "spconnect whoami",
        "spconnect whoami --profile prod -o json",
        "spconnect whoami --groups",
    ]
) { arguments in
    try await withSiteErrors("whoami") {
        _ = try positionals(arguments)
        let session = try SessionContext.open(arguments)
        if arguments.has(.groups) {
            let output = try Output(arguments)
            let groups = try await SiteContext.open(arguments, session: session).site.currentUserGroups()
            output.render(
                RecordSet(
                    columns: SharePointRecords.siteGroupColumns,
                    records: groups.map { SharePointRecords.record(group: $0) }))
            return .ok
        }
        if session.session.tokens != nil { return try await TokenLogin.whoami(arguments, context: session) }
        if let proofURL = session.session.proofURL {
            return try await webWhoami(arguments, context: session, proofURL: proofURL)
        }
        let output = try Output(arguments)
        let context = try SiteContext.open(arguments, session: session)
        let user = try await context.site.currentUser()
        output.renderOne(SharePointRecords.record(user: user), columns: SharePointRecords.userColumns)
        output.note("Signed in at \(context.site.siteURL) (profile '\(context.session.profile)').")
        return .ok
    }
}
