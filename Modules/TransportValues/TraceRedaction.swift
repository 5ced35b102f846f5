/// Redaction rules shared by traces (`package`: AuthFlow applies a stricter rule with the same code).
package enum TraceRedaction {
    package static let marker = "<redacted>"
    package static let secretHeaders: Set<String> = ["cookie", "set-cookie", "authorization", "proxy-authorization"]

    package static func header(name: String, value: String) -> (name: String, value: String) {
        switch name.lowercased() {
        case "cookie":
            let names = value.split(separator: ";").map { pair -> String in
                let trimmed = pair.trimmingCharacters(in: " ")
                let name = trimmed.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                return "\(name)=\(marker)"
            }
            return (name, names.joined(separator: "; "))
        case "set-cookie":
            let cookieName = value.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return (name, "\(cookieName.trimmingCharacters(in: " "))=\(marker)")
        case "authorization", "proxy-authorization":
            // Keep the scheme (`Basic`, `NTLM`) only when there is one; a bare token is all secret.
            let parts = value.split(separator: " ", maxSplits: 1)
            return (name, parts.count == 2 ? "\(parts[0]) \(marker)" : marker)
        case "location", "content-location", "referer", "origin":
            return (name, url(value))
        default:
            return (name, value)
        }
    }

    /// Name fragments (lowercased) that mark a form field or query parameter as secret.
    static let secretFragments = [
        "pass", "pwd", "secret", "token", "wresult", "samlresponse", "canary", "flowtoken", "apikey", "api_key",
    ]
    /// Whole names (lowercased) that are secret but too short to match as fragments.
    static let secretNames: Set<String> = ["sig", "code", "key", "wctx", "ctx", "session_state"]

    /// Whether a form field or query parameter with this name holds a secret (AuthFlow adds the sign-in pages'
    /// own names to these).
    package static func isSecret(name: String) -> Bool {
        let lowered = name.lowercased()
        return secretNames.contains(lowered) || secretFragments.contains { lowered.contains($0) }
    }

    /// The URL with the values of secret-looking query parameters (and any user:password@) replaced.
    /// `isSecret` decides per parameter name; by default the names above.
    package static func url(_ url: String, isSecret: (String) -> Bool = isSecret(name:)) -> String {
        var text = Substring(url)
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = "#" + marker
            text = text[..<hash]
        }
        var base = text
        var query: Substring?
        if let question = text.firstIndex(of: "?") {
            base = text[..<question]
            query = text[text.index(after: question)...]
        }
        var result = String(base)
        if let schemeEnd = result.range(of: "://"), let at = result[schemeEnd.upperBound...].firstIndex(of: "@"),
            !result[schemeEnd.upperBound..<at].contains("/")
        {
            result.replaceSubrange(schemeEnd.upperBound..<at, with: marker)
        }
        if let query {
            let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, isSecret(String(parts[0])) else { return String(pair) }
                return "\(parts[0])=\(marker)"
            }
            result += "?" + pairs.joined(separator: "&")
        }
        return result + (fragment.isEmpty || url.hasSuffix("#") ? "" : fragment)
    }
}

extension StringProtocol {
    package func trimmingCharacters(in set: Character) -> String {
        var slice = Substring(self)
        while slice.first == set || slice.first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == set || last == "\t" || last == "\r" || last == "\n" || last == "\r\n" {
            slice = slice.dropLast()
        }
        return String(slice)
    }
}
