import Foundation

/// Reads a `$batch` answer: nested `multipart/mixed` parts (RFC 2046) down to each `application/http` response.
///
/// Strict, since a part can only be matched to its change by position: an answer without its boundary, cut short
/// before a closing delimiter, nested deeper than a changeset in a batch, or with a part that is not an HTTP
/// response is ``Unreadable``, with the reason.
enum BatchResponse {
    /// One embedded HTTP response.
    struct Part {
        var status: Int
        var headers: [(String, String)]
        var body: Data
    }

    /// Why an answer could not be read: a clause for a sentence ("it ends before its closing boundary").
    struct Unreadable: Error {
        var reason: String
    }

    /// The deepest nesting read: the batch (1) holding changesets (2); SharePoint nests no further.
    static let maximumDepth = 3

    /// Every embedded response, in order (changeset parts flattened).
    static func parts(_ bytes: [UInt8], contentType: String) throws(Unreadable) -> [Part] {
        try parts(String(decoding: bytes, as: UTF8.self), contentType: contentType, depth: 1)
    }

    private static func parts(_ text: String, contentType: String, depth: Int) throws(Unreadable) -> [Part] {
        let shown = String(contentType.prefix(100))
        guard contentType.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("multipart/mixed"),
            let boundary = boundary(of: contentType), !boundary.isEmpty
        else {
            throw Unreadable(reason: "it is not multipart/mixed with a boundary (Content-Type '\(shown)')")
        }
        guard depth <= maximumDepth else {
            throw Unreadable(reason: "its parts are nested more than \(maximumDepth) deep")
        }
        var result: [Part] = []
        for section in try sections(text, boundary: boundary) {
            let (headers, content) = splitHead(section)
            let type = headers.first { $0.0.lowercased() == "content-type" }?.1 ?? ""
            if type.lowercased().hasPrefix("multipart/mixed") {
                result += try parts(content, contentType: type, depth: depth + 1)
            } else if let part = httpResponse(content) {
                result.append(part)
            } else {
                throw Unreadable(reason: "part \(result.count + 1) is not an HTTP response")
            }
        }
        return result
    }

    /// The `boundary=` parameter of a content type (quotes removed).
    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";") {
            let trimmed = parameter.trimmingCharacters(in: .whitespaces)
            if trimmed.lowercased().hasPrefix("boundary=") {
                return String(trimmed.dropFirst("boundary=".count)).trimmingCharacters(in: CharacterSet(["\""]))
            }
        }
        return nil
    }

    /// The bodies between `--boundary` delimiter lines (the preamble and the epilogue after `--boundary--`
    /// dropped). The answer must have a delimiter and end with the closing one.
    static func sections(_ text: String, boundary: String) throws(Unreadable) -> [String] {
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n")
        let delimiter = "--" + boundary
        var sections: [String] = []
        var current: [Substring]?
        for line in normalised.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let kind = Delimiter(line, delimiter) else {
                current?.append(line)
                continue
            }
            if let current { sections.append(current.joined(separator: "\n")) }
            if kind == .close { return sections }
            current = []
        }
        if current == nil {
            throw Unreadable(reason: "it has no part with its boundary '\(String(boundary.prefix(100)))'")
        }
        throw Unreadable(reason: "it ends before its closing boundary (cut short)")
    }

    /// A delimiter line: `--boundary` (a part starts) or `--boundary--` (the last part ended), followed only by
    /// spaces or tabs (RFC 2046's transport padding).
    enum Delimiter {
        case part, close

        init?(_ line: Substring, _ delimiter: String) {
            guard line.hasPrefix(delimiter) else { return nil }
            var rest = line.dropFirst(delimiter.count)
            let closing = rest.hasPrefix("--")
            if closing { rest = rest.dropFirst(2) }
            guard rest.allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
            self = closing ? .close : .part
        }
    }

    /// Header lines up to the first blank line, and what follows.
    static func splitHead(_ text: String) -> ([(String, String)], String) {
        var headers: [(String, String)] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.first, !line.trimmingCharacters(in: .whitespaces).isEmpty {
            lines = lines.dropFirst()
            if let colon = line.firstIndex(of: ":") {
                headers.append(
                    (
                        String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                        String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                    ))
            }
        }
        return (headers, lines.dropFirst().joined(separator: "\n"))
    }

    /// `HTTP/1.1 201 Created`, headers, blank line, body; nil unless the status is three digits from 100 to 599.
    static func httpResponse(_ text: String) -> Part? {
        let trimmed = text.drop { $0 == "\n" }
        guard let end = trimmed.firstIndex(of: "\n") else { return nil }
        let statusLine = trimmed[..<end].split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), statusLine[1].utf8.count == 3,
            statusLine[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(statusLine[1]),
            (100..<600).contains(status)
        else {
            return nil
        }
        let (headers, body) = splitHead(String(trimmed[trimmed.index(after: end)...]))
        return Part(
            status: status, headers: headers,
            body: Data(body.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
    }
}
