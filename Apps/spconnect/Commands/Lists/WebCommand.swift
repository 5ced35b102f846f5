import Foundation
import Presentation

/// `spconnect web`: the site's title, URLs and dates.
let webCommand = Command(
    name: "web", summary: "Show the site (web): title, URL, id, created and last change.",
    synopsis: "[--profile NAME] [--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect web",
        "spconnect web -o json",
    ]
) { arguments in
    try await withSiteErrors("web") {
        _ = try positionals(arguments)
        let output = try Output(arguments)
        let web = try await SiteContext.open(arguments).site.web()
        output.renderOne(SharePointRecords.record(web: web), columns: SharePointRecords.webColumns)
        return .ok
    }
}
