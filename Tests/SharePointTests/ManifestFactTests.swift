import Foundation
import JSON
import SharePoint
import Testing

/// Every fact of `shared/corpus/sp-rest/manifest.json`, asserted twice: through the typed public API
/// (`Web`, `Page<ListItem>`, `SharePointError`, …) and through `JSONValue` with the manifest's path syntax.
@Suite(.enabled(if: Corpus.available, Corpus.absentMessage))
struct ManifestFactTests {
    @Test(arguments: Corpus.jsonFacts)
    func factHoldsThroughTypedAPI(_ fact: CorpusFact) throws {
        let data = try Corpus.data(fact.file)
        let typed = try TypedFacts.value(of: fact, data: data)
        let value = try #require(typed, "no typed accessor answers \(fact.testDescription)")
        try expectFact(value, fact)
    }

    @Test(arguments: Corpus.jsonFacts)
    func factHoldsInRawJSON(_ fact: CorpusFact) throws {
        let root = try JSONValue.parse(try Corpus.data(fact.file))
        let value = try #require(ManifestPath.evaluate(fact.path, in: root), "path not found: \(fact.testDescription)")
        try expectFact(value, fact)
    }

    private func expectFact(_ value: JSONValue, _ fact: CorpusFact) throws {
        if fact.expected.isNull {
            // A null fact asserts presence (and a non-empty string value).
            let text = try #require(value.stringValue, "\(fact.testDescription) should be a string")
            #expect(!text.isEmpty, "\(fact.testDescription) should not be empty")
        } else {
            #expect(value == fact.expected, "\(fact.testDescription)")
        }
    }

    @Test func everyJSONFileIsCoveredAndOnlyTheSTSResponseIsNotJSON() {
        // STS (WS-Trust XML) facts belong to the sign-in engine's parser, not to the REST object model: they are
        // asserted by AuthFlowTests/STSCorpusTests with the legacy route's reader.
        let nonJSON = Corpus.entries.filter { $0["format"]?.stringValue != "json" }.compactMap {
            $0["file"]?.stringValue
        }
        #expect(nonJSON == ["sts_extsts_success_response.xml"])
        #expect(Corpus.jsonFacts.count >= 84)
        #expect(Set(Corpus.jsonFacts.map(\.file)).count == Corpus.entries.count - nonJSON.count)
    }

    @Test func fileSizesMatchTheManifest() throws {
        for entry in Corpus.entries {
            let file = try #require(entry["file"]?.stringValue)
            let data = try Corpus.data(file)
            #expect(data.count == entry["bytes"]?.intValue, "\(file)")
        }
    }
}

