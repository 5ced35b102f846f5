public import SharePoint

extension SharePointRecords {
    /// Columns of ``record(change:)``: with the list id for the web's changes, and with `all` (every format but the
    /// table) the unique id, whether a folder changed, and the token after each change.
    public static func changeColumns(web: Bool, all: Bool) -> [Column] {
        [
            Column("change", title: "Change"), Column("id", title: "Id"), Column("path", title: "Path"),
            Column("time", title: "Time"),
        ] + (web || all ? [Column("listId", title: "List")] : [])
            + (all ? [Column("uniqueId", title: "Unique id"), Column("folder", title: "Folder"), Column("token")] : [])
    }

    /// One change: its type in a word, the item id, the server-relative path, the time, the list, the unique id and
    /// the token after it.
    public static func record(change: Change) -> Record {
        Record([
            Field("change", .string(change.typeName)), Field("id", change.itemID.map { .int($0) } ?? .null),
            Field("path", change.serverRelativeURL.map { .string($0) } ?? .null),
            Field("time", change.time.map { .date($0) } ?? .null),
            Field("listId", change.listID.map { .string($0) } ?? .null),
            Field("uniqueId", change.uniqueID.map { .string($0) } ?? .null), Field("folder", .bool(change.isFolder)),
            Field("token", .string(change.token)),
        ])
    }
}
