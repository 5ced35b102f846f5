import Presentation
import SharePoint

/// `spconnect content-types LIST`: the content types of a list or library (`GET …/contenttypes`).
let contentTypesCommand = Command(
    name: "content-types",
    summary: "List the content types of a list or library: id, name, group, description, hidden.",
    synopsis: "LIST [--output FORMAT]   (LIST: see docs/cli.md)",
    options: SiteContext.options,
    examples: [
        "spconnect content-types Tasks",
        "spconnect content-types Documents -o json",
    ]
) { arguments in
    try await withSiteErrors("content-types") {
        let name = try positionals(arguments, "LIST")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let types = try await withListSuggestion(name, site: site) {
            try await withList(name, site: site) { list in try await site.contentTypes(of: list) }
        }
        output.render(RecordSet(columns: contentTypeColumns, records: types.map(contentTypeRecord)))
        return .ok
    }
}

/// Columns of ``contentTypeRecord(_:)``.
let contentTypeColumns = [
    Column("id", title: "Id"), Column("name", title: "Name"), Column("group", title: "Group"),
    Column("description", title: "Description"), Column("hidden", title: "Hidden"),
]

/// A content type of a list.
func contentTypeRecord(_ type: ContentType) -> Record {
    Record([
        Field("id", .string(type.id)), Field("name", .string(type.name)), Field("group", .string(type.group)),
        Field("description", .string(type.description)), Field("hidden", .bool(type.hidden)),
    ])
}
