public import JSON

/// Why a page could not be read.
public enum HTMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libxml2 produced no document at all.
    case unparseable(url: String)

    /// A message a user can act on.
    public var description: String {
        switch self {
        case .unparseable(let url): "libxml2 could not parse the page at \(url)"
        }
    }
}

/// A `<meta http-equiv="refresh">` a scripting browser would follow.
public struct MetaRefresh: Sendable, Equatable {
    /// Seconds before the refresh.
    public let delay: Double
    /// The absolute target; the page itself when the content names no URL.
    public let url: String

    /// Makes a refresh value.
    public init(delay: Double, url: String) {
        self.delay = delay
        self.url = url
    }
}

extension MetaRefresh {
    /// Parses a refresh value against `baseURL`: a meta tag's `content` or the HTTP `Refresh` response
    /// header, which share one syntax ("5; url='…'"; no URL means the page itself). Nil when it does not parse.
    public init?(refresh content: String, baseURL: String) {
        guard let parsed = PageReader.parseRefresh(content, baseURL: baseURL) else { return nil }
        self = parsed
    }
}

/// A self-submitting form and what triggers it.
public struct SelfSubmit: Sendable, Equatable {
    /// What makes the form submit.
    public enum Trigger: String, Sendable, Equatable {
        /// An inline script calls `submit()` on the form.
        case script
        /// The `<body onload>` attribute calls `submit()`.
        case bodyOnload = "body-onload"
        /// The form's only submit control sits in `<noscript>` and the form has only hidden fields: the page
        /// expects a script to submit it.
        case noscriptButton = "noscript-button"
        /// Nothing on the page submits it, but it is a hidden-only form carrying a protocol's message (SAML
        /// `SAMLResponse`/`SAMLRequest`, WS-Federation `wresult`, an OAuth/OIDC `form_post` response): such a
        /// form exists only to be posted on, by an external script or a person clicking.
        case protocolFields = "protocol-fields"
    }

    /// Index of the form in `HTMLPage.forms`.
    public let formIndex: Int
    /// What makes it submit.
    public let trigger: Trigger

    /// Makes a self-submit value.
    public init(formIndex: Int, trigger: Trigger) {
        self.formIndex = formIndex
        self.trigger = trigger
    }
}

/// A script configuration object a page assigns (Entra ID's `$Config`, Microsoft account's `ServerData`, another
/// object literal that carries `urlPost`), as the JSON it is, with typed look-ups. What its keys mean is the reader's
/// business (the Entra strategy's `EntraConfigFields.swift`), not the HTML module's.
public struct AADConfig: Sendable, Equatable {
    /// The whole decoded object.
    public let raw: JSONValue

    /// Wraps a decoded configuration object.
    public init(raw: JSONValue) {
        self.raw = raw
    }

    /// Where the page posts (`urlPost`).
    public var urlPost: String? { raw["urlPost"]?.stringValue }
    /// The member `key` as a number, when it is one.
    public func number(_ key: String) -> Double? {
        switch raw[key] {
        case .double(let value)?: return value
        case .integer(let value)?: return Double(value)
        default: return nil
        }
    }

    /// The member `key` as text: a string as written, a number or Boolean in its JSON spelling; nil when the key
    /// is missing, null, an empty string, an array or an object.
    public func text(_ key: String) -> String? {
        switch raw[key] {
        case .string(let text)?: return text.isEmpty ? nil : text
        case .integer(let number)?: return String(number)
        case .double(let number)?:
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .bool(let flag)?: return flag ? "true" : "false"
        default: return nil
        }
    }

    /// Whether the member `key` is an array or an object (`arrUserProofs`, say).
    public func isComposite(_ key: String) -> Bool {
        switch raw[key] {
        case .array?, .object?: return true
        default: return false
        }
    }

}

/// A page read offline: everything the sign-in engine needs, as plain values. Built once from the bytes
/// (libxml2's document is freed before the initialiser returns); immutable and `Sendable`, so it can be
/// shared across tasks and threads. Parsing is pure (no I/O, no network, nothing printed) and may run on
/// several threads at once.
public struct HTMLPage: Sendable {
    /// The URL the page was fetched from.
    public let url: String
    /// The `href` of the first `<base>` element, as written.
    public let baseHref: String?
    /// The URL relative references resolve against (`<base href>` resolved, else `url`).
    public let baseURL: String
    /// The `<title>` text, whitespace collapsed.
    public let title: String?
    /// The forms a browser builds, in document order, each with the controls it owns.
    public let forms: [HTMLForm]
    /// The first meta refresh outside `<noscript>`.
    public let metaRefresh: MetaRefresh?
    /// Inline script texts, in document order.
    public let scripts: [String]
    /// `src` of external scripts, resolved.
    public let scriptSources: [String]
    /// The absolute target of the first script redirect (`window.location = '…'`, `location.replace(…)`…).
    public let scriptRedirect: String?
    /// A form the page submits by itself.
    public let selfSubmit: SelfSubmit?
    /// The script configuration object (Entra ID's `$Config`…), when a script assigns one.
    public let aadConfig: AADConfig?
    /// Visible error messages (role=alert, error ids/classes), in document order.
    public private(set) var errorMessages: [String]
    /// The messages of ``errorMessages`` shown with an error's severity (`role=alert`, `alert-danger`, an error
    /// class, an error heading), not as a notice (`alert alert-info`), in page order.
    public private(set) var severeErrorMessages: [String]

