import AppSupport
import AuthFlow
import Foundation
import Synchronization
import Transport

/// The watched profile's password, from the chain every app uses (``PasswordChain``: `SPCONNECT_PASSWORD`,
/// `SPCONNECT_PASSWORD_FILE`, the login's command or `SPCONNECT_PASSWORD_COMMAND`, the keyring; no prompt, the app
/// has no terminal), so the status app signs in again wherever `spconnect` would.
///
/// The chain is read again from the saved session at each sign-in (a login elsewhere may have changed it), and its
/// source is asked only then: a command runs, the keyring is asked, once per sign-in, never per page. Every
/// password it gave is kept in memory for the pages' scrubber (``known``), as one from the environment is; the
/// cheap sources (the environment, a password file) are read at start, so the scrubber knows them from the first
/// page.
final class StatusPasswords: Sendable {
    private let profile: String
    private let store: SessionStore
    private let environment: [String: String]
    private let state = Mutex<(known: [Secret], problem: String?)>(([], nil))
    /// Whether a source is set for the session saved when the app started (shows "Sign in again").
    let canSignIn: Bool

    init(profile: String, store: SessionStore, environment: [String: String]) {
        self.profile = profile
        self.store = store
        self.environment = environment
        let chain = PasswordChain(
            session: try? store.load(profile: profile), environment: environment, terminal: false)
        canSignIn = chain.first != nil
        switch chain.first {
        case .environment?, .file?: _ = next()
        default: break
        }
    }

    /// The password for a sign-in from the chain's first source; nil, with the reason kept for the page
    /// (``problem``) and said on standard error, when it gives none.
    func next() -> Secret? {
        let chain = PasswordChain(session: try? store.load(profile: profile), environment: environment, terminal: false)
        switch chain.password(ask: { nil }) {
        case .password(let secret, _):
            state.withLock {
                if !$0.known.contains(secret) { $0.known.append(secret) }
                $0.problem = nil
            }
            return secret
        case .failed(let source, let reason):
            let problem = "\(source) gave no password: \(reason)"
            state.withLock { $0.problem = problem }
            FileHandle.standardError.write(Data("spconnect-status: \(problem)\n".utf8))
            return nil
        case .none:
            state.withLock {
                $0.problem =
                    "no password source is set (SPCONNECT_PASSWORD, SPCONNECT_PASSWORD_FILE, "
                    + "SPCONNECT_PASSWORD_COMMAND, login --password-command or --save-password)"
            }
            return nil
        }
    }

    /// Every password the chain gave so far, and every one-time code and TOTP secret remembered.
    var known: [Secret] { state.withLock { $0.known } }

    /// Keeps `secret` (a one-time code, a TOTP secret) for the pages' scrubber.
    @Sendable func remember(_ secret: Secret) {
        state.withLock { if !$0.known.contains(secret) { $0.known.append(secret) } }
    }

    /// Why the last sign-in got no password, nil when it got one.
    var problem: String? { state.withLock { $0.problem } }
}
