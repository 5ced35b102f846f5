import Foundation
import SharePoint
import Testing

/// `SP.RoleAssignment` (with `Member` and `RoleDefinitionBindings` expanded) and `SP.ContentType` in the shapes
/// SharePoint Online sends them (no capture in the corpus shows them yet): nometadata's `value` arrays and verbose's
/// `d.results` with `__metadata` and nested `results`.
struct PermissionsDecodingTests {
    static let nometadata = #"""
        {"value":[
          {"Member":{"Id":3,"IsHiddenInUI":false,"LoginName":"Contoso Owners","Title":"Contoso Owners","PrincipalType":8,
            "AllowMembersEditMembership":false,"Description":null,"OwnerTitle":"Contoso Owners"},
           "RoleDefinitionBindings":[{"BasePermissions":{"High":"2147483647","Low":"4294967295"},
             "Description":"Has full control.","Hidden":false,"Id":1073741829,"Name":"Full Control","Order":1,
             "RoleTypeKind":5}],
           "PrincipalId":3},
          {"Member":{"Id":14,"IsHiddenInUI":false,"LoginName":"i:0#.f|membership|ann@contoso.com","Title":"Ann Lee",
            "PrincipalType":1,"Email":"ann@contoso.com"},
           "RoleDefinitionBindings":[
             {"Description":"Can view pages.","Hidden":false,"Id":1073741826,"Name":"Read","Order":128,"RoleTypeKind":2},
             {"Description":"Custom","Hidden":false,"Id":1073741930,"Name":"Approve Only","Order":160,"RoleTypeKind":0}],
           "PrincipalId":14}
        ]}
        """#

    static let verbose = #"""
        {"d":{"results":[
          {"__metadata":{"id":"x","uri":"x","type":"SP.RoleAssignment"},
           "Member":{"__metadata":{"type":"SP.Group"},"Id":5,"LoginName":"Contoso Visitors","Title":"Contoso Visitors",
             "PrincipalType":8,"Users":{"__deferred":{"uri":"x"}}},
           "RoleDefinitionBindings":{"results":[{"__metadata":{"type":"SP.RoleDefinition"},
             "BasePermissions":{"__metadata":{"type":"SP.BasePermissions"},"High":"176","Low":"138612833"},
             "Description":"Can view pages and list items and download documents.","Hidden":false,
             "Id":1073741826,"Name":"Read","Order":128,"RoleTypeKind":2}]},
           "PrincipalId":5}
        ]}}
        """#

    @Test func nometadataAssignmentsReadTheMemberAndEveryRole() throws {
        let page = try Page<RoleAssignment>.decode(Data(Self.nometadata.utf8))
        #expect(page.items.map(\.principalId) == [3, 14])
        let owners = try #require(page.items.first)
        #expect(owners.member.title == "Contoso Owners" && owners.member.typeName == "SharePoint group")
        #expect(owners.roles.map(\.name) == ["Full Control"] && owners.roles.first?.roleTypeKind == 5)
        let ann = try #require(page.items.last)
        #expect(ann.member.loginName == "i:0#.f|membership|ann@contoso.com" && ann.member.typeName == "user")
        #expect(ann.roles.map(\.name) == ["Read", "Approve Only"])
        #expect(ann.roles.last?.id == 1_073_741_930)
    }

    @Test func verboseAssignmentsReadTheNestedResults() throws {
        let page = try Page<RoleAssignment>.decode(Data(Self.verbose.utf8))
        let visitors = try #require(page.items.first)
        #expect(visitors.member.id == 5 && visitors.member.loginName == "Contoso Visitors")
        #expect(visitors.roles.map(\.name) == ["Read"])
        #expect(visitors.roles.first?.description == "Can view pages and list items and download documents.")
    }

    @Test func anAssignmentWithoutExpansionHasItsPrincipalIdOnly() throws {
        let page = try Page<RoleAssignment>.decode(Data(#"{"value":[{"PrincipalId":7}]}"#.utf8))
        #expect(page.items.first?.member.id == 7 && page.items.first?.roles.isEmpty == true)
        #expect(page.items.first?.member.typeName == "")
        #expect(throws: SharePointError.self) { try Page<RoleAssignment>.decode(Data(#"{"value":[{"Id":7}]}"#.utf8)) }
    }

    @Test func contentTypesReadTheirIdInEveryFlavour() throws {
        let light = #"""
            {"value":[{"Description":"Create a new list item.","Group":"List Content Types","Hidden":false,
              "Id":{"StringValue":"0x0100A1B2"},"Name":"Item","ReadOnly":false,"StringId":"0x0100A1B2"}]}
            """#
        let item = try #require(try Page<ContentType>.decode(Data(light.utf8)).items.first)
        #expect(item.id == "0x0100A1B2" && item.name == "Item" && item.group == "List Content Types")
        let verbose = #"""
            {"d":{"results":[{"__metadata":{"type":"SP.ContentType"},"Description":"Create a new folder.",
              "Group":"Folder Content Types","Hidden":true,
              "Id":{"__metadata":{"type":"SP.ContentTypeId"},"StringValue":"0x0120"},"Name":"Folder"}]}}
            """#
        let folder = try #require(try Page<ContentType>.decode(Data(verbose.utf8)).items.first)
        #expect(folder.id == "0x0120" && folder.hidden)
        let onlyStringId = #"{"value":[{"Name":"Document","StringId":"0x0101"}]}"#
        #expect(try Page<ContentType>.decode(Data(onlyStringId.utf8)).items.first?.id == "0x0101")
    }
}
