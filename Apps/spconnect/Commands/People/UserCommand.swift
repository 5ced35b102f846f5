import CommandLineKit
import Presentation
import SharePoint

/// `spconnect user EMAIL`: one site user by e-mail or login name; `--ensure` adds the person to the site first.
let userCommand = Command(
    name: "user",
    summary: "Show one site user by e-mail or login name (--ensure: add the person to the site when needed).",
    synopsis: "EMAIL [--ensure [--dry-run]] [--output FORMAT]",
    options: [
        .flag(.ensure, "resolve the person through /_api/web/ensureuser, adding them to the site when needed"),
        .flag(.dryRun, short: "n", "with --ensure: only say what would be resolved; nothing is changed"),
    ] + SiteContext.options,
    examples: [
        "spconnect user alice@contoso.com",
        "spconnect user bob@contoso.com --ensure --dry-run",
        "spconnect user 'i:0#.f|membership|bob@contoso.com' --ensure -o json",
    ]
) { arguments in
    try await withSiteErrors("user") {
        let name = try positionals(arguments, "EMAIL")[0]
        let ensure = arguments.has(.ensure)
        if arguments.has(.dryRun) && !ensure {
            throw UsageError(description: "--dry-run goes with --ensure (a lookup changes nothing)")
        }
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        if ensure {
            if arguments.has(.dryRun) {
                output.note("Would resolve '\(name)' with POST \(site.siteURL)/_api/web/ensureuser (dry run).")
                return .ok
            }
            do {
                let user = try await site.ensureUser(name)
                output.renderOne(SharePointRecords.record(siteUser: user), columns: SharePointRecords.siteUserColumns)
                return .ok
            } catch let error as SharePointError where error.message?.contains("could not be found") == true {
                printError("spconnect user: no person '\(name)' is known to the directory (\(error.description)).")
                return .notFound
            }
        }
        let users = try await site.siteUsers()
        guard let user = users.first(where: { $0.isNamed(name) }) else {
            let hint = Suggestions.didYouMean(name, in: users.map(\.email).filter { !$0.isEmpty })
            printError(
                "spconnect user: '\(name)' is not a user of \(site.siteURL).\(hint) "
                    + "To add a person to the site: spconnect user \(name) --ensure")
            return .notFound
        }
        output.renderOne(SharePointRecords.record(siteUser: user), columns: SharePointRecords.siteUserColumns)
        return .ok
    }
}
