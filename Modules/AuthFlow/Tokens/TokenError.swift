import Cryptography
public import Transport

/// Why a token sign-in (app-only or device code), or a renewal, failed. ``reason`` is what a caller acts on (apps
/// map it to exit codes); ``description`` says what happened and what to do. Never carries a token, a key, an
/// assertion or a password.
public struct TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as far as the user can act on it: compare it (`error.reason == .declined`) or switch on it,
    /// with a `default:`.
    ///
    /// An open set of codes: a later version may add one without breaking a client's `switch` (private storage
    /// behind static members, as async-http-client's `HTTPClientError` keeps its codes). Two reasons are equal when
    /// their codes are; a network failure's own kind is ``transportKind``.
    public struct Reason: Sendable, Equatable {
        fileprivate enum Code: Sendable, Equatable {
            case clientSecretRefused, credentialFile, certificateNotRegistered, appNotFound, invalidSecret, clockSkew
            case invalidScope, notPublicClient, blockedByPolicy, declined, codeExpired, refreshRejected
            case tenantNotDiscovered, insecureAuthority, refused, transport, unexpectedResponse
        }

        fileprivate let code: Code
        /// For ``transport``: Transport's own kind of failure.
        public let transportKind: TransportError.Kind?

        private init(_ code: Code, transportKind: TransportError.Kind? = nil) {
            self.code = code
            self.transportKind = transportKind
        }

        /// Equal codes (a network failure's kind is not compared).
        public static func == (lhs: Reason, rhs: Reason) -> Bool { lhs.code == rhs.code }

        /// A client secret was offered for SharePoint, which rejects app-only tokens obtained with one.
        public static let clientSecretRefused = Reason(.clientSecretRefused)
        /// The certificate or key file cannot be used (missing, not 0600, unreadable, wrong password, mismatched).
        public static let credentialFile = Reason(.credentialFile)
        /// Entra does not know the certificate for this app (AADSTS700027), or its signature is wrong.
        public static let certificateNotRegistered = Reason(.certificateNotRegistered)
        /// The app id is not registered in the tenant (AADSTS700016).
        public static let appNotFound = Reason(.appNotFound)
        /// Entra rejected the client secret (AADSTS7000215).
        public static let invalidSecret = Reason(.invalidSecret)
        /// The assertion was outside its valid time (AADSTS700024): the clock is off.
        public static let clockSkew = Reason(.clockSkew)
        /// The scope names a resource the tenant does not have (AADSTS70011 / 500011).
        public static let invalidScope = Reason(.invalidScope)
        /// The app is not a public client, so the device code flow is not allowed (AADSTS7000218).
        public static let notPublicClient = Reason(.notPublicClient)
        /// Conditional Access or security defaults block this sign-in (AADSTS53003 / 530035).
        public static let blockedByPolicy = Reason(.blockedByPolicy)
        /// The user declined the device code request.
        public static let declined = Reason(.declined)
        /// The device code expired before anyone entered it.
        public static let codeExpired = Reason(.codeExpired)
        /// The refresh token is no longer accepted (inactivity, sign-in frequency, revocation): sign in again.
        public static let refreshRejected = Reason(.refreshRejected)
        /// The tenant could not be read from the site's `WWW-Authenticate: Bearer realm=…` challenge.
        public static let tenantNotDiscovered = Reason(.tenantNotDiscovered)
        /// The token endpoint would get the assertion over plain http (not loopback with consent).
        public static let insecureAuthority = Reason(.insecureAuthority)
        /// Any other answer of the token endpoint (the server's code and text are in the message).
        public static let refused = Reason(.refused)
        /// The network failed.
        public static let transport = Reason(.transport)
        /// A ``transport`` reason carrying its ``transportKind``.
        package static func transport(carrying kind: TransportError.Kind) -> Reason {
            Reason(.transport, transportKind: kind)
        }
        /// An answer that is not what the protocol says.
        public static let unexpectedResponse = Reason(.unexpectedResponse)
    }

    /// What went wrong, in the terms a user acts on.
    public var reason: Reason
    /// The server's error code (`invalid_client`) and AADSTS numbers, when the token endpoint answered.
    public var serverError: String?
    /// The AADSTS numbers in the answer, when there were any.
    public var serverCodes: [Int]
    /// The server's own text (scrubbed of nothing: it carries no secret of ours) or the local detail.
    public var detail: String?

    /// An error of `reason`, with what the server or the local check said.
    public init(_ reason: Reason, serverError: String? = nil, serverCodes: [Int] = [], detail: String? = nil) {
        self.reason = reason
        self.serverError = serverError
        self.serverCodes = serverCodes
        self.detail = detail
    }

    /// A credential file problem, from Cryptography's reason.
    static func credential(_ path: String, _ error: CryptoError) -> TokenError {
        TokenError(.credentialFile, detail: "\(path): \(error)")
    }

    /// One sentence: what failed, and what to do.
    public var description: String {
        var text: String
        switch reason.code {
        case .clientSecretRefused:
            text =
                "SharePoint rejects app-only tokens obtained with a client secret ('Unsupported app only token'): "
                + "register a certificate for the app in Entra (Certificates & secrets) and sign in with it"
        case .credentialFile:
            text = "the app's certificate or private key cannot be used"
        case .certificateNotRegistered:
            text =
                "Entra does not accept the certificate for this app: upload this certificate (the .crt/.pem file) to "
                + "the app registration under Certificates & secrets, or use the key that belongs to the registered one"
        case .appNotFound:
            text = "no app with this id is registered in the tenant: check the app (client) id and the tenant"
        case .invalidSecret:
            text = "Entra rejected the client secret"
        case .clockSkew:
            text = "Entra says the client assertion is outside its valid time: check this machine's clock"
        case .invalidScope:
            text = "Entra does not know the resource asked for: check that the site is the tenant's SharePoint host"
        case .notPublicClient:
            text =
                "the app registration does not allow the device code flow: in Entra, set Authentication > "
                + "'Allow public client flows' to Yes"
        case .blockedByPolicy:
            text =
                "a Conditional Access policy (or security defaults) blocks this sign-in: ask an administrator, or use "
                + "app-only sign-in with a certificate"
        case .declined:
            text = "the sign-in was declined on the device code page"
        case .codeExpired:
            text = "the device code expired before it was entered: sign in again and enter the code in time"
        case .refreshRejected:
            text =
                "the refresh token is no longer accepted (expired, revoked or a new sign-in is required): sign in again"
        case .tenantNotDiscovered:
            text = "the tenant could not be read from the site's Bearer challenge: give the tenant id or domain"
        case .insecureAuthority:
            text = "the token endpoint is not https: the client assertion would travel in clear"
        case .refused:
            text = "the token endpoint refused the request"
        case .transport:
            text = "the token endpoint could not be reached"
        case .unexpectedResponse:
            text = "the token endpoint's answer could not be read"
        }
        if let serverError {
            text +=
                " (" + serverError
                + (serverCodes.isEmpty ? "" : ", AADSTS" + serverCodes.map(String.init).joined(separator: "/AADSTS"))
                + ")"
        }
        if let detail, !detail.isEmpty { text += ": " + detail }
        return text
    }
}