/// Answers each manifest fact from the typed values; `nil` when no accessor is defined for a path.
enum TypedFacts {
    static func value(of fact: CorpusFact, data: Data) throws -> JSONValue? {
        func s(_ text: String?) -> JSONValue? { text.map(JSONValue.string) }
        func i(_ number: Int?) -> JSONValue? { number.map { .integer(Int64($0)) } }
        func b(_ flag: Bool?) -> JSONValue? { flag.map(JSONValue.bool) }
        func lengthString(_ length: Int64) -> JSONValue { .string(String(length)) }

        switch fact.file {
        case "contextinfo_minimalmetadata.json":
            let info = try ContextInfo.decode(data)
            switch fact.path {
            case "odata.metadata": return s(try ODataDocument(data: data).metadataURL)
            case "FormDigestTimeoutSeconds": return i(info.formDigestTimeoutSeconds)
            case "FormDigestValue": return s(info.formDigestValue)
            case "LibraryVersion": return s(info.libraryVersion)
            default: return nil
            }

        case "error_404_file_missing_nometadata.json", "error_404_list_missing_nometadata.json",
            "error_500_list_exists_nometadata.json":
            let error = SharePointError(status: fact.status, headers: fact.recordedHeaders, body: data)
            switch fact.path {
            case "odata.error.code": return s(error.rawCode)
            case "odata.error.message.value": return s(error.message)
            case "odata.error.message.lang": return s(error.language)
            default: return nil
            }

        case "file_add_nometadata.json":
            let file = try File.decode(data)
            switch fact.path {
            case "Name": return s(file.name)
            case "Length": return lengthString(file.length)
            case "MajorVersion": return i(file.majorVersion)
            case "UIVersionLabel": return s(file.uiVersionLabel)
            case "ServerRelativeUrl": return s(file.serverRelativeUrl)
            default: return nil
            }

        case "file_startupload_nometadata.json":
            return fact.path == "value" ? lengthString(try UploadResult.offset(data)) : nil

        case "folder_files_minimalmetadata.json", "folder_files_nometadata.json":
            let page = try Page<File>.decode(data)
            switch fact.path {
            case "odata.metadata": return s(page.metadataURL)
            case "len(value)": return i(page.items.count)
            case "value[0].odata.type": return s(page.items[0].metadata.type)
            case "value[0].odata.editLink": return s(page.items[0].metadata.editLink)
            case "value[0].Name": return s(page.items[0].name)
            case "value[0].Length": return lengthString(page.items[0].length)
            case "value[0].ServerRelativeUrl": return s(page.items[0].serverRelativeUrl)
            case "value[0].ETag": return s(page.items[0].etag)
            case "value[1].Name": return s(page.items[1].name)
            case "value[1].MajorVersion": return i(page.items[1].majorVersion)
            default: return nil
            }

        case "http_403_anonymous_file_request.capture.json":
            // A capture record: status and lower-case headers; the 13-byte text body was not kept.
            let record = try JSONValue.parse(data)
            let headers = (record["headers"]?.objectValue ?? []).compactMap { name, value in
                value.stringValue.map { (name, $0) }
            }
            let error = SharePointError(
                status: record["status_code"]?.intValue ?? 0, headers: headers, body: Data(),
                url: record["request"]?["url"]?.stringValue)
            switch fact.path {
            case "status_code": return i(error.status)
            case "headers.content-type": return s(error.headers.contentType)
            case "headers.x-forms_based_auth_required":
                guard error.kind == .formsAuthRequired, let loginURL = error.kind.loginURL else { return nil }
                return s(loginURL)
            case "headers.x-idcrl_auth_params_v1": return s(error.headers.idcrlAuthParams)
            case "headers.x-msdavext_error": return s(error.headers.webDAVError)
            case "headers.microsoftsharepointteamservices": return s(error.headers.serverBuild)
            default: return nil
            }

        case "item_fieldvalues_expanded_nometadata.json":
            let page = try Page<ListItem>.decode(data)
            func text(_ group: String, _ name: String) -> JSONValue? {
                let members = page.items[0][group]?.objectValue ?? []
                return s(ListItem.textValues(of: members).first { $0.0 == name }?.1)
            }
            switch fact.path {
            case "len(value)": return i(page.items.count)
            case "value[0].FieldValuesAsText.Created": return text("FieldValuesAsText", "Created")
            case "value[0].FieldValuesAsText.ID": return text("FieldValuesAsText", "ID")
            case "value[0].FieldValuesAsText.OData__x005f_ModerationStatus":
                return text("FieldValuesAsText", "OData__x005f_ModerationStatus")
            case "value[0].FieldValuesAsText.FileRef": return text("FieldValuesAsText", "FileRef")
            case "value[0].FieldValuesAsHtml.UniqueId": return text("FieldValuesAsHtml", "UniqueId")
            default: return nil
            }

        case "items_nometadata_page_nextlink.json", "items_verbose_collection.json":
            let page = try Page<ListItem>.decode(data)
            switch fact.path {
            case "len(value)", "len(d.results)": return i(page.items.count)
            case "odata.nextLink": return s(page.nextLink)
            case "value[0].Title": return page.items[0]["Title"]
            case "value[1].Id": return i(page.items[1].id)
            case "value[0].OData__UIVersionString": return page.items[0]["OData__UIVersionString"]
            case "d.results[0].__metadata.type": return s(page.items[0].entityType)
            case "d.results[0].__metadata.etag": return s(page.items[0].etag)
            case "d.results[0].Id": return i(page.items[0].id)
            case "d.results[0].GeoLoc.__metadata.type": return s(page.items[0]["GeoLoc"]?.odataType)
            case "d.results[0].City": return page.items[0]["City"]
            default: return nil
            }

        case "list_create_201_nometadata.json", "list_single_nometadata.json", "list_fields_expanded_nometadata.json":
            let list = try ListInfo.decode(data)
            switch fact.path {
            case "Title": return s(list.title)
            case "Id": return s(list.id)
            case "BaseTemplate": return i(list.baseTemplate)
            case "BaseType": return i(list.baseType)
            case "ItemCount": return i(list.itemCount)
            case "ListItemEntityTypeFullName": return s(list.listItemEntityTypeFullName)
            case "EntityTypeName": return s(list.entityTypeName)
            case "len(Fields)": return i(list.fields?.count)
            case "Fields[0].InternalName": return s(list.fields?[0].internalName)
            case "Fields[0].TypeAsString": return s(list.fields?[0].typeAsString)
            case "Fields[0].FieldTypeKind": return i(list.fields?[0].fieldTypeKind)
            case "Fields[3].InternalName": return s(list.fields?[3].internalName)
            default: return nil
            }

        case "lists_filtered_nometadata.json":
            let page = try Page<ListInfo>.decode(data)
            switch fact.path {
            case "len(value)": return i(page.items.count)
            case "value[0].Title": return s(page.items[0].title)
            case "value[1].ListItemEntityTypeFullName": return s(page.items[1].listItemEntityTypeFullName)
            case "value[3].ItemCount": return i(page.items[3].itemCount)
            case "value[0].CurrentChangeToken.StringValue": return s(page.items[0].currentChangeToken)
            default: return nil
            }

        case "web_currentuser_nometadata.json":
            let user = try #require(try Web.decode(data).currentUser)
            switch fact.path {
            case "CurrentUser.Id": return i(user.id)
            case "CurrentUser.LoginName": return s(user.loginName)
            case "CurrentUser.Title": return s(user.title)
            case "CurrentUser.IsSiteAdmin": return b(user.isSiteAdmin)
            case "CurrentUser.PrincipalType": return i(user.principalType)
            case "CurrentUser.UserPrincipalName": return s(user.userPrincipalName)
            default: return nil
            }

        case "web_verbose.json":
            let web = try Web.decode(data)
            switch fact.path {
            case "d.__metadata.type": return s(web.metadata.type)
            case "d.Title": return s(web.title)
            case "d.Url": return s(web.url)
            case "d.ServerRelativeUrl": return s(web.serverRelativeUrl)
            case "d.Id": return s(web.id)
            case "d.Lists.__deferred.uri": return s(web.entity.deferredURI("Lists"))
            default: return nil
            }

        default:
            return nil
        }
    }
}
