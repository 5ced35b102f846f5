import CommandLineKit
import Foundation
import JSON
import SharePoint

/// The columns of a bulk file checked against the list's fields before anything is sent, and each row turned into
/// one ``BatchItemChange``: the value of each column converted by its field's type (`TypeAsString`).
struct BulkColumns {
    /// What a column writes.
    enum Target {
        /// The `Id` column of `update --from`: which item to change.
        case id
        /// A field, written under its JSON property name (`OwnerId` for the person field `Owner`).
        case field(SharePoint.Field, property: String)
    }

    let targets: [Target]

    /// Field types whose values are one id: a person or a lookup.
    static let idTypes: Set<String> = ["user", "lookup"]
    /// Field types that hold several values, which a file cannot write yet.
    static let multiValueTypes: Set<String> = ["usermulti", "lookupmulti", "multichoice", "taxonomyfieldtypemulti"]

    /// Checks `header` against `fields` (every field of the list named `list`), for creates (`needsID` false) or
    /// changes (`needsID` true: an `Id` column is required).
    ///
    /// - Throws: a usage error for a column that is no field ("did you mean …"), a read-only field, a field given
    ///   twice, a multi-valued field, an `Id` column in a create, or a change without an `Id` column.
    init(_ header: [String], fields: [SharePoint.Field], list: String, needsID: Bool) throws(BulkInputError) {
        var known: [String: (SharePoint.Field, String)] = [:]
        for field in fields {
            let property = OData.jsonPropertyName(forInternalName: field.internalName)
            let isID = Self.idTypes.contains(field.typeAsString.lowercased())
            let written = isID ? property + "Id" : property
            known[field.internalName.lowercased()] = (field, written)
            known[written.lowercased()] = (field, written)
        }
        var targets: [Target] = []
        var seen: Set<String> = []
        for (index, column) in header.enumerated() {
            let place = "column \(index + 1)"
            guard !column.isEmpty else {
                throw BulkInputError(description: "--from: \(place) has no name in the header")
            }
            if column.lowercased() == "id" {
                guard needsID else {
                    throw BulkInputError(
                        description: "--from: add creates new items, so the file cannot have an Id column; use "
                            + "'spconnect update \(list) --from FILE' to change the items it names")
                }
                guard seen.insert("id").inserted else {
                    throw BulkInputError(description: "--from: the Id column is given twice")
                }
                targets.append(.id)
                continue
            }
            guard let (field, written) = known[column.lowercased()] else {
                throw Self.unknown(column, place: place, fields: fields, list: list)
            }
            guard field.readOnly != true else {
                throw BulkInputError(
                    description: "--from: '\(column)' (\(place)) is a read-only field of '\(list)' and cannot be "
                        + "written; remove the column")
            }
            guard !Self.multiValueTypes.contains(field.typeAsString.lowercased()) else {
                throw BulkInputError(
                    description: "--from: '\(column)' (\(place)) is a \(field.typeAsString) field, which holds "
                        + "several values; --from writes single values only (use 'spconnect update' with "
                        + "\(written):='{\"results\":[…]}')")
            }
            guard seen.insert(field.internalName.lowercased()).inserted else {
                throw BulkInputError(description: "--from: the field '\(field.internalName)' is given twice")
            }
            targets.append(.field(field, property: written))
        }
        if needsID, !seen.contains("id") {
            throw BulkInputError(description: "--from: update needs an Id column naming the item each row changes")
        }
        if !targets.contains(where: { if case .field = $0 { return true } else { return false } }) {
            throw BulkInputError(description: "--from: the file names no field to write")
        }
        self.targets = targets
    }

    /// The usage error for a column the list does not have, with the closest field names.
    private static func unknown(_ name: String, place: String, fields: [SharePoint.Field], list: String)
        -> BulkInputError
    {
        let visible = fields.filter { $0.hidden != true && $0.readOnly != true }
        let suggestions = Suggestions.nearest(
            to: name, among: visible.map { (OData.jsonPropertyName(forInternalName: $0.internalName), $0.title) })
        let hint = suggestions.isEmpty ? "" : "; did you mean " + suggestions.joined(separator: ", ") + "?"
        return BulkInputError(
            description: "--from: list '\(list)' has no field '\(name)' (\(place))\(hint) Columns are internal "
                + "names: 'spconnect fields \(list)' lists them. Nothing was sent")
    }
}

