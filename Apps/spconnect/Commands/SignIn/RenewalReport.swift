import AppSupport
import AuthFlow
import Foundation

/// What `status` says about renewing a session: how a command that finds the session ended would sign in again,
/// read from the session and the environment without running anything (a password command is named, never run or
/// quoted), so `status` never claims a renewal that would fail.
enum RenewalReport {
    /// The `renewal:` line for `session`, or nil for a session whose own lines say it (token sessions).
    static func line(_ session: Session, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        guard session.tokens == nil else { return nil }
        let source = passwordSource(session, environment: environment)
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

    /// Where a renewal would take the password from: the first source of the chain renewals use
    /// (``PasswordChain``); nil when nowhere.
    static func passwordSource(_ session: Session, environment: [String: String]) -> String? {
        PasswordChain(session: session, environment: environment, terminal: isatty(STDIN_FILENO) == 1).first?
            .description
    }
}
