import JSON
public import SharePoint

/// File properties, versions and attachments as ``Record``s with fixed columns (see ``SharePointRecords``).
extension SharePointRecords {
    // MARK: File properties

    /// Columns of ``record(fileProperties:)``.
    public static let filePropertyColumns = [
        Column("name", title: "Name"), Column("serverRelativeUrl", title: "Server-relative URL"),
        Column("size", title: "Size"), Column("created", title: "Created"), Column("createdBy", title: "Created by"),
        Column("modified", title: "Modified"), Column("modifiedBy", title: "Modified by"),
        Column("version", title: "Version"), Column("checkOut", title: "Check-out"),
        Column("checkInComment", title: "Check-in comment"), Column("uniqueId", title: "Unique id"),
        Column("etag", title: "ETag"),
    ]

    /// How a check-out reads: `none`, `online` (checked out on the server), `offline` (to a local copy).
    public static func text(of checkOut: CheckOutType) -> String {
        switch checkOut {
        case .none: return "none"
        case .online: return "online"
        case .offline: return "offline"
        case .other(let value): return "type \(value)"
        }
    }

    /// A file with everything `spconnect file PATH` shows (authors when the request expanded them).
    public static func record(fileProperties file: SharePoint.File) -> Record {
        Record([
            Field("name", .string(file.name)), Field("serverRelativeUrl", .string(file.serverRelativeUrl)),
            Field("size", Int(exactly: file.length).map(Cell.int) ?? .null),
            Field("created", optional(file.timeCreated, Cell.date)),
            Field("createdBy", optional(file.author?.title, Cell.string)),
            Field("modified", optional(file.timeLastModified, Cell.date)),
            Field("modifiedBy", optional(file.modifiedBy?.title, Cell.string)),
            Field("version", optional(file.uiVersionLabel, Cell.string)),
            Field("checkOut", optional(file.checkOutType.map(text(of:)), Cell.string)),
            Field("checkInComment", optional(file.checkInComment, Cell.string)),
            Field("uniqueId", optional(file.uniqueId, Cell.string)), Field("etag", optional(file.etag, Cell.string)),
        ])
    }

    // MARK: Versions

    /// Columns of ``record(fileVersion:)``.
    public static let fileVersionColumns = [
        Column("version", title: "Version"), Column("created", title: "Created"),
        Column("createdBy", title: "Created by"), Column("size", title: "Size"), Column("current", title: "Current"),
        Column("comment", title: "Comment"),
    ]

    /// One earlier version of a file.
    public static func record(fileVersion version: FileVersion) -> Record {
        Record([
            Field("version", .string(version.label)), Field("created", optional(version.created, Cell.date)),
            Field("createdBy", optional(version.createdBy?.title, Cell.string)),
            Field("size", optional(version.length.flatMap { Int(exactly: $0) }, Cell.int)),
            Field("current", .bool(version.isCurrent)), Field("comment", .string(version.checkInComment)),
        ])
    }

    /// The current version of a file, as a row beside its earlier versions.
    public static func record(currentVersionOf file: SharePoint.File) -> Record {
        Record([
            Field("version", optional(file.uiVersionLabel, Cell.string)),
            Field("created", optional(file.timeLastModified, Cell.date)),
            Field("createdBy", optional(file.modifiedBy?.title, Cell.string)),
            Field("size", Int(exactly: file.length).map(Cell.int) ?? .null), Field("current", .bool(true)),
            Field("comment", .string(file.checkInComment ?? "")),
        ])
    }

    /// Columns of ``record(itemVersion:previous:)``; `values` (every field of the version, as JSON) only when
    /// `withValues` (machine formats: a table shows which fields changed).
    public static func itemVersionColumns(withValues: Bool) -> [Column] {
        [
            Column("version", title: "Version"), Column("created", title: "Created"),
            Column("createdBy", title: "Created by"), Column("current", title: "Current"),
            Column("changed", title: "Changed"),
        ] + (withValues ? [Column("values", title: "Values")] : [])
    }

    /// One version of an item: `changed` names the fields whose values differ from `previous` (the version before
    /// it; every field for the first version).
    public static func record(itemVersion version: ItemVersion, previous: ItemVersion?) -> Record {
        let before = previous.map { Dictionary($0.fields, uniquingKeysWith: { first, _ in first }) } ?? [:]
        let changed = version.fields.filter { name, value in
            !ignoredInChanges.contains(name) && (previous == nil ? value != .null : before[name] != value)
        }.map(\.0)
        return Record([
            Field("version", .string(version.label)), Field("created", optional(version.created, Cell.date)),
            Field("createdBy", optional(version.createdBy, Cell.string)), Field("current", .bool(version.isCurrent)),
            Field("changed", .string(changed.joined(separator: ", "))), Field("values", .json(.object(version.fields))),
        ])
    }

    /// Fields every version changes (or that say nothing of what changed), left out of `changed`.
    static let ignoredInChanges: Set<String> = [
        "Modified", "Editor", "Author", "owshiddenversion", "OData__UIVersion", "OData__UIVersionString", "_UIVersion",
        "_UIVersionString",
    ]

    // MARK: Attachments

    /// Columns of ``record(attachment:)``.
    public static let attachmentColumns = [
        Column("name", title: "Name"), Column("serverRelativeUrl", title: "Server-relative URL"),
    ]

    /// One file attached to an item.
    public static func record(attachment: Attachment) -> Record {
        Record([
            Field("name", .string(attachment.fileName)),
            Field("serverRelativeUrl", .string(attachment.serverRelativeUrl)),
        ])
    }
}
