/// Why a software passkey did not answer, in words a user can act on. Never carries the key.
public enum PasskeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The page's origin is not a secure context: WebAuthn needs https (plain http only on loopback).
    case insecureOrigin(String)
    /// The relying party id the page asked for is not the page's host nor a domain above it.
    case relyingPartyNotForOrigin(relyingParty: String, origin: String)
    /// The passkey belongs to another relying party than the page asks for.
    case otherRelyingParty(passkey: String, page: String)
    /// The page lists the credentials it accepts and this passkey is not among them.
    case notAllowed(relyingParty: String)
    /// The relying party accepts no ES256 (COSE -7) key.
    case noSupportedAlgorithm([Int64])
    /// The passkey file's contents are not a passkey.
    case unreadableFile(String)
    /// The key could not be made or used (OpenSSL's reason).
    case key(String)

    /// What happened, and what to do.
    public var description: String {
        switch self {
        case .insecureOrigin(let origin):
            "\(origin) is not a secure origin: passkeys answer only https pages (or http on loopback)"
        case .relyingPartyNotForOrigin(let party, let origin):
            "the page at \(origin) asks for a passkey of \(party), which is not its own domain; nothing was signed"
        case .otherRelyingParty(let passkey, let page):
            "the passkey is for \(passkey) but the page asks for one of \(page): give the passkey registered there"
        case .notAllowed(let party):
            "\(party) does not list this passkey among the ones it accepts: it may have been removed there; "
                + "register it again (spconnect passkey register)"
        case .noSupportedAlgorithm(let algorithms):
            "the relying party accepts none of the passkey's algorithms (it asks for COSE \(algorithms); "
                + "spconnect's passkeys are ES256, -7)"
        case .unreadableFile(let reason): "the passkey file cannot be used: \(reason)"
        case .key(let reason): "the passkey's key cannot be used: \(reason)"
        }
    }
}
