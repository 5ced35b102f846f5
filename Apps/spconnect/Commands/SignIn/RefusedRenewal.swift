import AppSupport
import AuthFlow
import Foundation
import Synchronization

/// A renewal whose password the identity provider refused: exit 3 (invalid credentials), as `login` with that
/// password would end, with the identity provider's own words first, instead of exit 11 and the words after a URL.
///
/// Every profile a command opens registers its renewal here (``SessionContext/open(_:)``); a command that failed
/// because the session ended asks ``report(_:)`` whether a renewal was refused.
enum RefusedRenewal {
    private static let renewals = Mutex<[ProfileRenewal]>([])

    /// Watches `renewal` for a refused password.
    static func watch(_ renewal: ProfileRenewal) {
        renewals.withLock { $0.append(renewal) }
    }

    /// When a renewal of this run was refused the password: prints why, led by the identity provider's words, and
    /// returns ``ExitCode/invalidCredentials``; nil otherwise (the caller reports the ended session as it would).
    static func report(_ command: String) async -> ExitCode? {
        for renewal in renewals.withLock({ $0 }).reversed() {
            guard let failure = await renewal.lastFailure,
                case .invalidCredentials(let message, let code) = failure.outcome
            else { continue }
            let session = await renewal.current
            let words = message.trimmingCharacters(in: .whitespacesAndNewlines)
            let source = PasswordChain(
                session: session, environment: ProcessInfo.processInfo.environment, terminal: isatty(STDIN_FILENO) == 1
            ).first?.description
            printError(
                "spconnect \(command): \(words.isEmpty ? "the password was refused" : words)"
                    + (code.map { " (code \($0))" } ?? "")
                    + " — the identity provider refused the password when the session of \(session.user) was "
                    + "renewed. Check the password\(source.map { " from \($0)" } ?? ""), or run 'spconnect login' again."
            )
            return .invalidCredentials
        }
        return nil
    }
}
