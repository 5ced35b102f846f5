public import SharePoint

extension SharePointRecords {
    /// Columns of ``record(siteUser:)``.
    public static let siteUserColumns = userColumns + [Column("principalType", title: "Principal type")]

    /// A site user: the `whoami` fields and the principal type (1 user, 4 security group, 8 SharePoint group).
    public static func record(siteUser user: User) -> Record {
        var fields = record(user: user).fields
        fields.append(Field("principalType", user.principalType.map { .int($0) } ?? .null))
        return Record(fields)
    }

    /// Columns of ``record(group:)``.
    public static let siteGroupColumns = [
        Column("id", title: "Id"), Column("title", title: "Name"), Column("description", title: "Description"),
        Column("ownerTitle", title: "Owner"),
    ]

    /// A SharePoint group.
    public static func record(group: SiteGroup) -> Record {
        Record([
            Field("id", .int(group.id)), Field("title", .string(group.title)),
            Field("description", .string(group.description)), Field("ownerTitle", .string(group.ownerTitle)),
        ])
    }

    /// Columns of ``record(roleAssignment:inherited:)``.
    public static let roleAssignmentColumns = [
        Column("principalId", title: "Id"), Column("principal", title: "Principal"),
        Column("loginName", title: "Login"), Column("principalType", title: "Type"), Column("roles", title: "Roles"),
        Column("inherited", title: "Inherited"),
    ]

    /// One role assignment: who, their permission levels (names joined with `, `), and whether it is inherited (null
    /// when SharePoint did not say).
    public static func record(roleAssignment assignment: RoleAssignment, inherited: Bool?) -> Record {
        Record([
            Field("principalId", .int(assignment.principalId)), Field("principal", .string(assignment.member.title)),
            Field("loginName", .string(assignment.member.loginName)),
            Field("principalType", .string(assignment.member.typeName)),
            Field("roles", .string(assignment.roles.map(\.name).joined(separator: ", "))),
            Field("inherited", inherited.map(Cell.bool) ?? .null),
        ])
    }
}
