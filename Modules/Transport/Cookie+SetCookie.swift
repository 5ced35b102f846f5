internal import CCurl
public import Foundation

extension Cookie {
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
