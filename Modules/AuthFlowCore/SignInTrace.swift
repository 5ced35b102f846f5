import Foundation
import TransportValues

/// One step of a sign-in as the trace records it: never a secret, only names, kinds and hosts.
public struct SignInTraceStep: Sendable, Equatable, Codable {
    /// The step number, from 0 for the first request.
    public var step: Int
    /// The HTTP method.
    public var method: String
    /// The URL with query values redacted except a few harmless names (`wa`, `Source`, `ReturnUrl`, ...).
    public var url: String
    /// Why the engine sent this request.
    public var purpose: String
    /// The HTTP status of the answer, once it came.
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
        TransportValues.TraceRedaction.url(url) { !harmlessQueryNames.contains($0.lowercased()) }
    }

    /// Form field and query names (lowercased fragments) whose values are secrets on sign-in pages, besides the
    /// ones Transport's trace redaction knows (passwords, tokens, `wresult`, `SAMLResponse`, `flowToken`, ...).
    static let signInSecretFragments = ["saml", "ppft", "assertion", "credential"]
    /// Whole names (lowercased) that are secret on sign-in pages but too short or too common to match as
    /// fragments, besides Transport's (`code`, `ctx`, `wctx`, ...).
    static let signInSecretNames: Set<String> = ["state", "sft", "sctx", "otc", "nonce", "ticket", "otp"]
    /// `$Config` and other JSON keys whose string values carry tokens or identify a session, besides the
    /// secret names above.
    static let tokenConfigKeys: Set<String> = [
        "sft", "sfttag", "sctx", "canary", "apicanary", "sessionid", "sunauthsessionid", "correlationid", "code",
        "id_token", "state", "session_state", "urlpost", "urlgetcredentialtype", "spost_username", "serrtxt_login",
    ]

    /// Whether a form field, query parameter or JSON key with this name holds a secret: the one registry that
    /// traces, response redaction and the `Referer` rule read.
    static func isSecret(name: String) -> Bool {
        let lowered = name.lowercased()
        return TransportValues.TraceRedaction.isSecret(name: name) || signInSecretNames.contains(lowered)
            || signInSecretFragments.contains { lowered.contains($0) }
    }

    /// `page` with secrets redacted, so it can be attached to a bug report: the values of every hidden and
    /// password input and of any control with a secret name (``isSecret(name:)``), quoted, unquoted or inside
    /// a script string with JSON-escaped quotes (Entra's `sFTTag`); the content of secret-named `<textarea>`s;
    /// `$Config` token strings; query values in URLs anywhere on the page, except the harmless names `url(_:)`
    /// keeps; the `content` of `<meta>` tags named like a token (`csrf-token`); and long opaque tokens.
    public static func page(_ page: String) -> String {
        var text = ControlValueRedaction.redact(page, isSecretName: isSecret(name:))
        // JSON string values of keys that carry tokens ($Config, GetCredentialType answers and friends).
        text = replacingJSONStrings(in: text) { key in
            tokenConfigKeys.contains(key.lowercased()) || isSecret(name: key)
        }
        // Query values in links, form actions and script strings (`?code=…&amp;state=…`).
        text = replacingGroup(
            2, of: #"(?:[?&]|&amp;)([A-Za-z0-9_.\-]+)=([^&"'\s<>#\\]+)"#, in: text
        ) { groups in
            !harmlessQueryNames.contains(groups[1].lowercased())
        }
        // `<meta name="csrf-token" content="…">` and the like.
        text = replacingGroup(
            3, of: #"(<meta\b[^>]*?\b(?:name|property)\s*=\s*["']?([^"'\s>]*)[^>]*?\bcontent\s*=\s*["']?)([^"'>]*)"#,
            in: text
        ) { groups in isTokenMetaName(groups[2]) }
        text = replacingGroup(
            2,
            of: #"(<meta\b[^>]*?\bcontent\s*=\s*["']?)([^"'>]*)["']?[^>]*?\b(?:name|property)\s*=\s*["']?([^"'\s>/]*)"#,
            in: text
        ) { groups in isTokenMetaName(groups[3]) }
        // Any remaining opaque run of 64+ token characters (JWTs, SAML in text).
        text = replacing(#"[A-Za-z0-9+/=_\-.]{64,}"#, in: text, with: "<redacted>")
        return text
    }

    /// `text` with the string value of every `"key": "value"` pair whose key `isSecretKey` accepts replaced.
    private static func replacingJSONStrings(in text: String, where isSecretKey: (String) -> Bool) -> String {
        guard
            let expression = try? NSRegularExpression(
                pattern: #"("([A-Za-z0-9_$\-]+)"\s*:\s*)"(?:[^"\\]|\\.)*""#, options: [])
        else { return text }
        var result = ""
        var copied = text.startIndex
        for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let whole = Range(match.range, in: text), let prefix = Range(match.range(at: 1), in: text),
                let key = Range(match.range(at: 2), in: text), isSecretKey(String(text[key]))
            else { continue }
            result += text[copied..<whole.lowerBound] + text[prefix] + "\"<redacted>\""
            copied = whole.upperBound
        }
        return result + text[copied...]
    }

    /// Whether a `<meta>` tag with this `name` (or `property`) carries a token in its `content`.
    private static func isTokenMetaName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.contains("csrf") || lowered.contains("xsrf") || isSecret(name: lowered)
    }

    /// `text` with capture group `group` of each match of `pattern` replaced by `<redacted>` when `when` accepts
    /// the match's groups (index 0 is the whole match). Groups are numbered among the pattern's own.
    private static func replacingGroup(
        _ group: Int, of pattern: String, in text: String, when: ([String]) -> Bool
    ) -> String {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            return text
        }
        var result = ""
        var copied = text.startIndex
        for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let groups = (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
            guard let target = Range(match.range(at: group), in: text), target.lowerBound >= copied, when(groups)
            else { continue }
            result += text[copied..<target.lowerBound] + "<redacted>"
            copied = target.upperBound
        }
        return result + text[copied...]
    }

    private static func replacing(_ pattern: String, in text: String, with template: String) -> String {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            return text
        }
        return expression.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }
}
