import AuthFlow
import CommandLineKit
import Foundation
import Keyring
import Transport

/// `login --save-password`: the password kept in the desktop's Secret Service keyring (gnome-keyring, KeePassXC,
/// KWallet) under SPConnect's own schema, one entry per site origin and user. The session file only says that the
/// keyring holds it (`"passwordSource":"keyring"`); renewals look it up there (``PasswordChain``), `logout`
/// removes it.
enum SavedPassword {
    /// The option of `login`.
    static let option = OptionSpec.flag(
        .savePassword, "keep the password in the desktop keyring (Secret Service) for renewals; refused without one")

    /// The option of `logout`.
    static let forgetOption = OptionSpec.flag(
        .forgetPassword, "only remove the password saved with --save-password; keep the session")

    /// A keyring client whose calls end after `SPCONNECT_KEYRING_TIMEOUT` seconds (``Keyring/init(environment:)``).
    static func keyring(environment: [String: String] = ProcessInfo.processInfo.environment) -> Keyring {
        Keyring(environment: environment)
    }

    /// Refuses `--save-password` before any request is made when it cannot work: with a sign-in that has no
    /// password to keep, or with no Secret Service to keep it in (a server, CI, an ssh session without a desktop).
    static func checkBeforeSignIn(_ arguments: ParsedArguments) async throws(UsageError) {
        guard arguments.has(.savePassword) else { return }
        if arguments.value(.passwordCommand) != nil {
            throw UsageError(
                description: "--save-password and --password-command do not go together: the command already gives "
                    + "the password at every renewal")
        }
        if arguments.value(.flow) == SignInFlow.anonymous.rawValue || arguments.value(.appId) != nil {
            throw UsageError(description: "--save-password is for password sign-ins; this one uses no password")
        }
        do {
            try await keyring().checkAvailable()
        } catch {
            throw UsageError(description: "--save-password cannot be used here: \(error.description)")
        }
    }

    /// Keeps `password` for `session`'s site and user; true when it was stored (a failure is said on stderr).
    static func store(_ password: Secret, for session: Session) async -> Bool {
        guard let entry = KeyringEntry(site: session.siteURL, user: session.user) else {
            printError("spconnect login: the password was not saved: '\(session.siteURL)' has no host")
            return false
        }
        do {
            try await keyring().store(password, for: entry)
            return true
        } catch {
            printError("spconnect login: the password was not saved in the keyring: \(error.description)")
            return false
        }
    }

    /// Removes the password saved for `session`; false when the keyring had none. Throws when the keyring cannot
    /// be reached or refuses.
    @discardableResult
    static func forget(for session: Session) async throws(KeyringError) -> Bool {
        guard let entry = KeyringEntry(site: session.siteURL, user: session.user) else { return false }
        return try await keyring().remove(entry)
    }
}
