import AuthFlow
import CommandLineKit

/// `--passkey FILE`: a software passkey (`spconnect passkey register` makes one), read under the passkey file's
/// rules: only its owner may read it, never a link.
enum PasskeyOptions {
    static let option = OptionSpec.path(
        .passkey, "FILE",
        "answer WebAuthn with the software passkey in FILE (0600; made by 'spconnect passkey register'); "
            + "no password is asked for unless a password flag is given")

    /// The passkey `--passkey` names and its file, nil without the flag.
    static func read(_ arguments: ParsedArguments) throws(UsageError) -> (
        credential: PasskeyCredential, file: PasskeyFile
    )? {
        guard let path = arguments.value(.passkey) else { return nil }
        let file = PasskeyFile(path: path)
        do {
            return (try file.load(), file)
        } catch {
            throw UsageError(description: "--passkey: \(error)")
        }
    }
}
