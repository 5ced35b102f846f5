import Foundation

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

// MARK: - Dates (UTC, no locale)
