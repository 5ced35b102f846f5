/// The kind of a sign-in page, decided from generic signals by one of ``PageClassifier``'s rules.
///
/// An open set (decision 0017): a new kind is a static member declared in the file of the rule that finds it, so
/// adding one edits no list here. Two kinds are the same when their ``rawValue``s are.
public struct PageKind: Sendable, Hashable, CustomStringConvertible {
    /// The kind's own name (`credential-form`, `one-time-code`…), as `spconnect inspect` shows it.
    public let rawValue: String
    /// The coarser name the shared corpus manifest uses (`credential-form`, `auto-post`, `aad-config`, `kmsi`,
    /// `mfa`, `error`, `other`).
    public let manifestName: String
    /// Whether a page of this kind means the sign-in is still going on: such a page in answer to the proof
    /// request is no proof of being signed in.
    public let continuesSignIn: Bool

    /// A kind named `rawValue`, reported to the corpus as `manifestName`.
    public init(_ rawValue: String, manifestName: String, continuesSignIn: Bool = true) {
        self.rawValue = rawValue
        self.manifestName = manifestName
        self.continuesSignIn = continuesSignIn
    }

    /// Same kind: same ``rawValue``.
    public static func == (lhs: PageKind, rhs: PageKind) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Hashes the ``rawValue``.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The ``rawValue``.
    public var description: String { rawValue }
}

extension PageKind {
    /// A form asking for the user name and the password.
    public static let credentialForm = PageKind("credential-form", manifestName: "credential-form")
    /// An identifier-first step: the user name (or e-mail) only.
    public static let usernameStep = PageKind("username-step", manifestName: "credential-form")
    /// A password-only step (the user name was given on an earlier page).
    public static let passwordStep = PageKind("password-step", manifestName: "credential-form")
    /// A form of hidden fields the page submits by itself (SAML / WS-Fed / OIDC form_post).
    public static let autoPost = PageKind("auto-post", manifestName: "auto-post")
    /// A page driven by a script configuration (`$Config`, `ServerData`) with a `urlPost`, no usable form.
    public static let aadConfig = PageKind("aad-config", manifestName: "aad-config")
    /// "Stay signed in?".
    public static let kmsi = PageKind("kmsi", manifestName: "kmsi")
    /// A form asking for a one-time code (TOTP, SMS, token, PIN+token).
    public static let oneTimeCode = PageKind("one-time-code", manifestName: "mfa")
    /// A second factor with nothing to type: push approval or number matching, a security key (WebAuthn), a
    /// choice of device or method.
    public static let secondFactor = PageKind("second-factor", manifestName: "mfa")
    /// A page saying the sign-in (or the value just sent) failed.
    public static let error = PageKind("error", manifestName: "error")
    /// A forced password change, or a password that has expired: new-password fields.
    public static let passwordChange = PageKind("password-change", manifestName: "other")
    /// "Your password expires in N days": a notice with a way to continue.
    public static let passwordExpiring = PageKind("password-expiring", manifestName: "other")
    /// A notice or consent page with one obvious way on and nothing to type: "release these attributes? Yes,
    /// continue", terms to accept, "Continue". Once past the sign-in, such a page is the site's own.
    public static let notice = PageKind("notice", manifestName: "other", continuesSignIn: false)
    /// Nothing to act on but the page's own navigation (meta refresh, script redirect), or nothing at all.
    public static let other = PageKind("other", manifestName: "other", continuesSignIn: false)
}
