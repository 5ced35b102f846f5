public import Foundation
public import JSON

/// One value in a ``Record``.
public enum Cell: Sendable, Equatable {
    /// Text.
    case string(String)
    /// An integer (right-aligned in tables).
    case int(Int)
    /// A floating-point number (right-aligned in tables); non-finite values render as `null` in JSON.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A point in time, always rendered in UTC (ISO 8601).
    case date(Date)
    /// No value: empty in tables and CSV, `null` in JSON.
    case null
    /// A nested JSON value (lookup values, taxonomy fields, raw OData; members keep their order): compact JSON
    /// text in tables and CSV, nested in JSON output.
    case json(JSONValue)

    /// Whether the cell holds a number.
    public var isNumeric: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }
}

extension Cell: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// A ``Cell/string(_:)`` cell.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An ``Cell/int(_:)`` cell.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A ``Cell/double(_:)`` cell.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A ``Cell/bool(_:)`` cell.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// The ``Cell/null`` cell.
    public init(nilLiteral: ()) { self = .null }
}

/// A named value in a ``Record``.
public struct Field: Sendable, Equatable {
    /// The field's name (the JSON key, the default column title).
    public var name: String
    /// The field's value.
    public var value: Cell

    /// Creates a field.
    public init(_ name: String, _ value: Cell) {
        self.name = name
        self.value = value
    }
}

/// One row of output: fields in the order they were given. The generic view model every renderer takes;
/// apps map domain values (lists, items, files, sessions) onto it.
public struct Record: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The fields, in order. Names should be unique; JSON output would repeat a duplicated key.
    public var fields: [Field]

    /// Creates a record from fields.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Creates a record from a literal, keeping the literal's order: `["Title": "Docs", "Items": 3]`.
    public init(dictionaryLiteral elements: (String, Cell)...) {
        fields = elements.map { Field($0.0, $0.1) }
    }

    /// The value of the first field called `name`, or `nil` when there is none.
    public subscript(name: String) -> Cell? {
        fields.first { $0.name == name }?.value
    }
}

/// How a column's text is placed in its cell.
public enum ColumnAlignment: Sendable, Equatable {
    /// Flush left (text).
    case left
    /// Flush right (numbers).
    case right
}

/// One column of a ``RecordSet``: which field it shows, under which title, and how.
public struct Column: Sendable, Equatable {
    /// The name of the field shown (``Field/name``).
    public var field: String
    /// The header text; defaults to the field name.
    public var title: String
    /// The alignment, or `nil` to decide from the values: right when every non-null value is a number.
    public var alignment: ColumnAlignment?
    /// A width limit for this column in tables, overriding ``TableOptions/maxColumnWidth``.
    public var maxWidth: Int?

    /// Creates a column.
    public init(_ field: String, title: String? = nil, alignment: ColumnAlignment? = nil, maxWidth: Int? = nil) {
        self.field = field
        self.title = title ?? field
        self.alignment = alignment
        self.maxWidth = maxWidth
    }
}

/// Records with a description of their columns.
public struct RecordSet: Sendable, Equatable {
    /// The columns, in display order. Renderers show these fields only, in this order.
    public var columns: [Column]
    /// The records.
    public var records: [Record]

    /// Creates a record set with explicit columns.
    public init(columns: [Column], records: [Record]) {
        self.columns = columns
        self.records = records
    }

    /// Creates a record set whose columns are every field name, in order of first appearance.
    public init(records: [Record]) {
        self.init(columns: RecordSet.inferColumns(records), records: records)
    }

    /// Every field name in `records`, in order of first appearance, as columns.
    public static func inferColumns(_ records: [Record]) -> [Column] {
        var seen = Set<String>()
        var columns: [Column] = []
        for record in records {
            for field in record.fields where seen.insert(field.name).inserted {
                columns.append(Column(field.name))
            }
        }
        return columns
    }

    /// The records reduced to the columns' fields, in column order, with `null` for a missing field.
    /// JSON keys use the field name, not the column title.
    public func projected() -> [Record] {
        records.map { project($0, onto: columns) }
    }
}

/// `record` reduced to `columns`, in column order, `null` where the field is missing.
func project(_ record: Record, onto columns: [Column]) -> Record {
    Record(columns.map { Field($0.field, record[$0.field] ?? .null) })
}
