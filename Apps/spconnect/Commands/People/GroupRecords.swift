import Presentation
import SharePoint

/// Columns of ``siteGroupRecord(_:)``.
let siteGroupColumns = [
    Column("id", title: "Id"), Column("title", title: "Name"), Column("description", title: "Description"),
    Column("ownerTitle", title: "Owner"),
]

/// A SharePoint group.
func siteGroupRecord(_ group: SiteGroup) -> Record {
    Record([
        Field("id", .int(group.id)), Field("title", .string(group.title)),
        Field("description", .string(group.description)), Field("ownerTitle", .string(group.ownerTitle)),
    ])
}