    /// The visible headings, in document order (`h1`–`h6`, `role=heading`, elements named title/header).
    public let headings: [String]
    /// The visible text of the page, blocks joined by newlines (at most 16 KiB): for signals in the words a
    /// page shows ("approve on your phone", "your password has expired").
    public let visibleText: String

    /// The absolute targets of the page's visible links (`<a href>`, no `javascript:`), in document order.
    public let links: [String]
    /// What the page's images say of themselves: each `<img>`'s file name (without its folder) and `alt` text.
    public let imageNames: [String]
    /// The WebAuthn options the page carries for `navigator.credentials` (objects with a `challenge` member, from
    /// its scripts, JSON blocks and attributes), in page order; empty on most pages.
    public let passkeyOptions: [JSONValue]

    /// The first error message (the one a person reads first); nil when there is none.
    public var errorText: String? { errorMessages.first }

    /// The page with `message` added as the last error it shows, with an error's severity (a message its scripts
    /// write, which the markup does not hold); the page itself when it already shows it.
    public func showing(errorMessage message: String) -> HTMLPage {
        guard !message.isEmpty, !errorMessages.contains(message) else { return self }
        var page = self
        page.errorMessages.append(message)
        page.severeErrorMessages.append(message)
        return page
    }

    /// Reads a page.
    /// - Parameters:
    ///   - bytes: the body as received.
    ///   - url: the absolute URL it came from (after redirects).
    ///   - charset: the charset from the HTTP `Content-Type`, if any; it overrides the page's own `<meta>`.
    public init(bytes: [UInt8], url: String, charset: String? = nil) throws(HTMLError) {
        guard let tree = DOMParser.parseTree(bytes: bytes, url: url, charset: charset) else {
            throw .unparseable(url: url)
        }
        self = PageReader(root: tree.root, elements: tree.elements, bytes: bytes, url: url).page()
    }

    /// The `charset` parameter of a `Content-Type` header value (`text/html; charset="utf-8"` → `utf-8`);
    /// nil when there is none. Pass it as `charset` to the initialiser.
    public static func charset(fromContentType contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1).map {
                String($0).trimmingASCIIWhitespace()
            }
            guard parts.count == 2, parts[0].lowercased() == "charset" else { continue }
            var value = Substring(parts[1])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            let charset = String(value).trimmingASCIIWhitespace()
            return charset.isEmpty ? nil : charset
        }
        return nil
    }

    /// Reads a page from text (encoded as UTF-8 and parsed as such).
    public init(html: String, url: String) throws(HTMLError) {
        try self.init(bytes: Array(html.utf8), url: url, charset: "UTF-8")
    }

    init(
        url: String, baseHref: String?, baseURL: String, title: String?, forms: [HTMLForm], metaRefresh: MetaRefresh?,
        scripts: [String], scriptSources: [String], scriptRedirect: String?, selfSubmit: SelfSubmit?,
        aadConfig: AADConfig?, errorMessages: [String], severeErrorMessages: [String]? = nil,
        headings: [String] = [], visibleText: String = "",
        links: [String] = [], imageNames: [String] = [], passkeyOptions: [JSONValue] = []
    ) {
        self.passkeyOptions = passkeyOptions
        self.links = links
        self.imageNames = imageNames
        self.url = url
        self.baseHref = baseHref
        self.baseURL = baseURL
        self.title = title
        self.forms = forms
        self.metaRefresh = metaRefresh
        self.scripts = scripts
        self.scriptSources = scriptSources
        self.scriptRedirect = scriptRedirect
        self.selfSubmit = selfSubmit
        self.aadConfig = aadConfig
        self.errorMessages = errorMessages
        self.severeErrorMessages = severeErrorMessages ?? errorMessages
        self.headings = headings
        self.visibleText = visibleText
    }
}
