import Foundation

/// Where the sign-in engine may send a password, and how far it may wander. A plain value.
///
/// The rules: a password goes only in a POST body (a user name alone, as in a username-first step, may also
/// go in a GET form's query); credentials go over https, or plain http to a loopback address when
/// `allowHTTPLoopback` is set; only to the host that served the form or to a host in `allowedHosts`;
/// never to a `javascript:` or other non-HTTP action. An https page that leads to http stops the flow.
public struct SignInPolicy: Sendable, Equatable {
    /// Extra hosts (lowercase, no port) that may receive credentials, from `--allow-host`.
    public var allowedHosts: Set<String>
    /// Allow plain http to loopback addresses (127.0.0.0/8, ::1, localhost): for simulators and tests.
    public var allowHTTPLoopback: Bool
    /// The most exchanges one sign-in may take before it is called a loop.
    public var maxSteps: Int

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
                    + "Only loopback addresses may use http, and only with --allow-http-loopback."
            case .foreignHost(let action, let formHost):
                return
                    "the sign-in form on \(formHost) posts the password to another host "
                    + "(\(Redaction.url(action))); refused. If that host is yours, allow it with --allow-host."
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
        let formHost = URLParts(pageURL)?.host ?? ""
        guard target.host == formHost || allowedHosts.contains(target.host) else {
            throw .foreignHost(action: action, formHost: formHost)
        }
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

/// The scheme and host of an absolute URL, lowercased, for policy decisions.
struct URLParts: Equatable {
    let scheme: String
    let host: String

    init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme else { return nil }
        self.scheme = scheme.lowercased()
        var host = (components.host ?? "").lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
    }

    /// 127.0.0.0/8, ::1 or localhost.
    var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".")
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
