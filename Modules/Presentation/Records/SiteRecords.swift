public import SharePoint

extension SharePointRecords {
    /// Columns of ``record(siteCollection:)``.
    public static let siteCollectionColumns = [
        Column("title", title: "Title"), Column("url", title: "URL"), Column("webTemplate", title: "Template"),
        Column("lastModified", title: "Modified"), Column("id", title: "Site id"),
    ]

    /// A site collection found by Search.
    public static func record(siteCollection site: SiteCollectionSummary) -> Record {
        Record([
            Field("title", .string(site.title)), Field("url", .string(site.url)),
            Field("webTemplate", .string(site.webTemplate)), Field("lastModified", .string(site.lastModified)),
            Field("id", .string(site.siteID)),
        ])
    }

    /// Columns of ``record(contentType:)``.
    public static let contentTypeColumns = [
        Column("id", title: "Id"), Column("name", title: "Name"), Column("group", title: "Group"),
        Column("description", title: "Description"), Column("hidden", title: "Hidden"),
    ]

    /// A content type of a list or of the site.
    public static func record(contentType type: ContentType) -> Record {
        Record([
            Field("id", .string(type.id)), Field("name", .string(type.name)), Field("group", .string(type.group)),
            Field("description", .string(type.description)), Field("hidden", .bool(type.hidden)),
        ])
    }
}
