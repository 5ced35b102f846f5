public import Presentation

// The rows bulk writes and deletions are shown as, beside their outcomes.

extension BulkRowResult {
    /// Columns of ``record(showingError:)``.
    public static let columns = [
        Column("row", title: "Row"), Column("id", title: "Id"), Column("status", title: "Status"),
        Column("error", title: "Error"),
    ]

    /// The row's number, its item, its status and its error as `shown` makes it safe to show (server text may echo
    /// a secret).
    public func record(showingError shown: (String) -> String) -> Record {
        Record([
            Field("row", .int(row)), Field("id", id.map(Cell.int) ?? .null), Field("status", .string(status)),
            Field("error", error.map { .string(shown($0)) } ?? .null),
        ])
    }
}

extension DeletionPlan {
    /// Columns of ``record``.
    public static let columns = [
        Column("id", title: "Id"), Column("title", title: "Title"), Column("result", title: "Result"),
    ]

    /// The item, its title and what a deletion would meet.
    public var record: Record {
        Record([Field("id", .int(id)), Field("title", .string(title)), Field("result", .string(text))])
    }
}
