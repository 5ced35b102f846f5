public import TransportValues

/// One request the sign-in machine wants performed, exactly as a browser would send it.
public struct SignInRequest: Sendable {
    /// Why the machine sends this request (for traces and tests).
    public enum Purpose: String, Sendable {
        case start, redirect, refresh, scriptRedirect, autoPost, username, credentials, interrupt, providerChoice
        case proof, oneTimeCode
        /// A call of a second-factor service (Entra's BeginAuth, EndAuth), or its final post.
        case secondFactor
    }

    /// The HTTP method (`GET`, `POST`).
    public var method: String
    /// The absolute URL to send to.
    public var url: String
    /// The form fields sent: a POST sends them as its body (`application/x-www-form-urlencoded`); a GET form
    /// already has them in `url`'s query and sends no body. Nil for no form.
    public var form: [(name: String, value: String)]?
    /// A raw body (SOAP, JSON) with its content type, or nil.
    public var rawBody: (contentType: String, bytes: [UInt8])?
    /// Headers of the request itself (a service call's canary, a content type); the driver adds the browser's.
    public var headers: [(name: String, value: String)]
    /// Why the machine sends it.
    public var purpose: Purpose
    /// True when the user name or password is in `form`, `rawBody` or `authentication`: the policy checks where it goes.
    public var carriesCredentials: Bool
    /// True when the password itself is in it (not only the user name, as in a username-first step or Entra's
    /// `GetCredentialType` question): such a request must be a POST. Kept when a 307/308 repeats the request.
    public var carriesPassword: Bool
    /// HTTP authentication libcurl should perform (NTLM, Basic), or nil.
    public var authentication: Authentication?
    /// HTTP authentication for the redirect that answers this request, on the same host only, when this request
    /// itself goes without it (a provider chooser's Windows choice: its post-back leads to an NTLM challenge).
    public var redirectAuthentication: Authentication?
    /// How long to wait before sending it (a second factor's poll at the page's interval); nil: at once.
    public var delay: Duration?
    /// What to tell the person at the terminal before it goes ("Approve the sign-in on your phone: enter 42"), for
    /// ``SignIn/Options/notice``; never a secret.
    public var notice: String?
    /// The page this request was sent from (a form, link, refresh or script on it), for `Referer` and `Origin`;
    /// nil for the first request and the proof. A redirect keeps the referrer of the request it redirects.
    public var referrer: String?
    /// The passkey as it is after the assertion this request carries (its counter raised): save it before the
    /// request goes, so no count is ever used twice. Nil when the request carries no assertion.
    public var passkeyUsed: PasskeyCredential?
    /// The TLS client certificate to present for this request (the certauth endpoint only), or nil.
    public var clientCertificate: ClientCertificate?

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
