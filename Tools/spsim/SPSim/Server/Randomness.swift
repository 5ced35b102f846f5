import Foundation

/// SplitMix64: small, fast and deterministic across platforms (the simulator's content, the soak's chance).
public struct SeededRandom: Sendable {
    var state: UInt64
    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is not positive).
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}

/// FNV-1a 64-bit hash, used to derive stable values from labels.
func fnv1a(_ text: String, seed: UInt64 = 0xCBF2_9CE4_8422_2325) -> UInt64 {
    var hash = seed
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01B3
    }
    return hash
}

/// Mixes a seed and a label into one well-distributed 64-bit value.
func mix(_ seed: UInt64, _ label: String) -> UInt64 {
    var random = SeededRandom(seed: seed ^ fnv1a(label))
    return random.next()
}

/// A lower-case GUID derived from the seed and a label (stable across runs).
func stableGUID(_ seed: UInt64, _ label: String) -> String {
    guidText(mix(seed, label + "#1"), mix(seed, label + "#2"))
}

/// A GUID-shaped string from two 64-bit values (version 4 / variant bits set so it looks real).
func guidText(_ high: UInt64, _ low: UInt64) -> String {
    let digits = Array((hex16(high) + hex16(low)).utf8)
    var text: [UInt8] = []
    text.reserveCapacity(36)
    text += digits[0..<8] + [UInt8(ascii: "-")] + digits[8..<12] + Array("-4".utf8) + digits[13..<16]
    text += [UInt8(ascii: "-"), Array("89ab".utf8)[Int(low % 4)]] + digits[17..<20]
    text += [UInt8(ascii: "-")] + digits[20..<32]
    return String(decoding: text, as: UTF8.self)
}

/// Integer-only mixing for hot paths (generated rows).
func mix(_ seed: UInt64, _ number: Int, _ salt: UInt64) -> UInt64 {
    var random = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15) ^ salt)
    return random.next()
}

/// 16 lower-case hex digits, zero-padded.
func hex16(_ value: UInt64) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var bytes = [UInt8](repeating: 0, count: 16)
    var rest = value
    for index in stride(from: 15, through: 0, by: -1) {
        bytes[index] = digits[Int(rest & 0xF)]
        rest >>= 4
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Zero-padded decimal.
func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    let length = text.utf8.count
    return length >= width ? text : String(repeating: "0", count: width - length) + text
}

/// Process-wide unpredictable tokens (flow tokens, codes, cookie values).
enum Tokens {
    static func random(bytes count: Int = 24) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return base64URL(bytes)
    }

    static func hex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in String(format: "%02X", UInt8.random(in: 0...255, using: &generator)) }
            .joined()
    }

    static func guid() -> String { UUID().uuidString.lowercased() }
}

func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

func base64URL(_ bytes: [UInt8]) -> String {
    base64(bytes).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}
