import AuthFlow
import Foundation
import Keyring
import Transport

/// The password `spconnect login --save-password` kept in the Secret Service keyring for the watched profile.
///
/// Looked up once, when the app starts, and kept in memory as a password from the environment is: every page asks
/// for the password (its scrubber removes it from what servers quote), and a keyring call per page would be slow
/// and could put up unlock prompts. Nothing is looked up for a session that did not save its password there.
enum StatusPassword {
    /// The saved password of `profile`'s session, or nil (said on standard error when the keyring was asked and
    /// gave none, so the first failed renewal is not the first sign of it).
    static func fromKeyring(profile: String, store: SessionStore, environment: [String: String]) -> Secret? {
        guard let session = try? store.load(profile: profile), session.passwordInKeyring,
            let entry = KeyringEntry(site: session.siteURL, user: session.user)
        else { return nil }
        do {
            return try Keyring(environment: environment).blockingPassword(for: entry)
        } catch {
            FileHandle.standardError.write(
                Data(
                    ("spconnect-status: the keyring gave no password (\(error.description)); renewals need "
                        + "SPCONNECT_PASSWORD or SPCONNECT_PASSWORD_FILE\n").utf8))
            return nil
        }
    }
}
