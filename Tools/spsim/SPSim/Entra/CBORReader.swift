/// One decoded CBOR data item (RFC 8949), as much of CBOR as WebAuthn's attestation objects and COSE keys use:
/// integers, byte and text strings, arrays, maps, `false`/`true`/`null`/`undefined`; tags are read through (their
/// content stands for them). Definite lengths only (CTAP2's canonical CBOR has no other).
indirect enum CBORItem: Equatable {
    /// Major types 0 and 1, within Int64 (`-1 - n` for a negative).
    case integer(Int64)
    case bytes([UInt8])
    case text(String)
    case array([CBORItem])
    /// Members in the order they came.
    case map([(CBORItem, CBORItem)])
    case bool(Bool)
    case null

    static func == (left: CBORItem, right: CBORItem) -> Bool {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The member of a map under `key`.
    subscript(key: CBORItem) -> CBORItem? {
        guard case .map(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The member of a map under the text key `key`.
    subscript(key: String) -> CBORItem? { self[.text(key)] }

    /// The member of a map under the integer key `key` (COSE's labels).
    subscript(key: Int64) -> CBORItem? { self[.integer(key)] }

    var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var mapMembers: [(CBORItem, CBORItem)]? {
        if case .map(let value) = self { return value }
        return nil
    }
}

/// Reads CBOR from bytes: one item and how many bytes it took (the COSE key inside authenticator data is followed by
/// extensions, so its end must be known). Nil for anything malformed, indefinite, nested deeper than 16 levels or
/// outside the types above.
struct CBORReader {
    private let bytes: [UInt8]
    private var position: Int

    private init(_ bytes: [UInt8], from start: Int) {
        self.bytes = bytes
        position = start
    }

    /// The item starting at `start`, and the index just past it.
    static func item(in bytes: [UInt8], at start: Int = 0) -> (item: CBORItem, end: Int)? {
        var reader = CBORReader(bytes, from: start)
        guard let item = reader.next(depth: 0) else { return nil }
        return (item, reader.position)
    }

    /// The item that is all of `bytes` (nothing may follow it).
    static func whole(_ bytes: [UInt8]) -> CBORItem? {
        guard let (item, end) = item(in: bytes), end == bytes.count else { return nil }
        return item
    }

    private mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - position else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }

    /// The argument of a head whose additional information is `info` (0–27; 28–31 are refused).
    private mutating func argument(_ info: UInt8) -> UInt64? {
        switch info {
        case 0...23: return UInt64(info)
        case 24...27:
            guard let field = take(1 << Int(info - 24)) else { return nil }
            return field.reduce(0) { $0 << 8 | UInt64($1) }
        default: return nil
        }
    }

    private mutating func next(depth: Int) -> CBORItem? {
        guard depth < 16, let head = take(1)?.first else { return nil }
        let major = head >> 5
        let info = head & 0x1f
        guard let value = argument(info) else { return nil }
        switch major {
        case 0:
            guard value <= UInt64(Int64.max) else { return nil }
            return .integer(Int64(value))
        case 1:
            guard value <= UInt64(Int64.max) else { return nil }
            return .integer(-1 - Int64(value))
        case 2:
            guard value <= UInt64(bytes.count), let field = take(Int(value)) else { return nil }
            return .bytes(Array(field))
        case 3:
            guard value <= UInt64(bytes.count), let field = take(Int(value)) else { return nil }
            guard let text = String(validating: field, as: UTF8.self) else { return nil }
            return .text(text)
        case 4:
            guard value <= UInt64(bytes.count) else { return nil }
            var elements: [CBORItem] = []
            for _ in 0..<Int(value) {
                guard let element = next(depth: depth + 1) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case 5:
            guard value <= UInt64(bytes.count) else { return nil }
            var members: [(CBORItem, CBORItem)] = []
            for _ in 0..<Int(value) {
                guard let key = next(depth: depth + 1), let member = next(depth: depth + 1) else { return nil }
                members.append((key, member))
            }
            return .map(members)
        case 6:
            return next(depth: depth + 1)
        default:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22, 23: return .null
            default: return nil
            }
        }
    }
}