/// Why one row cannot be written: shown as the row's error.
struct RowProblem: Error {
    let message: String
}

/// Turns rows into changes, resolving people by e-mail or login name through `ensureuser` (each name once a run).
/// In a dry run (`lookingUpOnly`) people are looked up among the site's users instead, since `ensureuser` adds them:
/// one who is not a site user yet gets id 0 and a note for the row (``takeNotes()``).
final class RowConverter {
    private let columns: BulkColumns
    private let site: SharePointSite
    private let lookingUpOnly: Bool
    /// Names already resolved: the user id, or why there is none.
    private var people: [String: Result<Int, RowProblem>] = [:]
    /// The site's users, read once by a dry run.
    private var siteUsers: [User]?
    /// What the dry run could not check for the row converted last.
    private var notes: [String] = []

    init(columns: BulkColumns, site: SharePointSite, lookingUpOnly: Bool = false) {
        self.columns = columns
        self.site = site
        self.lookingUpOnly = lookingUpOnly
    }

    /// The notes of the row converted last (dry runs only), cleared.
    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// The change row `row` asks for, or its problems (every column's, in column order). Throws only what stops
    /// the whole run (the session, the network, throttling while resolving a person).
    func change(for row: BulkInput.Row) async throws(SharePointError) -> Result<BatchItemChange, RowProblem> {
        if let problem = row.problem { return .failure(RowProblem(message: "the row \(problem)")) }
        var id: Int?
        var fields: [(String, JSONValue)] = []
        var problems: [String] = []
        for (target, given) in zip(columns.targets, row.values) {
            guard let given else { continue }
            switch target {
            case .id:
                guard let number = Self.itemID(given) else {
                    problems.append("Id: \(Self.shown(given)) is not an item id")
                    continue
                }
                id = number
            case .field(let field, let property):
                do {
                    fields.append((property, try await value(given, for: field)))
                } catch let problem as RowProblem {
                    problems.append("\(field.internalName): \(problem.message)")
                } catch let error as SharePointError {
                    throw error
                } catch {
                    problems.append("\(field.internalName): \(error)")
                }
            }
        }
        let updating = columns.targets.contains { if case .id = $0 { true } else { false } }
        if updating, id == nil, problems.isEmpty { problems.append("Id: the row has no item id") }
        guard problems.isEmpty else { return .failure(RowProblem(message: problems.joined(separator: "; "))) }
        return .success(BatchItemChange(id: updating ? id : nil, fields: fields))
    }

