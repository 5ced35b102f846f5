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
        try parts(lines(String(decoding: bytes, as: UTF8.self)), contentType: contentType, depth: 1)
    }

    private static func parts(_ lines: [String], contentType: String, depth: Int) throws(Unreadable) -> [Part] {
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
        for section in try sections(lines, boundary: boundary) {
            let (headers, content) = splitHead(section[...])
            let type = headers.first { $0.0.lowercased() == "content-type" }?.1 ?? ""
            if type.lowercased().hasPrefix("multipart/mixed") {
                result += try parts(Array(content), contentType: type, depth: depth + 1)
            } else if let part = httpResponse(content) {
                result.append(part)
            } else {
                throw Unreadable(reason: "part \(result.count + 1) is not an HTTP response")
            }
        }
        return result
    }

    /// The lines of `text`, split at each LF with a CR before it dropped. Split by Unicode scalar, since a Swift
    /// `Character` joins CR and LF into one.
    static func lines(_ text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var scalars = String.UnicodeScalarView(line)
            if scalars.last == "\r" { scalars.removeLast() }
            return String(scalars)
        }
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

    /// The lines of each part between `--boundary` delimiter lines (the preamble and the epilogue after
    /// `--boundary--` dropped). The answer must have a delimiter and end with the closing one.
    static func sections(_ lines: [String], boundary: String) throws(Unreadable) -> [[String]] {
        let delimiter = "--" + boundary
        var sections: [[String]] = []
        var current: [String]?
        for line in lines {
            guard let kind = Delimiter(line, delimiter) else {
                current?.append(line)
                continue
            }
            if let current { sections.append(current) }
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

        init?(_ line: String, _ delimiter: String) {
            let scalars = line.unicodeScalars
            guard scalars.starts(with: delimiter.unicodeScalars) else { return nil }
            var rest = scalars.dropFirst(delimiter.unicodeScalars.count)
            let closing = rest.starts(with: "--".unicodeScalars)
            if closing { rest = rest.dropFirst(2) }
            guard rest.allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
            self = closing ? .close : .part
        }
    }

    /// Header lines up to the first blank line, and the lines after it.
    static func splitHead(_ lines: ArraySlice<String>) -> ([(String, String)], ArraySlice<String>) {
        var headers: [(String, String)] = []
        var lines = lines
        while let line = lines.first, !line.trimmingCharacters(in: .whitespaces).isEmpty {
            lines = lines.dropFirst()
            let scalars = line.unicodeScalars
            if let colon = scalars.firstIndex(of: ":") {
                headers.append(
                    (
                        String(String.UnicodeScalarView(scalars[..<colon])).trimmingCharacters(in: .whitespaces),
                        String(String.UnicodeScalarView(scalars[scalars.index(after: colon)...]))
                            .trimmingCharacters(in: .whitespaces)
                    ))
            }
        }
        return (headers, lines.dropFirst())
    }

    /// `HTTP/1.1 201 Created`, headers, blank line, body (blank lines before it skipped); nil unless the status is
    /// three digits from 100 to 599.
    static func httpResponse(_ lines: ArraySlice<String>) -> Part? {
        let content = lines.drop { $0.isEmpty }
        guard let first = content.first else { return nil }
        let statusLine = first.split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), statusLine[1].utf8.count == 3,
            statusLine[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(statusLine[1]),
            (100..<600).contains(status)
        else {
            return nil
        }
        let (headers, body) = splitHead(content.dropFirst())
        return Part(
            status: status, headers: headers,
            body: Data(body.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines).utf8))
    }
}
