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

/// Entra ID's `$Config` object (or Microsoft account's `ServerData`, or another script object literal that
/// carries `urlPost`), with accessors for the keys sign-in needs. Values are as on the page.
public struct AADConfig: Sendable, Equatable {
    /// The whole decoded object.
    public let raw: JSONValue

    /// Wraps a decoded configuration object.
    init(raw: JSONValue) {
        self.raw = raw
    }

    /// The page id (`ConvergedSignIn`, `KmsiInterrupt`, `ConvergedTFA`…).
    public var pgid: String? { raw["pgid"]?.stringValue }
    /// Where the page posts (`urlPost`).
    public var urlPost: String? { raw["urlPost"]?.stringValue }
    /// The name the flow token is posted under: `sFTName`, else the `name` of the hidden input in `sFTTag`
    /// (Microsoft account pages post it as `PPFT`).
    public var flowTokenName: String? {
        raw["sFTName"]?.stringValue ?? flowTokenInput.flatMap { ScriptReading.inputAttributes(in: $0).name }
    }
    /// The flow token: `sFT`, else the `value` of the hidden input in `sFTTag`. A secret: never log it.
    public var flowToken: String? {
        raw["sFT"]?.stringValue ?? flowTokenInput.flatMap { ScriptReading.inputAttributes(in: $0).value }
    }
    /// The markup of the hidden flow-token input (`sFTTag`), when the page carries one.
    private var flowTokenInput: String? { raw["sFTTag"]?.stringValue }
    /// The request context (`sCtx`), absent on some interrupts.
    public var context: String? { raw["sCtx"]?.stringValue }
    /// The canary (`canary`). A secret: never log it.
    public var canary: String? { raw["canary"]?.stringValue }
    /// The name the canary is posted under (`sCanaryTokenName`), when the page gives one.
    public var canaryTokenName: String? { raw["sCanaryTokenName"]?.stringValue }
    /// The error code (`sErrorCode`); `50058` means "not signed in yet", not a failure.
    public var errorCode: String? { raw["sErrorCode"]?.stringValue }
    /// The error message (`sErrTxt`); empty when there is none.
    public var errorText: String? { raw["sErrTxt"]?.stringValue }
    /// The `authMethodId`s of `arrUserProofs` (second-factor methods offered).
    public var proofMethods: [String] {
        raw["arrUserProofs"]?.arrayValue?.compactMap { $0["authMethodId"]?.stringValue } ?? []
    }

    /// The `authMethodId` of the proof marked `isDefault` in `arrUserProofs`, if one is.
    public var defaultProofMethod: String? {
        raw["arrUserProofs"]?.arrayValue?.first { $0["isDefault"]?.boolValue == true }?["authMethodId"]?.stringValue
    }

    /// The seconds between polls for `method` in `oPerAuthPollingInterval`, when the page gives them.
    public func pollingInterval(for method: String) -> Double? {
        switch raw["oPerAuthPollingInterval"]?[method] {
        case .double(let seconds)?: return seconds
        case .integer(let seconds)?: return Double(seconds)
        default: return nil
        }
    }

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

    /// The same configuration with the flow token `sFT` replaced (a service call answered with a newer one).
    public func replacingFlowToken(with token: String) -> AADConfig {
        guard case .object(var members) = raw else { return self }
        if let index = members.firstIndex(where: { $0.0 == "sFT" }) {
            members[index].1 = .string(token)
        } else {
            members.append(("sFT", .string(token)))
        }
        return AADConfig(raw: .object(members))
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
    /// Entra ID's `$Config`, when a script assigns one.
    public let aadConfig: AADConfig?
    /// Visible error messages (role=alert, error ids/classes, `$Config.sErrTxt`), in document order.
    public let errorMessages: [String]
    /// The messages of ``errorMessages`` shown with an error's severity (`role=alert`, `alert-danger`, an error
    /// class, an error heading), not as a notice (`alert alert-info`), in page order.
    public let severeErrorMessages: [String]

    /// The visible headings, in document order (`h1`–`h6`, `role=heading`, elements named title/header).
    public let headings: [String]
    /// The visible text of the page, blocks joined by newlines (at most 16 KiB): for signals in the words a
    /// page shows ("approve on your phone", "your password has expired").
    public let visibleText: String

    /// The absolute targets of the page's visible links (`<a href>`, no `javascript:`), in document order.
    public let links: [String]
    /// What the page's images say of themselves: each `<img>`'s file name (without its folder) and `alt` text.
    public let imageNames: [String]

    /// The first error message (the one a person reads first); nil when there is none.
    public var errorText: String? { errorMessages.first }

    /// Reads a page.
    /// - Parameters:
    ///   - bytes: the body as received.
    ///   - url: the absolute URL it came from (after redirects).
    ///   - charset: the charset from the HTTP `Content-Type`, if any; it overrides the page's own `<meta>`.
    public init(bytes: [UInt8], url: String, charset: String? = nil) throws(HTMLError) {
        guard let root = DOMParser.parse(bytes: bytes, url: url, charset: charset) else {
            throw .unparseable(url: url)
        }
        self = PageReader(root: root, bytes: bytes, url: url).page()
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
        links: [String] = [], imageNames: [String] = []
    ) {
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
