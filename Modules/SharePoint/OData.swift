public import Foundation

/// OData and SharePoint escaping rules: string literals, URL components, and `_xHHHH_` internal names.
/// Pure functions; thread-safe.
public enum OData {
    // MARK: Literals

    /// Doubles every single quote, the OData rule for a string literal's content: `It's` → `It''s`.
    public static func escapeLiteral(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "''")
    }

    /// A quoted OData string literal: `It's` → `'It''s'` (not percent-encoded).
    public static func quoted(_ text: String) -> String {
        "'" + escapeLiteral(text) + "'"
    }

    // MARK: Percent-encoding

    private static let unreserved = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    private static let pathAllowed = unreserved.union("/()',=:$@".utf8)
    private static let queryAllowed = unreserved.union("()',:$@/*".utf8)

    private static func percentEncode(_ text: String, keeping allowed: Set<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-encodes text for a URL path: keeps letters, digits, `-._~` and `/()',=:$@`; encodes everything
    /// else as UTF-8 `%HH` (space `%20`, `#` `%23`, `%` `%25`, `&` `%26`, `?` `%3F`, `+` `%2B`, `é` `%C3%A9`).
    public static func percentEncodePath(_ text: String) -> String {
        percentEncode(text, keeping: pathAllowed)
    }

    /// Percent-encodes a query option's value: keeps letters, digits, `-._~` and `()',:$@/*`; encodes space as
    /// `%20` (never `+`), and `&`, `=`, `+`, `#`, `%` so they cannot end the value early.
    public static func percentEncodeQueryValue(_ text: String) -> String {
        percentEncode(text, keeping: queryAllowed)
    }

    /// A function argument for a URL path, e.g. inside `getbytitle(…)`: the quoted literal, percent-encoded:
    /// `Bob's #1 & 100%` → `'Bob''s%20%231%20%26%20100%25'`.
    public static func pathLiteral(_ text: String) -> String {
        percentEncodePath(quoted(text))
    }

    /// A server-relative URL (or file name) as the argument of `GetFileByServerRelativeUrl(…)`,
    /// `GetFolderByServerRelativeUrl(…)` or `Files/add(url=…)`. SharePoint decodes these literals once more after
    /// the HTTP layer has, so `%` and `#` are first written `%25` and `%23`, then the quoted literal is
    /// percent-encoded: `/Docs/50% #1.txt` → `'/Docs/50%2525%20%25231.txt'`. (The `…ServerRelativePath(decodedurl=…)`
    /// forms take ``pathLiteral(_:)`` as is.)
    public static func serverRelativeURLLiteral(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "%": escaped += "%25"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return pathLiteral(escaped)
    }

    /// A GUID literal: `guid'3de2e36d-678f-459c-837a-2db7c83afd8b'` (lower case).
    public static func guidLiteral(_ id: UUID) -> String {
        "guid'" + id.uuidString.lowercased() + "'"
    }

    // MARK: Internal names

    /// Encodes a name the way SharePoint builds internal field names and entity type names: ASCII letters and
    /// digits are kept; every other character becomes `_xHHHH_` with the UTF-16 code in lower-case hex
    /// (`My Field` → `My_x0020_Field`, `é` → `_x00e9_`, characters outside the BMP → `_xHHHHHHHH_`); a leading
    /// digit is encoded too (`1st` → `_x0031_st`). `_` is kept unless `encodeUnderscore` is `true` (entity
    /// type names: `DO_NOT` → `DO_x005f_NOT`); an `_` that would read as the start of an escape is always encoded.
    public static func encodeName(_ name: String, encodeUnderscore: Bool = false) -> String {
        var out = ""
        let scalars = Array(name.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let v = scalar.value
            let isLetter = (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
            let isDigit = v >= 0x30 && v <= 0x39
            if isLetter || (isDigit && index > 0) {
                out.unicodeScalars.append(scalar)
            } else if v == 0x5F && !encodeUnderscore && !looksLikeEscape(scalars, at: index) {
                out += "_"
            } else if v > 0xFFFF {
                out += "_x" + hex(v, width: 8) + "_"
            } else {
                out += "_x" + hex(v, width: 4) + "_"
            }
        }
        return out
    }

    /// Decodes `_xHHHH_` and `_xHHHHHHHH_` escapes: `My_x0020_Field` → `My Field`, `DO_x005f_NOT` → `DO_NOT`.
    /// Anything that is not a well-formed escape is left as it is.
    public static func decodeName(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if let (scalar, length) = escape(in: scalars, at: i) {
                out.append(scalar)
                i += length
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }

    /// The internal name SharePoint gives a *new* field with this display name: ``encodeName(_:encodeUnderscore:)``
    /// cut to 32 characters without splitting an escape. Existing fields may differ (renamed fields keep their
    /// first name): read ``Field/internalName`` rather than guessing.
    public static func internalName(forNewField displayName: String) -> String {
        let full = encodeName(displayName)
        guard full.count > 32 else { return full }
        var result = ""
        var i = full.startIndex
        while i < full.endIndex {
            var piece = String(full[i])
            if full[i] == "_", let (_, length) = escape(in: Array(full[i...].unicodeScalars), at: 0) {
                piece = String(full[i..<full.index(i, offsetBy: length)])
            }
            if result.count + piece.count > 32 { break }
            result += piece
            i = full.index(i, offsetBy: piece.count)
        }
        return result
    }

    /// The JSON property name of a field in item payloads: internal names starting with `_` gain an `OData_`
    /// prefix (`_UIVersionString` → `OData__UIVersionString`); others are unchanged.
    public static func jsonPropertyName(forInternalName internalName: String) -> String {
        internalName.hasPrefix("_") ? "OData_" + internalName : internalName
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Whether the `_` at `index` would start a well-formed escape in the *encoded* text: `_x`, 4 or 8 ASCII hex
    /// digits, then an `_` or a character the encoding turns into an escape (which starts with `_`), as in
    /// `_x0041` + `é` → `_x0041_x00e9_`.
    private static func looksLikeEscape(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        func isASCIIHexDigit(_ scalar: Unicode.Scalar) -> Bool {
            ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
        }
        for width in [4, 8] {
            let end = index + 2 + width
            guard end < scalars.count, scalars[index + 1] == "x",
                scalars[(index + 2)..<end].allSatisfy(isASCIIHexDigit)
            else { continue }
            let next = scalars[end].value
            let nextIsKept =
                (next >= 0x41 && next <= 0x5A) || (next >= 0x61 && next <= 0x7A) || (next >= 0x30 && next <= 0x39)
            let digits = String(String.UnicodeScalarView(scalars[(index + 2)..<end]))
            if !nextIsKept, let value = UInt32(digits, radix: 16), Unicode.Scalar(value) != nil { return true }
        }
        return false
    }

    /// A well-formed escape at `index`: its scalar and its length in scalars.
    private static func escape(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        guard index + 2 < scalars.count, scalars[index] == "_", scalars[index + 1] == "x" else { return nil }
        for width in [4, 8] {
            let end = index + 2 + width
            guard end < scalars.count, scalars[end] == "_" else { continue }
            let digits = String(String.UnicodeScalarView(scalars[(index + 2)..<end]))
            guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16),
                let scalar = Unicode.Scalar(value)
            else { continue }
            return (scalar, width + 3)
        }
        return nil
    }
}

/// A typed OData literal for `$filter` expressions.
public enum ODataLiteral: Sendable, Equatable, CustomStringConvertible {
    /// `'text'` with quotes doubled.
    case string(String)
    /// A decimal integer.
    case integer(Int64)
    /// `true` / `false`.
    case bool(Bool)
    /// `datetime'2024-01-01T00:00:00Z'` (UTC, whole seconds).
    case date(Date)
    /// `guid'…'`.
    case guid(UUID)
    /// `null`.
    case null

    /// The literal as it appears in a `$filter` (before percent-encoding).
    public var description: String {
        switch self {
        case .string(let s): return OData.quoted(s)
        case .integer(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return "datetime'" + ODataLiteral.iso8601(d) + "'"
        case .guid(let g): return OData.guidLiteral(g)
        case .null: return "null"
        }
    }

    static func iso8601(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ v: Int?, _ width: Int = 2) -> String {
            let s = String(v ?? 0)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))Z"
    }
}

/// A `$filter` expression, built from typed comparisons so that literals are always escaped.
///
/// `ODataFilter.eq("Title", .string("It's")) && .gt("Id", .integer(5))` → `(Title eq 'It''s') and (Id gt 5)`.
public struct ODataFilter: Sendable, Equatable, CustomStringConvertible {
    /// The expression text (not percent-encoded).
    public var expression: String

    /// Wraps an expression written by hand. Escape literals with ``OData/quoted(_:)``.
    public init(_ expression: String) { self.expression = expression }

    public var description: String { expression }

    private static func compare(_ field: String, _ op: String, _ value: ODataLiteral) -> ODataFilter {
        ODataFilter("\(field) \(op) \(value)")
    }

    /// `field eq value`.
    public static func eq(_ field: String, _ value: ODataLiteral) -> ODataFilter { compare(field, "eq", value) }
    /// `field ne value`.
    public static func ne(_ field: String, _ value: ODataLiteral) -> ODataFilter { compare(field, "ne", value) }
    /// `field lt value`.
    public static func lt(_ field: String, _ value: ODataLiteral) -> ODataFilter { compare(field, "lt", value) }
    /// `field le value`.
    public static func le(_ field: String, _ value: ODataLiteral) -> ODataFilter { compare(field, "le", value) }
    /// `field gt value`.
    public static func gt(_ field: String, _ value: ODataLiteral) -> ODataFilter { compare(field, "gt", value) }
    /// `field ge value`.
    public static func ge(_ field: String, _ value: ODataLiteral) -> ODataFilter { compare(field, "ge", value) }
    /// `startswith(field,'prefix')`.
    public static func startsWith(_ field: String, _ prefix: String) -> ODataFilter {
        ODataFilter("startswith(\(field),\(OData.quoted(prefix)))")
    }
    /// `substringof('text',field)` (SharePoint's "contains").
    public static func substringOf(_ text: String, _ field: String) -> ODataFilter {
        ODataFilter("substringof(\(OData.quoted(text)),\(field))")
    }
    /// `(lhs) and (rhs)`.
    public static func && (lhs: ODataFilter, rhs: ODataFilter) -> ODataFilter {
        ODataFilter("(\(lhs.expression)) and (\(rhs.expression))")
    }
    /// `(lhs) or (rhs)`.
    public static func || (lhs: ODataFilter, rhs: ODataFilter) -> ODataFilter {
        ODataFilter("(\(lhs.expression)) or (\(rhs.expression))")
    }
}

/// OData query options for a REST request, rendered as a percent-encoded query string.
///
/// Options are emitted in the order `$select`, `$filter`, `$orderby`, `$top`, `$expand`, `$skiptoken`, and only
/// when set. Option names keep their literal `$`. Note: `$skip` is ignored by SharePoint for list items (page
/// with ``skipToken`` or the server's next link instead), so it is not offered.
public struct ODataQuery: Sendable, Equatable {
    /// A sort key for `$orderby`.
    public struct Order: Sendable, Equatable {
        /// Field internal name (or `Lookup/Field`).
        public var field: String
        /// `true` for `desc`.
        public var descending: Bool
        /// Creates a sort key.
        public init(_ field: String, descending: Bool = false) {
            self.field = field
            self.descending = descending
        }
    }

    /// `$select` fields (`Id`, `Title`, `Author/Title`).
    public var select: [String]
    /// `$filter` expression.
    public var filter: ODataFilter?
    /// `$orderby` keys.
    public var orderBy: [Order]
    /// `$top` (items: at most 5000).
    public var top: Int?
    /// `$expand` navigation properties (`Author`, `FieldValuesAsText`).
    public var expand: [String]
    /// `$skiptoken` content, unencoded, e.g. `Paged=TRUE&p_ID=2` (see ``pagedSkipToken(afterID:)``).
    public var skipToken: String?

    /// Creates query options; all empty by default.
    public init(
        select: [String] = [], filter: ODataFilter? = nil, orderBy: [Order] = [], top: Int? = nil,
        expand: [String] = [], skipToken: String? = nil
    ) {
        self.select = select
        self.filter = filter
        self.orderBy = orderBy
        self.top = top
        self.expand = expand
        self.skipToken = skipToken
    }

    /// The skip token for the page after item `id` when paging by ID: `Paged=TRUE&p_ID=<id>`.
    public static func pagedSkipToken(afterID id: Int) -> String { "Paged=TRUE&p_ID=\(id)" }

    /// The options as unencoded name/value pairs, in emission order.
    public var options: [(String, String)] {
        var pairs: [(String, String)] = []
        if !select.isEmpty { pairs.append(("$select", select.joined(separator: ","))) }
        if let filter { pairs.append(("$filter", filter.expression)) }
        if !orderBy.isEmpty {
            pairs.append(
                ("$orderby", orderBy.map { $0.descending ? "\($0.field) desc" : $0.field }.joined(separator: ",")))
        }
        if let top { pairs.append(("$top", String(top))) }
        if !expand.isEmpty { pairs.append(("$expand", expand.joined(separator: ","))) }
        if let skipToken { pairs.append(("$skiptoken", skipToken)) }
        return pairs
    }

    /// The percent-encoded query string without the leading `?`, e.g.
    /// `$select=Id,Title&$filter=Title%20eq%20'It''s'&$top=2`; empty when no option is set.
    public var queryString: String {
        options.map { "\($0.0)=\(OData.percentEncodeQueryValue($0.1))" }.joined(separator: "&")
    }

    /// `true` when no option is set.
    public var isEmpty: Bool { options.isEmpty }
}