    /// The JSON value `given` is for `field`; an empty cell or `null` clears the field.
    private func value(_ given: BulkInput.Value, for field: SharePoint.Field) async throws -> JSONValue {
        let type = field.typeAsString.lowercased()
        let text: String
        switch given {
        case .json(.null): return .null
        case .json(.string(let string)): text = string
        case .json(let json):
            // Numbers, booleans and structures from NDJSON go as given, once checked against the type.
            switch (type, json) {
            case ("number", .integer), ("number", .double), ("currency", .integer), ("currency", .double),
                ("integer", .integer), ("boolean", .bool), ("user", .integer), ("lookup", .integer), (_, .array),
                (_, .object):
                return json
            case ("text", _), ("note", _), ("choice", _):
                return .string(json.encodedText)
            default:
                throw RowProblem(message: "\(json.encodedText) is not a value for a \(field.typeAsString) field")
            }
        case .text(let string): text = string
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .null }
        switch type {
        case "number", "currency":
            guard let number = Double(trimmed), number.isFinite else {
                throw RowProblem(message: "'\(text)' is not a number (digits, '.' for decimals)")
            }
            return number.rounded() == number && abs(number) < 1e15 ? .integer(Int64(number)) : .double(number)
        case "integer":
            guard let number = Int64(trimmed) else { throw RowProblem(message: "'\(text)' is not a whole number") }
            return .integer(number)
        case "boolean":
            switch trimmed.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw RowProblem(message: "'\(text)' is not true or false (also yes/no, 1/0)")
            }
        case "datetime":
            guard let date = ISODate.parse(trimmed) else {
                throw RowProblem(
                    message: "'\(text)' is not an ISO 8601 date (2026-03-01, 2026-03-01T09:30:00Z or with an "
                        + "offset such as +02:00)")
            }
            return .string(ISODate.utcText(date))
        case "lookup":
            guard let id = Int64(trimmed), id > 0 else {
                throw RowProblem(message: "'\(text)' is not an item id: a lookup takes the id of the item it names")
            }
            return .integer(id)
        case "user":
            if let id = Int64(trimmed), id > 0 { return .integer(id) }
            return .integer(Int64(try await personID(trimmed).get()))
        default:
            return .string(text)
        }
    }

    /// The site user id of a person named by e-mail or login name, resolved once a run.
    private func personID(_ name: String) async throws(SharePointError) -> Result<Int, RowProblem> {
        let key = name.lowercased()
        if lookingUpOnly { return try await siteUserID(name) }
        if let known = people[key] { return known }
        let result: Result<Int, RowProblem>
        do {
            result = .success(try await site.ensureUser(name).id)
        } catch  where [400, 404, 500].contains(error.status) {
            // The server's answer about this name (SharePoint: 500 "The specified user … could not be found.").
            result = .failure(
                RowProblem(message: "no user '\(name)' on the site (\(error.message ?? "HTTP \(error.status)"))"))
        }
        people[key] = result
        return result
    }

    /// A dry run's person: the id of the site user `name` names, else 0 and a note (the run would add them).
    private func siteUserID(_ name: String) async throws(SharePointError) -> Result<Int, RowProblem> {
        if siteUsers == nil { siteUsers = try await site.siteUsers() }
        if let user = siteUsers?.first(where: { $0.isNamed(name) }) { return .success(user.id) }
        notes.append("'\(name)' is no user of the site yet: the run adds them (ensureuser) if the directory knows them")
        return .success(0)
    }

    /// A positive item id from a cell.
    private static func itemID(_ value: BulkInput.Value) -> Int? {
        switch value {
        case .text(let text): return Int(text.trimmingCharacters(in: .whitespaces)).flatMap { $0 > 0 ? $0 : nil }
        case .json(let json): return json.intValue.flatMap { $0 > 0 ? $0 : nil }
        }
    }

    /// A value as a message quotes it.
    private static func shown(_ value: BulkInput.Value) -> String {
        switch value {
        case .text(let text): return "'\(text)'"
        case .json(let json): return json.encodedText
        }
    }
}

extension JSONValue {
    /// Compact JSON text of the value.
    fileprivate var encodedText: String { String(decoding: encoded(), as: UTF8.self) }
}

/// ISO 8601 dates as `--from` files give them: `2026-03-01` (midnight UTC), `2026-03-01T09:30`, with seconds and
/// fractions, and `Z` or an offset (`+02:00`, `+0200`); without one the time is UTC.
enum ISODate {
    static func parse(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[index..<index + digits] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < scalars.count, scalars[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2) else {
            return nil
        }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset = 0
        if index < scalars.count {
            guard expect("T") || expect(" "), let h = number(2), expect(":"), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(":") {
                guard let s = number(2) else { return nil }
                second = s
                if expect(".") || expect(",") {
                    let start = index
                    while index < scalars.count, (48...57).contains(scalars[index]) { index += 1 }
                    guard index > start else { return nil }
                    fraction = Double("0." + String(decoding: scalars[start..<index], as: UTF8.self)) ?? 0
                }
            }
            if expect("Z") || expect("z") {
            } else if index < scalars.count {
                let sign: Int
                if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
                guard let offsetHours = number(2) else { return nil }
                _ = expect(":")
                guard let offsetMinutes = number(2), offsetHours < 24, offsetMinutes < 60 else { return nil }
                offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
            }
            guard index == scalars.count else { return nil }
        }
        guard (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
        else { return nil }
        return date.addingTimeInterval(fraction - Double(offset))
    }

    /// `2026-03-01T07:30:00Z`: the form SharePoint takes and answers in.
    static func utcText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", parts.year ?? 0) + "-" + two(parts.month) + "-" + two(parts.day) + "T"
            + two(parts.hour) + ":" + two(parts.minute) + ":" + two(parts.second) + "Z"
    }
}
