/// One request as the server received it. A plain value: safe to keep and to send across threads.
public struct HTTPServerRequest: Sendable {
    /// The method as sent (`GET`, `POST`, `MERGE`, ...).
    public let method: String
    /// The raw request target as sent: path plus `?query`, still percent-encoded.
    public let target: String
    /// The path, percent-decoded (`/_api/web/lists/getbytitle('Photos')`).
    public let path: String
    /// The query string after `?`, still encoded, or empty.
    public let rawQuery: String
    /// The query decoded into ordered pairs (`+` becomes a space, as HTML forms encode it).
    public let query: [(name: String, value: String)]
    /// Request headers in the order received.
    public let headers: [(name: String, value: String)]
    /// The request body; empty when it is in ``bodyFile``.
    public let body: [UInt8]
    /// The request body when the server keeps large bodies in files (``RequestBodyStorage/files(over:in:)``) and
    /// this one was larger; nil otherwise.
    public let bodyFile: RequestBodyFile?
    /// The peer's IP address as text (`127.0.0.1`).
    public let clientAddress: String
    /// The address the server is bound to (`127.0.0.2`), so one handler can serve several "hosts".
    public let serverAddress: String

    /// The first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The first query value with this name (names compare exactly, values decoded).
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Cookies from every `Cookie` header, in order; on duplicates the first wins, as servers usually read them.
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for header in headers where header.name.lowercased() == "cookie" {
            for pair in header.value.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                let name = String(trimmed[..<equals])
                if result[name] == nil { result[name] = String(trimmed[trimmed.index(after: equals)...]) }
            }
        }
        return result
    }

    /// The body decoded as `application/x-www-form-urlencoded` pairs.
    public var formFields: [(name: String, value: String)] {
        FormURLEncoding.decode(String(decoding: body, as: UTF8.self))
    }

    /// The first form field with this name.
    public func formValue(_ name: String) -> String? {
        formFields.first { $0.name == name }?.value
    }

    /// A request as received (the server's own reader, and a simulator's `$batch` parts, make them).
    package init(
        method: String, target: String, headers: [(name: String, value: String)], body: [UInt8],
        bodyFile: RequestBodyFile? = nil, clientAddress: String, serverAddress: String
    ) {
        self.method = method
        self.target = target
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.path = FormURLEncoding.percentDecode(String(parts.first ?? ""), plusIsSpace: false)
        self.rawQuery = parts.count > 1 ? String(parts[1]) : ""
        self.query = FormURLEncoding.decode(rawQuery)
        self.headers = headers
        self.body = body
        self.bodyFile = bodyFile
        self.clientAddress = clientAddress
        self.serverAddress = serverAddress
    }
}

/// What a handler answers.
public struct HTTPServerResponse: Sendable {
    /// One step of a streamed body.
    public enum Chunk: Sendable {
        /// Bytes to send next (the producer may sleep before returning them, to drip slowly).
        case data([UInt8])
        /// The body is complete.
        case end
        /// Drop the connection now, mid-body (a fault for tests).
        case abort
    }

    /// The body: all at once, or produced chunk by chunk on the connection's own thread.
    public enum Body: Sendable {
        case bytes([UInt8])
        /// `length` is announced as `Content-Length` when given (so an abort is visible as a short body);
        /// `next` is called until it returns `.end` or `.abort`.
        case stream(length: Int?, next: @Sendable () -> Chunk)
    }

    public var status: Int
    /// Headers in order; several with one name (`Set-Cookie`) are all sent.
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a text body and its content type.
    public init(
        status: Int, contentType: String, text: String, headers: [(name: String, value: String)] = []
    ) {
        self.init(
            status: status, headers: [("Content-Type", contentType)] + headers, body: .bytes(Array(text.utf8)))
    }
}

/// `application/x-www-form-urlencoded` and percent-decoding, as servers read them.
public enum FormURLEncoding {
    /// Splits `a=1&b=2` into decoded pairs; a name without `=` gets an empty value.
    public static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(String(parts[0]), plusIsSpace: true)
            let value = parts.count > 1 ? percentDecode(String(parts[1]), plusIsSpace: true) : ""
            return (name, value)
        }
    }

    /// Decodes `%XX` escapes (invalid ones stay as they are) and, for form data, `+` as space.
    public static func percentDecode(_ text: String, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let input = Array(text.utf8)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
