import Foundation
public import Transport

/// Which sign-in route to take. `auto` lets the pages decide.
public enum SignInFlow: String, Sendable, CaseIterable {
    case auto, entra, adfs, fba, forms, ntlm, basic, anonymous
    case legacySPO = "legacy-spo"
    /// ADFS's WS-Trust endpoint instead of its HTML pages.
    case adfsWSTrust = "adfs-ws-trust"
    /// SharePoint's `authentication.asmx` forms web service instead of the sign-in page.
    case fbaSOAP = "fba-soap"
}

/// Everything one sign-in needs. A plain value; the password is a `Secret`.
public struct SignInConfiguration: Sendable {
    /// The site URL, e.g. `https://contoso.sharepoint.com/sites/team` (a trailing slash is dropped).
    public var siteURL: String
    public var username: String
    public var password: Secret
    public var flow: SignInFlow
    public var policy: SignInPolicy
    /// Answer "Stay signed in?" (KMSI) with yes.
    public var staySignedIn: Bool
    /// The cookies that mean "signed in"; empty picks the default: `FedAuth`, plus `rtFa` on SharePoint Online.
    public var targetCookies: [String]
    /// The login service of the legacy route (`--flow legacy-spo`); nil picks it from the site's cloud.
    public var loginURL: String?
    /// What the sign-in is for: a SharePoint site (the default), or any web page (`siteURL` is then where the
    /// sign-in starts, kept as given).
    public var target: SignInTarget

    public init(
        siteURL: String, username: String, password: Secret, flow: SignInFlow = .auto,
        policy: SignInPolicy = SignInPolicy(), staySignedIn: Bool = false, targetCookies: [String] = [],
        loginURL: String? = nil, target: SignInTarget = .sharePoint
    ) {
        var site = siteURL
        if target == .sharePoint { while site.hasSuffix("/") { site.removeLast() } }
        self.siteURL = site
        self.target = target
        self.username = username
        self.password = password
        self.flow = flow
        self.policy = policy
        self.staySignedIn = staySignedIn
        self.targetCookies = targetCookies
        self.loginURL = loginURL
    }

    /// A sign-in to any web page behind single sign-on: start at `url`, prove with `proofURL` (default `url`).
    /// `cookies` are the names or shell globs that mean signed in; empty means the cookies the target's host sets
    /// during the sign-in.
    public static func web(
        url: String, username: String, password: Secret, cookies: [String] = [], proofURL: String? = nil,
        policy: SignInPolicy = SignInPolicy(), staySignedIn: Bool = false
    ) -> SignInConfiguration {
        SignInConfiguration(
            siteURL: url, username: username, password: password, flow: .auto, policy: policy,
            staySignedIn: staySignedIn, targetCookies: cookies, target: .web(proofURL: proofURL ?? url))
    }

    /// The cookies (names or globs) the engine waits for before it tries the proof.
    public var expectedCookies: [String] {
        if !targetCookies.isEmpty { return targetCookies }
        if case .web = target { return [] }
        switch flow {
        case .basic, .anonymous: return []
        default:
            let host = URLParts(siteURL)?.host ?? ""
            return host.hasSuffix(".sharepoint.com") ? ["FedAuth", "rtFa"] : ["FedAuth"]
        }
    }
}

/// One request the sign-in machine wants performed, exactly as a browser would send it.
public struct SignInRequest: Sendable {
    /// Why the machine sends this request (for traces and tests).
    public enum Purpose: String, Sendable {
        case start, redirect, refresh, scriptRedirect, autoPost, username, credentials, interrupt, providerChoice
        case proof, oneTimeCode
    }

    public var method: String
    public var url: String
    /// The form fields sent: a POST sends them as its body (`application/x-www-form-urlencoded`); a GET form
    /// already has them in `url`'s query and sends no body. Nil for no form.
    public var form: [(name: String, value: String)]?
    /// A raw body (SOAP, JSON) with its content type, or nil.
    public var rawBody: (contentType: String, bytes: [UInt8])?
    public var headers: [(name: String, value: String)]
    public var purpose: Purpose
    /// True when the user name or password is in `form`, `rawBody` or `authentication`: the policy checks where it goes.
    public var carriesCredentials: Bool
    /// True when the password itself is in it (not only the user name, as in a username-first step or Entra's
    /// `GetCredentialType` question): such a request must be a POST. Kept when a 307/308 repeats the request.
    public var carriesPassword: Bool
    /// HTTP authentication libcurl should perform (NTLM, Basic), or nil.
    public var authentication: Authentication?
    /// The page this request was sent from (a form, link, refresh or script on it), for `Referer` and `Origin`;
    /// nil for the first request and the proof. A redirect keeps the referrer of the request it redirects.
    public var referrer: String?

    init(
        method: String = "GET", url: String, form: [(name: String, value: String)]? = nil,
        rawBody: (contentType: String, bytes: [UInt8])? = nil, headers: [(name: String, value: String)] = [],
        purpose: Purpose, carriesCredentials: Bool = false, authentication: Authentication? = nil
    ) {
        self.method = method
        self.url = url
        self.form = form
        self.rawBody = rawBody
        self.headers = headers
        self.purpose = purpose
        self.carriesCredentials = carriesCredentials
        self.carriesPassword = carriesCredentials && purpose != .username
        self.authentication = authentication
    }
}

/// What came back for a `SignInRequest`, plus the jar's view of the site afterwards.
public struct SignInResponse: Sendable {
    /// The URL that was requested.
    public var url: String
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The absolute redirect target of a 3xx, resolved against `url`.
    public var location: String?
    public var body: [UInt8]
    /// The cookies the jar would now send to the site, with their attributes.
    public var siteCookies: [Cookie]

    public init(
        url: String, status: Int, headers: [(name: String, value: String)], location: String?, body: [UInt8],
        siteCookies: [Cookie]
    ) {
        self.url = url
        self.status = status
        self.headers = headers
        self.location = location
        self.body = body
        self.siteCookies = siteCookies
    }

    /// The first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The charset from `Content-Type`, when given.
    var charset: String? {
        guard let type = header("Content-Type"), let range = type.range(of: "charset=", options: .caseInsensitive)
        else { return nil }
        return String(type[range.upperBound...].prefix { $0 != ";" && $0 != " " }).trimmingCharacters(
            in: CharacterSet(charactersIn: "\"'"))
    }
}

/// The machine's next move.
public enum SignInAction: Sendable {
    case send(SignInRequest)
    case finish(SignInOutcome)
    /// A page asks for a one-time code: answer with ``SignInMachine/provide(code:)``.
    case needCode(OneTimeCodeRequest)
}
