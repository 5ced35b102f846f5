import Foundation
import HTTPServer

/// Reading list items: values by field, query checks (unknown columns, the list-view threshold), paging,
/// `$orderby`, `$select`/`$expand` and the item entity.
extension SimulatorCore {
    static let threshold = 5000

    // MARK: Filter evaluation

    /// The value of a field (or `Author/Title`-style path) on an item.
    func itemValue(_ item: ListItem, _ name: String, list: SPList) -> FieldValue {
        let parts = name.split(separator: "/").map(String.init)
        let lower = parts[0].lowercased()
        switch lower {
        case "id": return .number(Double(item.id))
        case "created": return .date(item.created)
        case "modified": return .date(item.modified)
        case "author", "authorid": return parts.count > 1 ? userField(item.authorId, parts[1]) : .lookup(item.authorId)
        case "editor", "editorid": return parts.count > 1 ? userField(item.editorId, parts[1]) : .lookup(item.editorId)
        default:
            guard let field = list.field(named: parts[0]) else { return .null }
            let value = item.values[field.internalName] ?? .null
            if parts.count > 1, case .lookup(let id) = value { return userField(id, parts[1]) }
            return value
        }
    }

    func userField(_ spId: Int, _ property: String) -> FieldValue {
        let index = spId - 10
        guard users.indices.contains(index) else { return .null }
        switch property.lowercased() {
        case "title": return .text(users[index].displayName)
        case "email", "name": return .text(users[index].email)
        case "id": return .number(Double(spId))
        default: return .null
        }
    }

    // MARK: Query validation

    /// Unknown columns → 400; unindexed filter/sort over a list above the threshold → 500.
    func checkQuery(_ list: SPList, _ query: QueryOptions, itemCount: Int) throws {
        let known = ["id", "created", "modified", "author", "authorid", "editor", "editorid"]
        var referenced: [String] = query.filter?.fields ?? []
        referenced += query.orderBy.map(\.field)
        for name in referenced {
            let base = String(name.split(separator: "/").first ?? "")
            guard known.contains(base.lowercased()) || list.field(named: base) != nil else {
                throw RESTError.argument("Column '\(base)' does not exist. It may have been deleted by another user.")
            }
        }
        if (query.top ?? 0) > SimulatorCore.threshold { throw RESTError.throttled }
        guard itemCount > SimulatorCore.threshold else { return }
        for name in referenced {
            let base = String(name.split(separator: "/").first ?? "").lowercased()
            if base == "id" { continue }
            if let field = list.field(named: base), field.indexed { continue }
            throw RESTError.throttled
        }
    }

    // MARK: Reading

    func itemsPage(_ list: SPList, _ context: RESTContext) throws -> JSON {
        let query = context.query
        let top = query.top ?? 100
        let snapshot = state.withLock { _ in
            (list.itemCount, list.maxId, list.stored, list.deleted, list.generatedCount, list.generator)
        }
        let (count, maxId, stored, deleted, generatedCount, generator) = snapshot
        try checkQuery(list, query, itemCount: count)
        func item(_ id: Int) -> ListItem? {
            if deleted.contains(id) { return nil }
            if let item = stored[id] { return item }
            if id <= generatedCount, let generator { return generator(id) }
            return nil
        }
        func matches(_ item: ListItem) -> Bool {
            guard let filter = query.filter else { return true }
            return evaluate(filter) { itemValue(item, $0, list: list) }
        }
        var page: [ListItem] = []
        var hasMore = false
        let byId = query.orderBy.count == 1 && query.orderBy[0].field.lowercased() == "id"
        if query.orderBy.isEmpty || byId {
            // Walk ids in order (ID is indexed): start after the skip token, and after any `ID gt/ge N` bound.
            let descending = byId && query.orderBy[0].descending
            let bounds: (lower: Int?, upper: Int?) = query.filter.map(idBounds) ?? (nil, nil)
            var id: Int
            if descending {
                id = min((query.afterId ?? Int.max) - 1, maxId, bounds.upper ?? Int.max)
            } else {
                id = max((query.afterId ?? 0) + 1, bounds.lower ?? 1)
            }
            while descending ? id >= max(1, bounds.lower ?? 1) : id <= min(maxId, bounds.upper ?? Int.max) {
                if let candidate = item(id), matches(candidate) {
                    if page.count == top {
                        hasMore = true
                        break
                    }
                    page.append(candidate)
                }
                id += descending ? -1 : 1
            }
        } else {
            var all: [ListItem] = []
            for id in 1...max(maxId, 1) {
                if let candidate = item(id), matches(candidate) { all.append(candidate) }
            }
            all.sort { a, b in
                for order in query.orderBy {
                    let result = sortCompare(
                        itemValue(a, order.field, list: list), itemValue(b, order.field, list: list))
                    if result != 0 { return order.descending ? result > 0 : result < 0 }
                }
                return a.id < b.id
            }
            var start = 0
            if let after = query.afterId, let position = all.firstIndex(where: { $0.id == after }) {
                start = position + 1
            }
            let end = min(all.count, start + top)
            page = start < end ? Array(all[start..<end]) : []
            hasMore = end < all.count
        }
        var next: String?
        if hasMore, let last = page.last { next = nextLink(list, lastId: last.id, top: top, context: context) }
        let entries = page.map { itemEntity($0, list, context, top: false) }
        let set = "SP.ListData." + list.itemEntityTypeFullName.replacingOccurrences(of: "SP.Data.", with: "") + "s"
        return collection(entries, set: set, next: next, context: context)
    }

