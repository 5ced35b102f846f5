import Foundation
import TransportValues

/// Where the sign-in engine may send a password, and how far it may wander. A plain value.
///
/// The rules: a password goes only in a POST body (a user name alone, as in a username-first step, may also
/// go in a GET form's query); credentials go over https, or plain http to a loopback address when
/// `allowHTTPLoopback` is set; only to the origin (scheme, host, port) that served the form or to an origin
/// `allowedHosts` names; never to a `javascript:` or other non-HTTP action. An https page that leads to http
/// stops the flow.
public struct SignInPolicy: Sendable, Equatable {
    /// Extra destinations that may receive credentials, from `--allow-host`, lowercased: `HOST` (that host on
    /// the scheme's default port, 443 for https) or `HOST:PORT` (`[::1]:8443` for an IPv6 address).
    public var allowedHosts: Set<String>
    /// Allow plain http to loopback addresses (127.0.0.0/8, ::1, localhost): for simulators and tests.
    public var allowHTTPLoopback: Bool
    /// The most exchanges one sign-in may take before it is called a loop.
    public var maxSteps: Int

    /// The default policy: credentials to the form's own origin over https only, at most `maxSteps` exchanges.
    public init(allowedHosts: Set<String> = [], allowHTTPLoopback: Bool = false, maxSteps: Int = 30) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.allowHTTPLoopback = allowHTTPLoopback
        self.maxSteps = maxSteps
    }

    /// Why a step was refused: each message says what was refused and what the user can do. URLs in the
    /// description have their query values redacted.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        case passwordInURL(action: String)
        case notHTTP(action: String)
        case plainHTTP(action: String)
        case foreignHost(action: String, formHost: String)
        case downgrade(from: String, to: String)

        /// What was refused and why, with URLs redacted.
        public var description: String {
            switch self {
            case .passwordInURL(let action):
                return "the sign-in form uses GET, which would put the password in a URL "
                    + "(\(Redaction.url(action))); refused."
            case .notHTTP(let action):
                return "the sign-in form posts to '\(Redaction.url(action))', which is not an http(s) address; refused."
            case .plainHTTP(let action):
                return
                    "the sign-in form posts the password over plain http (\(Redaction.url(action))); refused. "
                    + "Only loopback addresses may use http, and only when that is allowed."
            case .foreignHost(let action, let formHost):
                return
                    "the sign-in form on \(formHost) posts the password to another host "
                    + "(\(Redaction.url(action))); refused."
            case .downgrade(let from, let to):
                return "the sign-in went from https to plain http (\(Redaction.url(from)) → \(Redaction.url(to))); "
                    + "stopped."
            }
        }
    }

    /// Checks that credentials may be submitted to `action` by a form on `pageURL` with `method`.
    /// `includesPassword` is false for a submission that carries the user name only (a username-first step):
    /// that one may use GET; every other rule still applies to it.
    public func checkCredentialSubmission(
        method: String, action: String, pageURL: String, includesPassword: Bool = true
    ) throws(Refusal) {
        guard method.uppercased() == "POST" || !includesPassword else { throw .passwordInURL(action: action) }
        let target = try credentialTarget(action)
        guard let form = URLParts(pageURL),
            form.origin == target.origin || allows(target) || Self.areOneSignInService(form, target)
        else {
            throw .foreignHost(action: action, formHost: URLParts(pageURL)?.displayAuthority ?? "")
        }
    }

    /// Microsoft's sign-in service answers on several hosts that pass one sign-in between them by design: the
    /// FIDO view on `login.microsoft.com` posts back to `login.microsoftonline.com`, the certificate endpoint is
    /// `certauth.login.microsoftonline.com` or `t{tenant}.certauth.login.microsoftonline.com`
    /// (../shared/docs/entra-passwordless.md §1.2 and §2.2, documented and observed). Over https both, they are one
    /// service; no other host is.
    static func areOneSignInService(_ form: URLParts, _ target: URLParts) -> Bool {
        guard form.scheme == "https", target.scheme == "https", form.port == 443, target.port == 443 else {
            return false
        }
        return microsoftSignInFamily(form.host) != nil
            && microsoftSignInFamily(form.host) == microsoftSignInFamily(target.host)
    }

    /// The cloud of one of Microsoft's sign-in hosts (`com` for the public cloud, `us` for US Government), nil for
    /// any other host.
    private static func microsoftSignInFamily(_ host: String) -> String? {
        let host = host.lowercased()
        for (cloud, names) in [
            ("com", ["login.microsoftonline.com", "login.microsoft.com"]),
            ("us", ["login.microsoftonline.us", "login.microsoft.us"]),
        ] {
            if names.contains(host) { return cloud }
            let certauth = "certauth." + names[0]
            if host == certauth || (host.hasSuffix("." + certauth) && !host.dropLast(certauth.count + 1).contains("."))
            {
                return cloud
            }
        }
        return nil
    }

    /// Whether credentials given for `origin` (an absolute URL) may also go to `url`: the same origin, or one
    /// `allowedHosts` names. (For redirects of requests that carry HTTP authentication.)
    public func mayShareCredentials(from origin: String, to url: String) -> Bool {
        guard let target = URLParts(url) else { return false }
        return URLParts(origin)?.origin == target.origin || allows(target)
    }

    /// Whether `allowedHosts` names the target's host and port (a bare host means the scheme's default port).
    private func allows(_ target: URLParts) -> Bool {
        allowedHosts.contains(target.authority)
            || (target.port == target.defaultPort && allowedHosts.contains(target.bracketedHost))
    }

    /// Checks that credentials may travel to `url` at all: over https, or over plain http to a loopback address
    /// when ``allowHTTPLoopback`` is set. (For credentials sent outside a sign-in, such as `spconnect api --basic`.)
    public func checkCredentialTransport(to url: String) throws(Refusal) {
        _ = try credentialTarget(url)
    }

    private func credentialTarget(_ url: String) throws(Refusal) -> URLParts {
        guard let target = URLParts(url), target.scheme == "https" || target.scheme == "http" else {
            throw .notHTTP(action: url)
        }
        if target.scheme == "http" && !(allowHTTPLoopback && target.isLoopback) {
            throw .plainHTTP(action: url)
        }
        return target
    }

    /// Checks one hop of the flow (a redirect, refresh, script redirect or form post).
    public func checkHop(from: String, to: String) throws(Refusal) {
        guard let source = URLParts(from), let target = URLParts(to) else { return }
        if source.scheme == "https" && target.scheme == "http" { throw .downgrade(from: from, to: to) }
    }
}

