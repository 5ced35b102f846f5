import Foundation

/// A JSON value with object members kept in the order they were written.
///
/// Integral numbers written without fraction or exponent that fit in `Int64` are ``integer(_:)``; every other
/// number is ``double(_:)``. Objects are arrays of members, so order and repeated names survive a round trip.
/// A value type: `Sendable` and safe to share between threads.
///
/// ```swift
/// let value = try JSONValue.parse(#"{"Title":"Docs","ItemCount":3}"#)
/// value["ItemCount"]?.intValue  // 3
/// value.serialized(options: .prettyPrinted)
/// ```
public enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in `Int64` (written without fraction or exponent).
    case integer(Int64)
    /// Any other number. Non-finite values (which JSON cannot express) are written as `null`.
    case double(Double)
    /// A string (escapes already decoded).
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; members in the order they were written. Repeated names are kept as written.
    case object([(String, JSONValue)])

    /// Values are equal when they have the same shape; an integer equals a double of the same value, and objects
    /// must have the same members in the same order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): return Double(a) == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Compact JSON text (the same bytes ``encoded()`` produces).
    public var description: String { serialized() }

    // MARK: Accessors

    /// The member named `key` of an object (the first one if the name repeats); `nil` for non-objects.
    ///
    /// Names are matched exactly, so `value["odata.nextLink"]` reads the single key that contains a dot.
    public subscript(key: String) -> JSONValue? {
        member(key)
    }

    /// The member named `name` of an object (the first one if the name repeats); `nil` for non-objects.
    public func member(_ name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// The element at `index` of an array; `nil` for non-arrays or out-of-range indexes.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number as `Int64`, accepting decimal *strings* (`"19817"`, as SharePoint writes Int64 values) as well
    /// as integral numbers.
    public var int64Value: Int64? {
        switch self {
        case .integer(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int64(d)
        case .string(let s): return Int64(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// The number as `Int` (see ``int64Value``; strings of digits are accepted).
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The number as `Double` (integers convert; numeric strings are accepted).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members in order, if this is an object.
    public var objectValue: [(String, JSONValue)]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// `true` for JSON `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    /// A ``string(_:)`` value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An ``integer(_:)`` value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A ``bool(_:)`` value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A ``double(_:)`` value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// ``null``.
    public init(nilLiteral: ()) { self = .null }
}
