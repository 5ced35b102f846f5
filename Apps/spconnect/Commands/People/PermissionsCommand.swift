import CommandLineKit
import FileOperations
import Presentation
import SharePoint

/// `spconnect permissions PATH | LIST [ID]`: the role assignments of a list, an item, a file or a folder, and whether
/// its inheritance is broken.
let permissionsCommand = Command(
    name: "permissions",
    summary: "Show who has access to a list, an item (LIST ID), a file or a folder, and whether it inherits.",
    synopsis: "PATH | LIST [ID] [--output FORMAT]   (PATH, LIST: see docs/cli.md)",
    options: SiteContext.options,
    examples: [
        "spconnect permissions Tasks",
        "spconnect permissions Tasks 17",
        "spconnect permissions 'Shared Documents/report.docx'",
        "spconnect permissions Documents/Reports -o json",
        "spconnect permissions /                 # the site's own role assignments",
    ]
) { arguments in
    try await withSiteErrors("permissions") {
        let words = arguments.positionals
        let output = try Output(arguments)
        let target: Securable
        switch words.count {
        case 1:
            let site = try SiteContext.open(arguments).site
            target = try await Securable.read(words[0], site: site)
        case 2:
            let id = try itemID(words[1])
            let site = try SiteContext.open(arguments).site
            target = try await withListSuggestion(words[0], site: site) {
                try await site.withList(named: words[0]) { list in
                    Securable(
                        kind: "item", name: "\(words[0]) \(id)",
                        permissions: try await site.permissions(of: list.item(id).path))
                }
            }
        default:
            throw UsageError(
                description:
                    "expected PATH (a file or folder), LIST, or LIST ID (an item), got \(words.count) argument(s)")
        }
        let inherited = target.inherits
        output.render(
            RecordSet(
                columns: SharePointRecords.roleAssignmentColumns,
                records: target.permissions.assignments.map {
                    SharePointRecords.record(roleAssignment: $0, inherited: inherited)
                }))
        switch inherited {
        case true?: output.note("The \(target.kind) \(target.name) inherits its permissions from its parent.")
        case false?: output.note("The \(target.kind) \(target.name) has its own permissions (inheritance broken).")
        case nil:
            output.note(
                "SharePoint did not say whether the \(target.kind) \(target.name) inherits its permissions "
                    + "(HasUniqueRoleAssignments could not be read).")
        }
        return .ok
    }
}
