/// The few CBOR items (RFC 8949) a WebAuthn authenticator writes: integers, byte and text strings, and maps whose
/// entries are written in the order given (the caller gives them in CTAP2's canonical order). Encoding only.
enum CBOR {
    /// One item.
    indirect enum Item {
        case unsigned(UInt64)
        /// A negative integer `value` (less than zero).
        case negative(Int64)
        case bytes([UInt8])
        case text(String)
        case map([(Item, Item)])

        /// An integer of either sign.
        static func integer(_ value: Int64) -> Item { value < 0 ? .negative(value) : .unsigned(UInt64(value)) }
    }

    /// The encoding of `item`.
    static func encode(_ item: Item) -> [UInt8] {
        var out: [UInt8] = []
        write(item, into: &out)
        return out
    }

    private static func write(_ item: Item, into out: inout [UInt8]) {
        switch item {
        case .unsigned(let value): head(major: 0, value, into: &out)
        case .negative(let value): head(major: 1, UInt64(-1 - value), into: &out)
        case .bytes(let bytes):
            head(major: 2, UInt64(bytes.count), into: &out)
            out += bytes
        case .text(let text):
            head(major: 3, UInt64(text.utf8.count), into: &out)
            out += Array(text.utf8)
        case .map(let entries):
            head(major: 5, UInt64(entries.count), into: &out)
            for (key, value) in entries {
                write(key, into: &out)
                write(value, into: &out)
            }
        }
    }

    /// The major type and argument, in the shortest form (RFC 8949 §3, preferred serialization).
    private static func head(major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: out.append(type | UInt8(value))
        case 24...0xff: out += [type | 24, UInt8(value)]
        case 0x100...0xffff: out += [type | 25] + bigEndian(value, bytes: 2)
        case 0x1_0000...0xffff_ffff: out += [type | 26] + bigEndian(value, bytes: 4)
        default: out += [type | 27] + bigEndian(value, bytes: 8)
        }
    }

    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
