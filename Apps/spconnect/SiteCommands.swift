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
            output.render(RecordSet(columns: siteGroupColumns, records: groups.map(siteGroupRecord)))
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

/// `spconnect lists`: the lists and libraries of the site.
let listsCommand = Command(
    name: "lists", summary: "List the site's lists and libraries (hidden ones with --all-including-hidden).",
    synopsis: "[--all-including-hidden] [--output FORMAT]",
    options: [.flag(.allIncludingHidden, "also show hidden lists (catalogs, system lists)")] + SiteContext.options,
    examples: [
        "spconnect lists",
        "spconnect lists --all-including-hidden -o csv > lists.csv",
    ]
) { arguments in
    try await withSiteErrors("lists") {
        _ = try positionals(arguments)
        let output = try Output(arguments)
        let lists = try await SiteContext.open(arguments).site.lists(
            includeHidden: arguments.has(.allIncludingHidden))
        output.render(
            RecordSet(columns: SharePointRecords.listColumns, records: lists.map(SharePointRecords.record(list:))))
        return .ok
    }
}

/// `spconnect list NAME`: one list's details.
let listCommand = Command(
    name: "list",
    summary: "Show one list or library (by title, id, path or browser address): item count, template, entity types.",
    synopsis: "LIST [--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect list Tasks",
        "spconnect list 'https://contoso.sharepoint.com/sites/team/Shared Documents/Forms/AllItems.aspx' -o json",
    ]
) { arguments in
    try await withSiteErrors("list") {
        let name = try positionals(arguments, "LIST")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let list = try await withList(name, site: site) { path in try await site.list(path) }
        output.renderOne(
            SharePointRecords.record(listDetails: list), columns: SharePointRecords.listDetailColumns)
        return .ok
    }
}

/// `spconnect fields LIST`: the columns of a list.
let fieldsCommand = Command(
    name: "fields", summary: "List the fields (columns) of a list: internal name, title, type, flags.",
    synopsis: "LIST [--all-including-hidden] [--output FORMAT]",
    options: [.flag(.allIncludingHidden, "also show hidden fields")] + SiteContext.options,
    examples: [
        "spconnect fields Tasks",
        "spconnect fields Tasks --all-including-hidden -o csv",
    ]
) { arguments in
    try await withSiteErrors("fields") {
        let name = try positionals(arguments, "LIST")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        var fields = try await withList(name, site: site) { list in try await site.fields(of: list) }
        if !arguments.has(.allIncludingHidden) { fields.removeAll { $0.hidden == true } }
        output.render(
            RecordSet(columns: SharePointRecords.fieldColumns, records: fields.map(SharePointRecords.record(field:))))
        return .ok
    }
}

/// `spconnect item LIST ID`: one item.
let itemCommand = Command(
    name: "item", summary: "Show one list item: every field, or display texts with --as-text.",
    synopsis: "LIST ID [--select F,..] [--as-text] [--output FORMAT]",
    options: [
        .value(.select, "F,..", "fields to return, by internal name"),
        .flag(.asText, "show the item's display texts (FieldValuesAsText)"),
    ] + SiteContext.options,
    examples: [
        "spconnect item Tasks 17",
        "spconnect item Tasks 17 -o json          # with its odata.etag for update --etag",
    ]
) { arguments in
    try await withSiteErrors("item") {
        let words = try positionals(arguments, "LIST", "ID")
        let id = try itemID(words[1])
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let asText = arguments.has(.asText)
        let requested = arguments.value(.select).map(splitList) ?? []
        let record = try await withList(words[0], site: site) { list in
            if asText {
                return SharePointRecords.record(textValues: try await site.fieldValuesAsText(in: list, id: id))
            }
            let selection = try await FieldSelection.checked(requested, in: list, named: words[0], site: site)
            let query = ODataQuery(select: withID(selection.names), expand: selection.expand)
            let item = try await site.item(in: list, id: id, query: query)
            var record = SharePointRecords.record(item: item)
            // The etag for `update --etag`: a note beside a table, SharePoint's own `odata.etag` member otherwise
            // (no field's internal name has a dot, so it cannot clash).
            if let etag = item.etag {
                if output.format == .table {
                    output.note("etag: \(etag)")
                } else {
                    record.fields.append(Presentation.Field("odata.etag", .string(etag)))
                }
            }
            return record
        }
        output.renderOne(record, columns: RecordSet.inferColumns([record]))
        return .ok
    }
}

/// A `$select` list with `Id` added when it names fields but not the id (every item is decoded by its id).
func withID(_ select: [String]) -> [String] {
    if select.isEmpty || select.contains(where: { $0.lowercased() == "id" }) { return select }
    return ["Id"] + select
}

/// `a, b,c` → `["a", "b", "c"]`.
func splitList(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// Writes to standard error without a newline.
func printPartial(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