    /// Inclusive ID bounds implied by top-level `and`ed `ID gt/ge/lt/le/eq N` terms (nil = unbounded).
    func idBounds(_ expression: FilterExpression) -> (lower: Int?, upper: Int?) {
        switch expression {
        case .and(let lhs, let rhs):
            let left = idBounds(lhs)
            let right = idBounds(rhs)
            let lower = [left.lower, right.lower].compactMap { $0 }.max()
            let upper = [left.upper, right.upper].compactMap { $0 }.min()
            return (lower, upper)
        case .compare(let field, nil, let op, .number(let value)) where field.lowercased() == "id":
            switch op {
            case "gt": return (Int(value.rounded(.down)) + 1, nil)
            case "ge": return (Int(value.rounded(.up)), nil)
            case "lt": return (nil, Int(value.rounded(.up)) - 1)
            case "le": return (nil, Int(value.rounded(.down)))
            case "eq": return (Int(value), Int(value))
            default: return (nil, nil)
            }
        default:
            return (nil, nil)
        }
    }

    func sortCompare(_ a: FieldValue, _ b: FieldValue) -> Int {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }
        switch (a, b) {
        case (.text(let x), .text(let y)): return sign(x.lowercased(), y.lowercased())
        case (.number(let x), .number(let y)): return sign(x, y)
        case (.date(let x), .date(let y)): return sign(x, y)
        case (.lookup(let x), .lookup(let y)): return sign(x, y)
        case (.bool(let x), .bool(let y)): return sign(x ? 1 : 0, y ? 1 : 0)
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        default: return 0
        }
    }

    /// Absolute, encoded next link carrying `$top` and the other options, as SharePoint writes it.
    func nextLink(_ list: SPList, lastId: Int, top: Int, context: RESTContext) -> String {
        let base =
            context.flavour == .verbose
            ? context.site + "/_api/Web/Lists(guid'\(list.id)')/Items"
            : context.site + "/_api/web/lists(guid%27\(list.id)%27)/items"
        var link = base + "?%24skiptoken=Paged%3dTRUE%26p_ID%3d\(lastId)&%24top=\(top)"
        for (name, value) in context.request.query {
            let lower = name.lowercased()
            guard ["$select", "$filter", "$orderby", "$expand"].contains(lower) else { continue }
            link +=
                "&%24" + lower.dropFirst() + "="
                + percentEncode(value, keep: ",/'()").replacingOccurrences(of: "'", with: "%27")
        }
        return link
    }

    func itemPath(_ list: SPList, _ id: Int) -> String { "Web/Lists(guid'\(list.id)')/Items(\(id))" }

    func jsonValue(_ value: FieldValue, field: FieldDef?) -> JSON {
        switch value {
        case .text(let text): return .string(text)
        case .number(let number): return field?.typeAsString == "Integer" ? .int(Int(number)) : .double(number)
        case .date(let epoch): return .string(CivilTime(epoch).iso)
        case .bool(let flag): return .bool(flag)
        case .lookup(let id): return .int(id)
        case .null: return .null
        }
    }

    func expandedUser(_ spId: Int, properties: [String], _ context: RESTContext) -> JSON {
        var members: [(String, JSON)] = []
        if context.flavour == .verbose {
            members.append(
                (
                    "__metadata",
                    .object([
                        ("id", .string(stableGUID(options.seed, "userinfo/\(spId)"))),
                        ("type", .string("SP.Data.UserInfoItem")),
                    ])
                ))
        }
        let wanted = properties.isEmpty ? ["Id", "Title", "EMail"] : properties
        for property in wanted {
            switch userField(spId, property) {
            case .text(let text): members.append((property, .string(text)))
            case .number(let number): members.append((property, .int(Int(number))))
            default: members.append((property, .null))
            }
        }
        return .object(members)
    }

    /// Display strings for every field (`FieldValuesAsText`).
    func fieldValuesAsText(_ item: ListItem, _ list: SPList, _ context: RESTContext, html: Bool = false) -> JSON {
        func escapedKey(_ name: String) -> String {
            let escaped = name.replacingOccurrences(of: "_", with: "_x005f_")
            return escaped.hasPrefix("_") ? "OData_" + escaped : escaped
        }
        var members: [(String, JSON)] = []
        if context.flavour == .verbose {
            let uri =
                context.site + "/_api/" + itemPath(list, item.id) + (html ? "/FieldValuesAsHtml" : "/FieldValuesAsText")
            members.append(
                (
                    "__metadata",
                    .object([("id", .string(uri)), ("uri", .string(uri)), ("type", .string("SP.FieldStringValues"))])
                ))
        }
        members.append(("ID", .string(String(item.id))))
        for field in list.fields where !["ID", "ContentTypeId", "ContentType"].contains(field.internalName) {
            let text: String
            switch field.internalName {
            case "Created": text = CivilTime(item.created).display
            case "Modified": text = CivilTime(item.modified).display
            case "Author":
                text = users.indices.contains(item.authorId - 10) ? users[item.authorId - 10].displayName : ""
            case "Editor":
                text = users.indices.contains(item.editorId - 10) ? users[item.editorId - 10].displayName : ""
            default:
                switch item.values[field.internalName] ?? .null {
                case .text(let value): text = value
                case .number(let number): text = number == number.rounded() ? String(Int(number)) : String(number)
                case .date(let epoch): text = CivilTime(epoch).display
                case .bool(let flag): text = flag ? "Yes" : "No"
                case .lookup(let id): text = users.indices.contains(id - 10) ? users[id - 10].displayName : String(id)
                case .null: text = ""
                }
            }
            members.append((escapedKey(field.internalName), .string(text)))
        }
        let fileRef: String
        if case .text(let ref) = item.values["FileRef"] ?? .null {
            fileRef = ref
        } else {
            fileRef = list.url + "/\(item.id)_.000"
        }
        members += [
            ("OData__x005f_UIVersionString", .string("\(item.version).0")), ("GUID", .string(item.guid)),
            ("MetaInfo", .string("")), ("OData__x005f_ModerationStatus", .string("Approved")),
            ("OData__x005f_Level", .string("1")), ("UniqueId", .string(html ? "" : item.guid)),
            ("owshiddenversion", .string(String(item.version))), ("FSObjType", .string(html ? "" : "0")),
            ("ScopeId", .string(html ? "" : "{" + stableGUID(options.seed, "scope" + list.id).uppercased() + "}")),
            ("FileRef", .string(html ? "" : fileRef)),
        ]
        return .object(members)
    }

    func itemEntity(_ item: ListItem, _ list: SPList, _ context: RESTContext, top: Bool) -> JSON {
        let query = context.query
        var props: [(String, JSON)] = [
            ("FileSystemObjectType", .int(0)), ("Id", .int(item.id)), ("ServerRedirectedEmbedUri", .null),
            ("ServerRedirectedEmbedUrl", .string("")), ("ContentTypeId", .string(list.contentTypeId)),
        ]
        let standard = ["ID", "ContentTypeId", "ContentType", "Modified", "Created", "Author", "Editor"]
        for field in list.fields where !standard.contains(field.internalName) {
            if field.selectOnly && !query.select.contains(where: { $0.lowercased() == field.internalName.lowercased() })
            {
                continue
            }
            props.append((field.jsonName, jsonValue(item.values[field.internalName] ?? .null, field: field)))
        }
        props += [
            ("ID", .int(item.id)), ("Modified", .string(CivilTime(item.modified).iso)),
            ("Created", .string(CivilTime(item.created).iso)), ("AuthorId", .int(item.authorId)),
            ("EditorId", .int(item.editorId)), ("OData__UIVersionString", .string("\(item.version).0")),
            ("Attachments", .bool(false)), ("GUID", .string(item.guid)),
        ]
        // $select (with Author/Title-style paths), applied to the default property set.
        var expanded: [(String, JSON)] = []
        var lookupFields = ["Author", "Editor"]
        lookupFields += list.fields.filter {
            $0.typeAsString == "User" && !["Author", "Editor"].contains($0.internalName)
        }.map(\.internalName)
        for name in lookupFields where query.expands(name) {
            let properties = query.select.compactMap { selected -> String? in
                let parts = selected.split(separator: "/").map(String.init)
                return parts.count == 2 && parts[0].lowercased() == name.lowercased() ? parts[1] : nil
            }
            let value: FieldValue
            switch name {
            case "Author": value = .lookup(item.authorId)
            case "Editor": value = .lookup(item.editorId)
            default: value = item.values[name] ?? .null
            }
            if case .lookup(let id) = value {
                expanded.append((name, expandedUser(id, properties: properties, context)))
            } else {
                expanded.append((name, .null))
            }
        }
        if query.expands("File"), list.isLibrary,
            let file = state.withLock({ state in state.files.first { $0.listId == list.id && $0.itemId == item.id } })
        {
            expanded.append(("File", fileEntity(file, context, top: false)))
        }
        if query.expands("FieldValuesAsHtml") {
            expanded.append(("FieldValuesAsHtml", fieldValuesAsText(item, list, context, html: true)))
        }
        if query.expands("FieldValuesAsText") {
            expanded.append(("FieldValuesAsText", fieldValuesAsText(item, list, context)))
        }
        if !query.selectsAll {
            let selected = Set(query.select.map { String($0.split(separator: "/").first ?? "").lowercased() })
            props = props.filter {
                selected.contains($0.0.lowercased())
                    || selected.contains(($0.0.hasSuffix("Id") ? String($0.0.dropLast(2)) : "").lowercased())
            }
            expanded = expanded.filter { selected.contains($0.0.lowercased()) }
        }
        var deferred = [
            "FirstUniqueAncestorSecurableObject", "RoleAssignments", "AttachmentFiles", "ContentType",
            "FieldValuesAsHtml",
            "FieldValuesAsText", "FieldValuesForEdit", "File", "Folder", "ParentList", "Versions",
        ]
        deferred += lookupFields
        if !query.selectsAll {
            let selected = Set(query.select.map { String($0.split(separator: "/").first ?? "").lowercased() })
            deferred = deferred.filter { selected.contains($0.lowercased()) }
        }
        // Entities inside collections ignore `top` selection (already applied above).
        let inner = RESTContext(
            flavour: context.flavour, site: context.site, query: (try? QueryOptions([])) ?? query,
            request: context.request,
            user: context.user, app: context.app)
        return entity(
            type: list.itemEntityTypeFullName, path: itemPath(list, item.id), set: "SP.Data." + list.entityTypeName,
            props: props,
            deferred: deferred, context: inner, top: top, etag: "\"\(item.version)\"", expanded: expanded,
            idOverride: context.flavour == .verbose ? item.guid : nil)
    }
}
