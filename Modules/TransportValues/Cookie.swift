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
