import Foundation

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

/// Text of the first element whose local name matches (prefix-agnostic), XML-unescaped.
func xmlElementText(_ xml: String, _ localName: String) -> String? {
    let pattern = "<(?:[A-Za-z0-9_]+:)?\(localName)(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[A-Za-z0-9_]+:)?\(localName)>"
    guard let regex = try? NSRegularExpression(pattern: pattern),
        let match = regex.firstMatch(in: xml, range: NSRange(xml.startIndex..., in: xml)),
        let range = Range(match.range(at: 1), in: xml)
    else { return nil }
    return xmlUnescape(String(xml[range]))
}

extension String {
    /// `%2F` → `%2f`, as SharePoint writes its ReturnUrl values.
    func lowercasedEscapes() -> String {
        var out = ""
        var pending = 0
        for character in self {
            if character == "%" {
                pending = 2
                out.append(character)
            } else if pending > 0 {
                out += character.lowercased()
                pending -= 1
            } else {
                out.append(character)
            }
        }
        return out
    }
}
