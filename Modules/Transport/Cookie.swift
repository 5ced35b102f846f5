internal import CCurl
public import Foundation

/// One cookie as the jar holds it. A plain value: safe to share across threads.
///
/// `description`, `debugDescription` and mirrors never show the value.
public struct Cookie: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The cookie name.
    public var name: String
    /// The cookie value (treat as a secret: `description` hides it).
    public var value: String
    /// The domain, lowercased, without a leading dot.
    public var domain: String
    /// true: sent only to `domain` itself; false: also to its subdomains (a `Domain=` cookie).
    public var hostOnly: Bool
    /// The path prefix the cookie is sent for.
    public var path: String
    /// When it expires; nil for a session cookie (kept until the jar is cleared).
    public var expires: Date?
    /// Sent only over https (and to loopback hosts libcurl treats as secure).
    public var secure: Bool
    /// Not readable by scripts (kept for fidelity; libcurl sends it like any other).
    public var httpOnly: Bool

    /// Creates a cookie.
    public init(
        name: String, value: String, domain: String, hostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, secure: Bool = false, httpOnly: Bool = false
    ) {
        self.name = name
        self.value = value
        self.domain = domain.lowercased().hasPrefix(".") ? String(domain.lowercased().dropFirst()) : domain.lowercased()
        self.hostOnly = hostOnly
        self.path = path
        self.expires = expires
        self.secure = secure
        self.httpOnly = httpOnly
    }

    /// `name=<redacted>; Domain=...`: the value is never printed.
    public var description: String {
        "\(name)=<redacted>; Domain=\(hostOnly ? "" : ".")\(domain); Path=\(path)"
            + (expires.map { "; Expires=\(Self.epochSeconds($0))" } ?? "") + (secure ? "; Secure" : "")
            + (httpOnly ? "; HttpOnly" : "")
    }

    /// `Cookie(name=<redacted>; Domain=...)`.
    public var debugDescription: String { "Cookie(\(description))" }

    /// Every field but the value, for `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "value": "<redacted>", "domain": domain, "hostOnly": hostOnly, "path": path,
                "expires": expires as Any, "secure": secure, "httpOnly": httpOnly,
            ], displayStyle: .struct)
    }

    /// The cookie as one line of a Netscape cookie file (the format `curl -b FILE` reads).
    public var netscapeLine: String {
        let domainField = (httpOnly ? "#HttpOnly_" : "") + (hostOnly ? "" : ".") + domain
        let expiry = expires.map { max(Self.epochSeconds($0), 1) } ?? 0
        return [
            domainField, hostOnly ? "FALSE" : "TRUE", path, secure ? "TRUE" : "FALSE", String(expiry), name, value,
        ].joined(separator: "\t")
    }

    /// Parses one Netscape cookie-file line; nil for comments, blank and malformed lines.
    public init?(netscapeLine line: String) {
        var text = Substring(line)
        var httpOnly = false
        if text.hasPrefix("#HttpOnly_") {
            httpOnly = true
            text = text.dropFirst("#HttpOnly_".count)
        } else if text.hasPrefix("#") || text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
            return nil
        }
        if text.hasSuffix("\r") { text = text.dropLast() }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 7 || fields.count == 6, let expiry = Int64(fields[4]) else { return nil }
        // Control characters (NUL, CR, LF, DEL…) are in no valid cookie (RFC 6265 §4.1.1) and would not survive a
        // rewrite of the file: such a line is malformed.
        guard !fields.contains(where: { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f } }) else {
            return nil
        }
        // Nor bytes that were not UTF-8 (read as U+FFFD), nor a name that is not an ASCII token.
        guard !fields.contains(where: { $0.unicodeScalars.contains { $0.value == 0xfffd } }),
            fields[5].unicodeScalars.allSatisfy({ $0.isASCII })
        else { return nil }
        let domain = fields[0]
        self.init(
            name: fields[5], value: fields.count == 7 ? fields[6] : "", domain: domain,
            hostOnly: !(fields[1].uppercased() == "TRUE" || domain.hasPrefix(".")), path: fields[2],
            expires: expiry == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(expiry)),
            secure: fields[3].uppercased() == "TRUE", httpOnly: httpOnly)
    }

    /// Parses a `Set-Cookie` header value as received from `url` (RFC 6265 §5.2, defaults from §5.3).
    ///
    /// Returns nil when the line has no name, or its `Domain` does not cover the URL's host (§5.3 step 6).
    /// An expired date or `Max-Age<=0` gives a cookie whose `expires` is in the past (adding it deletes).
    public init?(setCookie line: String, url: String, now: Date = Date()) {
        guard let parsed = CurlURL(url), let host = parsed.host else { return nil }
        let parts = line.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = parts.first, let equals = first.firstIndex(of: "=") else { return nil }
        let name = first[..<equals].trimmingCharacters(in: " ")
        let value = first[first.index(after: equals)...].trimmingCharacters(in: " ")
        guard !name.isEmpty else { return nil }
        var domain: String?
        var path: String?
        var expires: Date?
        var maxAge: Int64?
        var secure = false
        var httpOnly = false
        for attribute in parts.dropFirst() {
            let pieces = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pieces[0].trimmingCharacters(in: " ").lowercased()
            let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: " ") : ""
            switch key {
            case "domain" where !argument.isEmpty:
                domain = argument.hasPrefix(".") ? String(argument.dropFirst()).lowercased() : argument.lowercased()
            case "path" where argument.hasPrefix("/"): path = argument
            case "expires":
                let seconds = curl_getdate(argument, nil)
                if seconds != -1 { expires = Date(timeIntervalSince1970: TimeInterval(seconds)) }
            case "max-age": maxAge = Int64(argument)
            case "secure": secure = true
            case "httponly": httpOnly = true
            default: break
            }
        }
        if let maxAge {
            expires = maxAge <= 0 ? Date(timeIntervalSince1970: 1) : now.addingTimeInterval(TimeInterval(maxAge))
        }
        if let domain, domain != host, !host.hasSuffix("." + domain) { return nil }
        let defaultPath: String = {
            let requestPath = parsed.path
            guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"),
                slash != requestPath.startIndex
            else { return "/" }
            return String(requestPath[..<slash])
        }()
        self.init(
            name: name, value: value, domain: domain ?? host, hostOnly: domain == nil, path: path ?? defaultPath,
            expires: expires, secure: secure, httpOnly: httpOnly)
    }
}

extension Cookie {
    /// Whole seconds since 1970, clamped to Int64 (curl writes 9223372036854775807 for "never expires", which a
    /// Double rounds just past Int64's range).
    static func epochSeconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // 2^63 (Double(Int64.max) rounds up to it) and beyond overflow; everything below converts exactly.
        if seconds >= Double(Int64.max) { return Int64.max }
        if seconds < Double(Int64.min) { return Int64.min }
        return Int64(seconds)
    }
}
