import Foundation

// MARK: - Ordered JSON

/// A JSON value that keeps object keys in insertion order (SharePoint's answers have a stable order,
/// and keys such as `odata.nextLink` must stay single keys).
enum JSON: Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case object([(String, JSON)])
    case array([JSON])

    /// Serialises compactly, the way SharePoint does (no spaces). `scriptSafe` escapes `<>&'` as
    /// `\u00XX`, as Entra does inside `$Config`.
    func serialized(scriptSafe: Bool = false) -> String {
        String(decoding: serializedBytes(scriptSafe: scriptSafe), as: UTF8.self)
    }

    /// ``serialized(scriptSafe:)`` as UTF-8 bytes, for response bodies (a 5,000-item verbose page is 13 MB).
    func serializedBytes(scriptSafe: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, scriptSafe: scriptSafe)
        return out
    }

    func write(to out: inout [UInt8], scriptSafe: Bool = false) {
        switch self {
        case .string(let text): JSON.writeString(text, to: &out, scriptSafe: scriptSafe)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .double(let number):
            if number == number.rounded(), abs(number) < 1e15 {
                out.append(contentsOf: String(Int(number)).utf8)
            } else {
                out.append(contentsOf: String(number).utf8)
            }
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(member.0, to: &out, scriptSafe: scriptSafe)
                out.append(UInt8(ascii: ":"))
                member.1.write(to: &out, scriptSafe: scriptSafe)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out, scriptSafe: scriptSafe)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    static func writeString(_ text: String, to out: inout [UInt8], scriptSafe: Bool) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied whole; UTF-8 of other characters stays as it is.
            var runStart = 0
            for index in bytes.indices where needsEscape(bytes[index], scriptSafe: scriptSafe) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(of: bytes[index], to: &out)
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8, scriptSafe: Bool) -> Bool {
        switch byte {
        case ..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"): true
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "'"): scriptSafe
        default: false
        }
    }

    private static func appendEscape(of byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
        case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
        default:
            // Control characters, and `<>&'` in script-safe output.
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
    }

    /// Member lookup on objects.
    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }
}

/// Parses a JSON request body (for item and list creation) into ordered members, via Foundation.
func parseJSONObject(_ bytes: [UInt8]) -> [String: Any]? {
    guard !bytes.isEmpty,
        let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    else { return nil }
    return object as? [String: Any]
}

// MARK: - Deterministic randomness

/// SplitMix64: small, fast and deterministic across platforms.
struct SeededRandom: Sendable {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
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

// MARK: - Escaping

/// Escapes text for HTML element content and double-quoted attributes.
func htmlEscape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(character)
        }
    }
    return out
}

/// XML escaping (same five entities).
func xmlEscape(_ text: String) -> String {
    htmlEscape(text).replacingOccurrences(of: "&#39;", with: "&apos;")
}

/// Reverses the five predefined XML entities and numeric references.
func xmlUnescape(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    var index = text.startIndex
    while index < text.endIndex {
        if text[index] == "&", let semicolon = text[index...].firstIndex(of: ";"),
            text.distance(from: index, to: semicolon) <= 10
        {
            let entity = String(text[text.index(after: index)..<semicolon])
            var replacement: String?
            switch entity {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                if entity.hasPrefix("#x"), let value = UInt32(entity.dropFirst(2), radix: 16),
                    let scalar = Unicode.Scalar(value)
                {
                    replacement = String(Character(scalar))
                } else if entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()),
                    let scalar = Unicode.Scalar(value)
                {
                    replacement = String(Character(scalar))
                }
            }
            if let replacement {
                out += replacement
                index = text.index(after: semicolon)
                continue
            }
        }
        out.append(text[index])
        index = text.index(after: index)
    }
    return out
}

/// Percent-encodes everything except RFC 3986 unreserved characters (for query values).
func percentEncode(_ text: String, keep: String = "") -> String {
    var out = ""
    for byte in text.utf8 {
        let scalar = Unicode.Scalar(byte)
        let isUnreserved =
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        if isUnreserved || keep.unicodeScalars.contains(scalar) {
            out.unicodeScalars.append(scalar)
        } else {
            out += String(format: "%%%02X", byte)
        }
    }
    return out
}

/// Percent-encodes a path: keeps `/` and the characters SharePoint leaves alone in its links.
func percentEncodePath(_ text: String) -> String { percentEncode(text, keep: "/()'=,:$!*") }

/// Encodes a string for an OData literal inside `'…'`: doubles single quotes.
func odataQuote(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "''") }

// MARK: - Dates (UTC, no locale)

/// A UTC civil time computed from Unix seconds (no Foundation formatters: deterministic and thread-safe).
struct CivilTime {
    let year: Int
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    let second: Int
    let weekday: Int  // 0 = Sunday

    init(_ epochSeconds: Int) {
        let days = Int((Double(epochSeconds) / 86400).rounded(.down))
        let secondsOfDay = epochSeconds - days * 86400
        hour = secondsOfDay / 3600
        minute = (secondsOfDay % 3600) / 60
        second = secondsOfDay % 60
        weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    static func epoch(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86400 + hour * 3600 + minute * 60 + second
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `2024-03-29T17:57:55Z`
    var iso: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":"
            + pad(second, 2) + "Z"
    }
    /// `05 Mar 2026 10:15:00 -0000` (form digest suffix)
    var digest: String {
        String(
            format: "%02d %@ %04d %02d:%02d:%02d -0000", day, CivilTime.monthNames[month - 1], year, hour, minute,
            second)
    }
    /// `Sun, 29 Nov 2026 12:00:00 GMT` (cookie Expires)
    var http: String {
        String(
            format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", CivilTime.dayNames[weekday], day,
            CivilTime.monthNames[month - 1], year, hour, minute, second)
    }
    /// `10/12/2022 1:07 AM` (FieldValuesAsText in en-US)
    var display: String {
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        return String(format: "%d/%d/%04d %d:%02d %@", month, day, year, hour12, minute, hour < 12 ? "AM" : "PM")
    }

    /// Parses `2024-01-01`, `2024-01-01T10:00:00Z`, `2024-01-01T10:00:00.123` (zone-less = UTC).
    static func parse(_ text: String) -> Int? {
        let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count >= 3 else { return nil }
        return epoch(
            year: digits[0], month: digits[1], day: digits[2], hour: digits.count > 3 ? digits[3] : 0,
            minute: digits.count > 4 ? digits[4] : 0, second: digits.count > 5 ? digits[5] : 0)
    }
}

func nowEpoch() -> Int { Int(Date().timeIntervalSince1970) }

/// A lock around a value (handlers run on one thread per connection).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
