import Presentation
import SharePoint

/// Whether `name` is the user's e-mail, user principal name or login name (claims or bare), ignoring case.
func matches(_ user: User, _ name: String) -> Bool { user.isNamed(name) }

/// Columns of ``siteUserRecord(_:)``.
let siteUserColumns =
    SharePointRecords.userColumns + [Column("principalType", title: "Principal type")]

/// A site user: the `whoami` fields and the principal type (1 user, 4 security group, 8 SharePoint group).
func siteUserRecord(_ user: User) -> Record {
    var fields = SharePointRecords.record(user: user).fields
    fields.append(Field("principalType", user.principalType.map { .int($0) } ?? .null))
    return Record(fields)
}
