import AuthFlow
import Keyring

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect logout`: forget the saved session, and the password `login --save-password` kept in the keyring.
let logoutCommand = Command(
    name: "logout", summary: "Delete the saved session of a profile (and its password saved in the keyring).",
    synopsis: "[--profile NAME] [--forget-password]",
    options: [profileOption, SavedPassword.forgetOption],
    examples: [
        "spconnect logout",
        "spconnect logout --profile prod",
        "spconnect logout --forget-password",
    ]
) { arguments in
    let profile = arguments.value(.profile) ?? "default"
    let store = SessionStore()
    let session = try? store.load(profile: profile)
    if arguments.has(.forgetPassword) {
        guard var session, session.renewalPasswordSource == .keyring else {
            print("Profile '\(profile)' has no password saved in the keyring; nothing to forget.")
            return .ok
        }
        try await SavedPassword.forget(for: session)
        session.renewalPasswordSource = .unsaved
        try store.save(session, profile: profile)
        print(
            "The password of \(session.user) is removed from the keyring; the session of profile '\(profile)' is kept "
                + "(renewals need another password source).")
        return .ok
    }
    var keyringProblem: KeyringError?
    if let session, session.renewalPasswordSource == .keyring {
        do throws(KeyringError) {
            try await SavedPassword.forget(for: session)
        } catch {
            keyringProblem = error
        }
    }
    try store.remove(profile: profile)
    print("Signed out: the session of profile '\(profile)' and its last sign-in record are deleted.")
    if let keyringProblem {
        printError("spconnect logout: the password saved in the keyring was not removed: \(keyringProblem.description)")
        return .failure
    }
    if session?.renewalPasswordSource == .keyring { print("The password saved in the keyring is removed.") }
    return .ok
}
