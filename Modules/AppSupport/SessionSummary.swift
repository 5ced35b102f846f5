package import AuthFlow
package import Foundation
package import SharePoint

/// What a saved session is, in the words `spconnect status` and the status app both show, read from the session and
/// the environment without any request or command run: how long it lasts, how it would be renewed, and a token
/// session's facts.
package enum SessionSummary {
    /// "SharePoint session until …, identity-provider session until … (renews without a password)": how long the
    /// site's cookies last, and how long a renewal needs no password.
    ///
    /// `end` words each known end ("until" and the ISO 8601 time by default; a page may say "ending in 8h").
    package static func lifetimes(
        _ session: Session, end: (Date) -> String = { "until " + ISO8601DateFormatter().string(from: $0) }
    ) -> String {
        let site =
            session.cookies.compactMap(\.expires).min().map(end)
            ?? "until the site ends it"
        let what = session.proofURL == nil ? "SharePoint session" : "site session"
        guard !session.identityProviderCookies.isEmpty else {
            return "\(what) \(site); no identity-provider session kept (renewals need the password; "
                + "sign in with --stay-signed-in to keep one)"
        }
        let provider =
            session.identityProviderExpiry.map(end)
            ?? "until the identity provider ends it"
        return "\(what) \(site), identity-provider session \(provider) (renews without a password)"
    }

    /// How a command that finds `session` ended would sign in again (the `renewal:` line), or nil for a session whose
    /// token lines say it. The password source is the first of ``PasswordChain``'s, named, never run or quoted, so
    /// no summary claims a renewal that would fail.
    package static func renewal(_ session: Session, environment: [String: String], terminal: Bool) -> String? {
        guard session.tokens == nil else { return nil }
        let source = PasswordChain(session: session, environment: environment, terminal: terminal).first?.description
        switch session.flow {
        case SignInFlow.anonymous.rawValue:
            return "none needed (anonymous access)"
        case SignInFlow.basic.rawValue:
            guard let source else {
                return "none possible: HTTP Basic sends the password with every request and no password source is "
                    + "set, so every command fails (exit 11); set SPCONNECT_PASSWORD_FILE, SPCONNECT_PASSWORD or "
                    + "SPCONNECT_PASSWORD_COMMAND, or log in again with --password-command"
            }
            return "none needed: HTTP Basic sends the password with every request, from \(source)"
        default:
            var steps: [String] = []
            if !session.identityProviderCookies.isEmpty {
                if let expiry = session.identityProviderExpiry, expiry <= Date() {
                    steps.append("the identity provider's session has ended (no silent renewal)")
                } else {
                    steps.append("silently through the identity provider's session")
                }
            }
            if let source {
                steps.append("with the password from \(source)")
            } else {
                steps.append(
                    "no password source is set, so once the session ends commands fail with exit 11 (set "
                        + "SPCONNECT_PASSWORD_FILE, SPCONNECT_PASSWORD or SPCONNECT_PASSWORD_COMMAND, or log in with "
                        + "--password-command or --stay-signed-in)")
            }
            return steps.joined(separator: "; then ")
        }
    }

    /// A token session's facts as labelled lines (kind, app id, tenant, expiry, roles or scopes, certificate or
    /// refresh token); none for a cookie session.
    package static func tokenFacts(_ session: Session) -> [(label: String, value: String)] {
        guard let tokens = session.tokens else { return [] }
        let claims = tokens.claims
        let expiry = ISO8601DateFormatter().string(from: tokens.expiresAt)
        let state = tokens.expiresAt > Date() ? "" : " (expired; renewed on the next request)"
        var facts: [(label: String, value: String)] = [
            ("kind", tokens.kind == .appOnly ? "app-only (an app, no user)" : "delegated (device code)"),
            ("app id", tokens.appId), ("tenant", tokens.tenant), ("token", "expires \(expiry)\(state)"),
        ]
        if tokens.kind == .appOnly {
            facts.append(("roles", claims.roles.isEmpty ? "none" : claims.roles.joined(separator: ", ")))
            if let credential = tokens.certificate {
                facts.append(("cert", "\(credential.certificatePath) (\(credential.algorithm.rawValue))"))
            }
        } else {
            facts.append(("scopes", claims.scopes.isEmpty ? "none" : claims.scopes.joined(separator: ", ")))
            facts.append(("refresh", tokens.refreshToken == nil ? "none" : "kept (renews silently)"))
        }
        return facts
    }

    /// What to do when SharePoint denied `session`'s token access: what the token may do (an app's roles, a user's
    /// scopes) and the permissions that would be needed; nil for a cookie session or another failure.
    package static func tokenAccessAdvice(_ error: SharePointError, session: Session) -> String? {
        guard error.kind == .accessDenied, let tokens = session.tokens else { return nil }
        let granted = tokens.kind == .appOnly ? tokens.claims.roles : tokens.claims.scopes
        return "The " + (tokens.kind == .appOnly ? "app" : "user's token") + " has "
            + (granted.isEmpty ? "no SharePoint permission" : "only " + granted.joined(separator: ", "))
            + ". Grant the app Sites.Read.All (read), Sites.ReadWrite.All (write) or Sites.FullControl.All with admin "
            + "consent in Entra, or Sites.Selected and a grant for this site."
    }
}
