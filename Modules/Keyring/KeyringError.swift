/// Why the Secret Service keyring could not keep or give a password. Each message says what happened and which
/// other password sources work without a keyring (the apps' `--password-command`, `SPCONNECT_PASSWORD`).
package enum KeyringError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No Secret Service can be reached: no session bus (`DBUS_SESSION_BUS_ADDRESS` unset, as on a server or in
    /// CI), or nothing on the bus provides `org.freedesktop.secrets` (no gnome-keyring, KeePassXC, KWallet...).
    /// `detail` is the bus's own text, when there was a call.
    case noService(detail: String?)
    /// The keyring holding (or meant to hold) the entry is locked and was not unlocked: the unlock prompt could not
    /// be shown (no display) or was dismissed.
    case locked(detail: String?)
    /// No entry for this site and user (never stored, or removed since).
    case notFound(KeyringEntry)
    /// The Secret Service or the bus refused the call.
    case denied(detail: String?)
    /// The keyring did not answer in time (an unlock prompt nobody answers, a service that never starts); the
    /// call was cancelled.
    case timedOut(seconds: Int)
    /// Any other failure, with the library's own text.
    case failed(detail: String)

    /// What the user can use instead of the keyring.
    package static let alternatives =
        "use --password-command CMD instead (for example 'pass show sp' or 'systemd-creds cat sp-password'), "
        + "or set SPCONNECT_PASSWORD"

    /// What happened, then the alternatives.
    package var description: String {
        let what: String
        switch self {
        case .noService(let detail):
            what =
                "no Secret Service keyring is reachable (no desktop session bus with gnome-keyring, KeePassXC or "
                + "KWallet running)" + Self.quoted(detail)
        case .locked(let detail):
            what =
                "the keyring is locked and could not be unlocked here (unlock it in the desktop session)"
                + Self.quoted(detail)
        case .notFound(let entry):
            what = "the keyring has no password for \(entry.user) at \(entry.origin)"
        case .denied(let detail):
            what = "the keyring refused access" + Self.quoted(detail)
        case .timedOut(let seconds):
            what =
                "the keyring did not answer within \(seconds) s (an unlock prompt nobody can answer?), so the call "
                + "was cancelled"
        case .failed(let detail):
            what = "the keyring call failed: \(detail)"
        }
        return what + "; " + Self.alternatives
    }

    private static func quoted(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "" }
        return " (\(detail))"
    }
}
