/// Serialisers for form data sets (WHATWG HTML "form submission algorithm"). All text is sent as UTF-8.
public enum FormEncoding {
    /// The application/x-www-form-urlencoded serializer: UTF-8, space as `+`, everything but ASCII
    /// alphanumerics and `*-._` percent-encoded; pairs joined with `&`.
    public static func urlencoded(_ entries: [FormEntry]) -> String {
        entries.map { percentEncode(normalizeNewlines($0.name)) + "=" + percentEncode(normalizeNewlines($0.value)) }
            .joined(separator: "&")
    }

    /// Percent-encodes one name or value with the application/x-www-form-urlencoded percent-encode set.
    public static func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                result += URLResolver.percentByte(byte)
            }
        }
        return result
    }

    /// The text/plain serializer: `name=value` lines ending in CRLF.
    public static func textPlain(_ entries: [FormEntry]) -> String {
        entries.map { normalizeNewlines($0.name) + "=" + normalizeNewlines($0.value) + "\r\n" }.joined()
    }

    /// The multipart/form-data serializer (RFC 7578) with the given boundary. File entries are sent as an
    /// empty file with an empty filename.
    public static func multipart(_ entries: [FormEntry], boundary: String) -> [UInt8] {
        var body = ""
        for entry in entries {
            let name = escapeMultipartName(normalizeNewlines(entry.name))
            body += "--\(boundary)\r\n"
            if entry.isFile {
                body += "Content-Disposition: form-data; name=\"\(name)\"; filename=\"\"\r\n"
                body += "Content-Type: application/octet-stream\r\n\r\n\r\n"
            } else {
                body += "Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n"
                body += normalizeNewlines(entry.value) + "\r\n"
            }
        }
        body += "--\(boundary)--\r\n"
        return Array(body.utf8)
    }

    /// A fresh boundary string.
    static func makeBoundary() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var generator = SystemRandomNumberGenerator()
        return "----SPConnectFormBoundary"
            + String((0..<16).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }

    /// Every lone CR, lone LF and CRLF becomes CRLF.
    static func normalizeNewlines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { return text }
        var result = ""
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                result += "\r\n"
                previousCR = true
            } else if scalar == "\n" {
                if !previousCR { result += "\r\n" }
                previousCR = false
            } else {
                result.unicodeScalars.append(scalar)
                previousCR = false
            }
        }
        return result
    }

    private static func escapeMultipartName(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\n": result += "%0A"
            case "\r": result += "%0D"
            case "\"": result += "%22"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
