/// HTTP header fields in order, several per name allowed, names compared case-insensitively.
///
/// A plain value: safe to share across threads.
/// `description` and mirrors redact `Cookie`, `Set-Cookie`, `Authorization` and `Proxy-Authorization` values.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The fields in order, names as given.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates headers from ordered pairs.
    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Creates headers from a literal such as `["Accept": "application/json"]` (order kept, repeats allowed).
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value for `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        let wanted = name.lowercased()
        fields.removeAll { $0.name.lowercased() == wanted }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// `Name: value` lines, secrets redacted.
    public var description: String { redacted.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
    /// Same as `description`.
    public var debugDescription: String { "HTTPHeaders(\(redacted.map { "\($0.name): \($0.value)" }))" }
    /// Shows the redacted fields to `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(self, children: redacted.map { (label: $0.name as String?, value: $0.value as Any) })
    }

    private var redacted: [(name: String, value: String)] {
        fields.map { TraceRedaction.header(name: $0.name, value: $0.value) }
    }
}