/// The scheme, host and port of an absolute URL, lowercased, for policy decisions.
package struct URLParts: Equatable {
    package let scheme: String
    package let host: String
    /// The port written in the URL, else the scheme's default.
    package let port: Int

    package init?(_ text: String) {
        if let plain = Self.plainASCII(text) {
            self = plain
            return
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme else { return nil }
        self.scheme = scheme.lowercased()
        var host = (components.host ?? "").lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        self.port = components.port ?? (self.scheme == "https" ? 443 : self.scheme == "http" ? 80 : 0)
    }

    private init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
    }

    /// The parts of the common URL, `scheme://host[:port]` then a path, query or fragment or nothing, all of it
    /// printable ASCII and the host a plain name or an address: read on bytes. Nil for anything else (user info,
    /// escapes, a backslash, IPv6, international names), which Foundation's parser reads. (Foundation's parser loads
    /// ICU's international-names tables into every sign-in's memory for its host.)
    private static func plainASCII(_ text: String) -> URLParts? {
        let bytes = Array(text.utf8)
        guard isPrintableASCII(text),
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            bytes[colon...].starts(with: Array("://".utf8))
        else { return nil }
        let scheme = bytes[..<colon]
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        guard isLetter(scheme[scheme.startIndex]),
            scheme.allSatisfy({
                isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        else { return nil }
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        let hostEnd = authority.firstIndex(of: UInt8(ascii: ":")) ?? authority.endIndex
        let host = authority[..<hostEnd]
        // An international name in its ASCII form (`xn--`) is Foundation's to read: it gives the name in Unicode.
        guard !host.isEmpty, !String(decoding: host, as: UTF8.self).lowercased().contains("xn--"),
            host.allSatisfy({
                isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                    || $0 == UInt8(ascii: "_")
            })
        else { return nil }
        var port: Int?
        if hostEnd < authority.endIndex {
            let digits = authority[(hostEnd + 1)...]
            if !digits.isEmpty {
                guard digits.count <= 5, digits.allSatisfy(isDigit),
                    let value = Int(String(decoding: digits, as: UTF8.self)), value <= 65_535
                else { return nil }
                port = value
            }
        }
        return URLParts(
            scheme: String(decoding: scheme, as: UTF8.self).lowercased(),
            host: String(decoding: host, as: UTF8.self).lowercased(), port: port)
    }

    /// Whether `text` is printable ASCII without spaces or backslashes: a URL read on bytes as a browser would.
    package static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }
    }

    /// 443 for https, 80 for http.
    package var defaultPort: Int { scheme == "https" ? 443 : scheme == "http" ? 80 : 0 }

    /// The host as written in an authority: IPv6 addresses in brackets.
    package var bracketedHost: String { host.contains(":") ? "[\(host)]" : host }

    /// `HOST:PORT`, the form `--allow-host` takes.
    package var authority: String { "\(bracketedHost):\(port)" }

    /// The host, with its port when that is not the scheme's default: how a message names a place.
    package var displayAuthority: String { port == defaultPort ? bracketedHost : authority }

    /// What makes two URLs one origin.
    package var origin: String { "\(scheme)://\(authority)" }

    /// 127.0.0.0/8, ::1 or localhost (Transport's rule).
    package var isLoopback: Bool { PlainHTTPRule.isLoopback(host) }
}
