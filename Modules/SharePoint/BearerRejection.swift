/// Why SharePoint refused a bearer token, read from its 401 answer (body and `WWW-Authenticate`).
public enum BearerRejection: Sendable, Equatable {
    /// `Unsupported app only token.`: an app-only token obtained with a client secret (`appidacr` 1). SharePoint
    /// accepts app-only tokens only from a certificate.
    case unsupportedAppOnlyToken
    /// `Invalid issuer or signature.`: the token is for another resource (audience) or another tenant.
    case wrongAudience
    /// Any other bearer refusal: the token expired, was revoked, or is not valid.
    case invalidToken

    /// What happened and what to do.
    public var sentence: String {
        switch self {
        case .unsupportedAppOnlyToken:
            "SharePoint refused the token: 'Unsupported app only token' (an app-only token obtained with a client "
                + "secret). SharePoint accepts app-only tokens only from a certificate: register one for the app and "
                + "sign in with it."
        case .wrongAudience:
            "SharePoint refused the token: 'Invalid issuer or signature' (it was issued for another resource or "
                + "tenant). Sign in again for this site's own host."
        case .invalidToken:
            "SharePoint refused the access token as expired or invalid, also after a new one was asked for: sign in "
                + "again."
        }
    }
}

extension SharePointError {
    /// Why a bearer token was refused, for a 401 that answers one (nil otherwise, and for cookie sessions' 401s
    /// without a Bearer challenge).
    public var bearerRejection: BearerRejection? {
        guard status == 401 else { return nil }
        let text = (message ?? "").lowercased()
        if text.contains("unsupported app only token") { return .unsupportedAppOnlyToken }
        if text.contains("invalid issuer or signature") { return .wrongAudience }
        if headers.wwwAuthenticate?.lowercased().hasPrefix("bearer") == true { return .invalidToken }
        return nil
    }
}
