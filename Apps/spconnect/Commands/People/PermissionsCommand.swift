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
        let target: SecurableTarget
        switch words.count {
        case 1:
            let site = try SiteContext.open(arguments).site
            target = try await SecurableTarget.read(words[0], site: site)
        case 2:
            let id = try itemID(words[1])
            let site = try SiteContext.open(arguments).site
            target = try await withListSuggestion(words[0], site: site) {
                try await site.withList(named: words[0]) { list in
                    SecurableTarget(
                        kind: "item", name: "\(words[0]) \(id)",
                        permissions: try await site.permissions(of: list.item(id).path))
                }
            }
        default:
            throw UsageError(
                description:
                    "expected PATH (a file or folder), LIST, or LIST ID (an item), got \(words.count) argument(s)")
        }
        let inherited = target.permissions.hasUniqueRoleAssignments.map { !$0 }
        output.render(
            RecordSet(
                columns: roleAssignmentColumns,
                records: target.permissions.assignments.map { roleAssignmentRecord($0, inherited: inherited) }))
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

/// What `permissions` was asked about, and its permissions.
private struct SecurableTarget {
    /// `site`, `list`, `item`, `file` or `folder`.
    var kind: String
    /// How to name it in the note (the list's word, the path).
    var name: String
    var permissions: Permissions

    /// The list a bare word (or a GUID) names, with the closest title when there is none; otherwise the file or
    /// folder a path names (a file first), with the closest name when there is nothing: a folder that is a list's
    /// root folder (`Lists/Tasks`, `/sites/team/Shared Documents`) is that list, the site's root folder (`/`, the
    /// site's address or server-relative path) the site (web) itself.
    static func read(_ word: String, site: SharePointSite) async throws -> SecurableTarget {
        // `/` is the site itself, whichever site `--site` names (not the host's root).
        if word == "/" {
            return SecurableTarget(
                kind: "site", name: site.siteURL, permissions: try await site.permissions(of: API.web))
        }
        if case .address = try SiteAddressing(siteURL: site.siteURL).list(word) {
            switch try await RemoteEntry.read(word, site: site) {
            case .file(let file):
                let path = API.file(serverRelativePath: file.serverRelativeUrl).listItemAllFields
                return SecurableTarget(
                    kind: "file", name: file.serverRelativeUrl, permissions: try await site.permissions(of: path))
            case .folder(let folder):
                let url = folder.serverRelativeUrl
                let siteRoot = SiteAddressing(siteURL: site.siteURL).basePath
                if url == "/" || url == siteRoot || url == siteRoot + "/" {
                    return SecurableTarget(
                        kind: "site", name: site.siteURL, permissions: try await site.permissions(of: API.web))
                }
                if try await site.isListRootFolder(url) {
                    let list = ListPath.serverRelativeURL(url)
                    return SecurableTarget(
                        kind: "list", name: url, permissions: try await site.permissions(of: list.path))
                }
                let path = API.folder(serverRelativePath: url).listItemAllFields
                return SecurableTarget(kind: "folder", name: url, permissions: try await site.permissions(of: path))
            }
        }
        return try await withListSuggestion(word, site: site) {
            try await site.withList(named: word) { list in
                SecurableTarget(kind: "list", name: word, permissions: try await site.permissions(of: list.path))
            }
        }
    }
}

/// Columns of ``roleAssignmentRecord(_:inherited:)``.
let roleAssignmentColumns = [
    Column("principalId", title: "Id"), Column("principal", title: "Principal"), Column("loginName", title: "Login"),
    Column("principalType", title: "Type"), Column("roles", title: "Roles"), Column("inherited", title: "Inherited"),
]

/// One role assignment: who, their permission levels (names joined with `, `), and whether it is inherited (null
/// when SharePoint did not say).
func roleAssignmentRecord(_ assignment: RoleAssignment, inherited: Bool?) -> Record {
    Record([
        Field("principalId", .int(assignment.principalId)), Field("principal", .string(assignment.member.title)),
        Field("loginName", .string(assignment.member.loginName)),
        Field("principalType", .string(assignment.member.typeName)),
        Field("roles", .string(assignment.roles.map(\.name).joined(separator: ", "))),
        Field("inherited", inherited.map(Cell.bool) ?? .null),
    ])
}
