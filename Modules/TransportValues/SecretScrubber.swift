import Foundation

/// Removes known secret values from text by value: for text that came from a server (error messages, pages,
/// trace details), which may echo a password, a one-time code or a cookie back in any field, under any name.
///
/// Each secret is matched as typed and in the encodings a page or message may carry it in: form/percent
/// encoding, HTML character references and JSON string escapes. Values shorter than the minimum length
/// (``minimumLength`` unless given) are not matched: a two-letter value would blank every word that contains it.
/// A value type; cheap to copy.
public struct SecretScrubber: Sendable, Equatable {
    /// What a removed value is replaced with.
    public static let marker = "<redacted>"
    /// Shorter values are ignored (unless another minimum is given).
    public static let minimumLength = 3
    /// The minimum for cookie values: session cookies and tokens are long, while short values (`lang=en`,
    /// `test=true`) are not secrets and would blank ordinary words.
    public static let cookieMinimumLength = 8

    /// The spellings to remove, longest first (so a longer secret containing a shorter one goes whole).
    public private(set) var spellings: [String] = []

    /// A scrubber for `values` (secrets as typed; those shorter than `minimumLength` are ignored).
    public init(_ values: [String] = [], minimumLength: Int = SecretScrubber.minimumLength) {
        add(values, minimumLength: minimumLength)
    }

    /// A scrubber for the revealed values of `secrets`.
    public init(secrets: [Secret]) {
        self.init(secrets.map { $0.revealedValue() })
    }

    /// Whether there is anything to remove.
    public var isEmpty: Bool { spellings.isEmpty }

    /// Also removes `values` (those shorter than `minimumLength` are ignored).
    public mutating func add(_ values: [String], minimumLength: Int = SecretScrubber.minimumLength) {
        var all = Set(spellings)
        for value in values where value.count >= max(minimumLength, Self.minimumLength) {
            all.formUnion(Self.encodings(of: value).filter { $0.count >= Self.minimumLength })
        }
        spellings = all.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
    }

    /// `text` with every spelling of every secret replaced by ``marker``.
    public func scrub(_ text: String) -> String {
        guard !spellings.isEmpty, !text.isEmpty else { return text }
        var result = text
        for spelling in spellings where result.contains(spelling) {
            result = result.replacingOccurrences(of: spelling, with: Self.marker)
        }
        return result
    }

    /// The forms a value takes in a form body or URL, in HTML, and in a JSON string.
    static func encodings(of value: String) -> Set<String> {
        var forms: Set<String> = [value]
        // Percent-encoded as a form or a query carries it: every byte of its UTF-8 but RFC 3986's unreserved ones.
        // (Worked out on bytes: Foundation's character sets and encoder load large Unicode tables into every
        // sign-in's memory.)
        let encoded = value.percentEncodedBytes()
        forms.insert(encoded)
        forms.insert(encoded.replacingOccurrences(of: "%20", with: "+"))
        forms.insert(encoded.lowercasedPercentEscapes())
        var html = ""
        var numeric = ""
        var json = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": html += "&amp;"
            case "<": html += "&lt;"
            case ">": html += "&gt;"
            case "\"": html += "&quot;"
            case "'": html += "&#39;"
            default: html.unicodeScalars.append(scalar)
            }
            let isSpecial = "&<>\"'".unicodeScalars.contains(scalar)
            numeric += isSpecial ? "&#\(scalar.value);" : String(scalar)
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "/": json += "\\/"
            case "<", ">", "&", "'": json += "\\u" + scalar.fourHexDigits
            default:
                if scalar.value < 0x20 {
                    json += "\\u" + scalar.fourHexDigits
                } else {
                    json.unicodeScalars.append(scalar)
                }
            }
        }
        forms.formUnion([html, numeric, json, json.uppercasedUnicodeEscapes()])
        return forms
    }
}

extension Unicode.Scalar {
    /// The scalar's value as four lowercase hex digits (`003c`), as JSON writes `\u003c`.
    fileprivate var fourHexDigits: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension String {
    /// Every UTF-8 byte but the unreserved ones (letters, digits, `-._~` of ASCII) as `%XX`, upper case.
    fileprivate func percentEncodedBytes() -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `%2F` → `%2f`: some servers write percent escapes in lowercase.
    fileprivate func lowercasedPercentEscapes() -> String {
        var result = ""
        var pending = 0
        for character in self {
            if character == "%" {
                pending = 2
                result.append(character)
            } else if pending > 0 {
                pending -= 1
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `\u003c` → `\u003C`.
    fileprivate func uppercasedUnicodeEscapes() -> String {
        guard contains("\\u") else { return self }
        var result = ""
        var pending = 0
        var previous: Character = " "
        for character in self {
            if previous == "\\" && character == "u" {
                pending = 4
                result.append(character)
            } else if pending > 0 {
                pending -= 1
                result += character.uppercased()
            } else {
                result.append(character)
            }
            previous = character
        }
        return result
    }
}
