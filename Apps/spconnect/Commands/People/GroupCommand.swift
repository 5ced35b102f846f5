import CommandLineKit
import Presentation
import SharePoint

/// `spconnect group members NAME`: the users of one group, found by name (case ignored).
let groupCommand = Command(
    name: "group",
    summary: "List the members of one SharePoint group of the site (group members NAME).",
    synopsis: "members NAME [--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect group members 'Team Site Members'",
        "spconnect group members 'Team Site Owners' -o csv",
    ]
) { arguments in
    try await withSiteErrors("group") {
        let words = arguments.positionals
        guard words.count == 2, words[0] == "members" else {
            throw UsageError(description: "expected 'members NAME', got \(words.joined(separator: " "))")
        }
        let name = words[1]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let groups = try await site.siteGroups()
        guard let group = groups.first(where: { $0.title.lowercased() == name.lowercased() }) else {
            let hint = Suggestions.didYouMean(name, in: groups.map(\.title))
            printError(
                "spconnect group: no group '\(name)' in \(site.siteURL).\(hint) The groups: spconnect groups")
            return .notFound
        }
        let members = try await site.groupMembers(groupID: group.id)
        output.render(
            RecordSet(
                columns: SharePointRecords.siteUserColumns,
                records: members.map { SharePointRecords.record(siteUser: $0) }))
        return .ok
    }
}
