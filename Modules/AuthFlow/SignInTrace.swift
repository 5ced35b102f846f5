import Foundation
import Transport

/// One step of a sign-in as the trace records it: never a secret, only names, kinds and hosts.
public struct SignInTraceStep: Sendable, Equatable, Codable {
    public var step: Int
    public var method: String
    /// The URL with query values redacted except a few harmless names (`wa`, `Source`, `ReturnUrl`, ...).
    public var url: String
    /// Why the engine sent this request.
    public var purpose: String
    public var status: Int?
    /// The page kind the engine saw (`credential-form`, `auto-post`, `aad-config`, ...), when it read a page.
    public var pageKind: String?
    /// What the engine decided on the answer.
    public var decision: String?
    /// Names (never values) of cookies the response set.
    public var cookiesSet: [String]
    /// Names (never values) of the form fields sent.
    public var fieldsSent: [String]

    /// The trace as one JSON line.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A struct of strings and numbers always encodes.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// Removes secrets from URLs and text before they reach a trace, a dump or an error message.
public enum Redaction {
    /// Query parameters whose values carry no secret and help a reader follow the flow.
    static let harmlessQueryNames: Set<String> = [
        "wa", "wtrealm", "source", "returnurl", "response_mode", "response_type", "client_id", "resource", "scope",
        "redirect_uri", "trust", "sso_reload", "jsdisabled", "wreply", "xml", "mkt", "lc",
    ]

    /// `url` with every query value (and any user:password@ and fragment) replaced by `<redacted>`,
    /// except the harmless names above: sign-in URLs carry codes, states and tokens under many names.
    public static func url(_ url: String) -> String {
        Transport.Redaction.url(url) { !harmlessQueryNames.contains($0.lowercased()) }
    }

    /// `page` with hidden and password input values, `$Config` token strings and long opaque tokens redacted,
    /// so it can be attached to a bug report.
    public static func page(_ page: String) -> String {
        var text = page
        // value="..." on input elements that are hidden or password, in either attribute order.
        text = replacing(
            #"(<input\b[^>]*\btype\s*=\s*["']?(?:hidden|password)["']?[^>]*\bvalue\s*=\s*)("[^"]*"|'[^']*')"#,
            in: text, with: "$1\"<redacted>\"")
        text = replacing(
            #"(<input\b[^>]*\bvalue\s*=\s*)("[^"]*"|'[^']*')([^>]*\btype\s*=\s*["']?(?:hidden|password)\b)"#,
            in: text, with: "$1\"<redacted>\"$3")
        // JSON string values of keys that carry tokens ($Config and friends).
        text = replacing(
            #"("(?:sFT|sCtx|canary|apiCanary|sessionId|correlationId|code|id_token|state|session_state|urlPost|urlGetCredentialType|sPOST_Username|sErrTxt_login)"\s*:\s*)"(?:[^"\\]|\\.)*""#,
            in: text, with: "$1\"<redacted>\"")
        // Any remaining opaque run of 64+ token characters (JWTs, SAML in text).
        text = replacing(#"[A-Za-z0-9+/=_\-.]{64,}"#, in: text, with: "<redacted>")
        return text
    }

    private static func replacing(_ pattern: String, in text: String, with template: String) -> String {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            return text
        }
        return expression.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }
}
