internal import CCrypto

/// Why a key, a certificate or a signature could not be used. Messages say what to check; they never carry key
/// material or a password. The OpenSSL reason (`detail`) is OpenSSL's own text for the failed call.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text holds no PEM block of the kind wanted (`PRIVATE KEY`, `CERTIFICATE`).
    case noPEM(String)
    /// The private key is encrypted and no password was given.
    case passwordRequired
    /// The private key could not be read: a wrong password, or not a key OpenSSL reads.
    case unreadableKey(detail: String)
    /// The certificate could not be read.
    case unreadableCertificate(detail: String)
    /// The key is not an RSA key (RS256 and PS256 need one).
    case notRSA
    /// The key is not an elliptic-curve key on P-256 (a passkey's ES256 needs one).
    case notP256
    /// The private key does not belong to the certificate.
    case keyDoesNotMatchCertificate
    /// A libcrypto call failed (names the call).
    case openSSL(call: String, detail: String)

    public var description: String {
        switch self {
        case .noPEM(let kind): "no PEM '\(kind)' block was found (expected -----BEGIN \(kind)-----)"
        case .passwordRequired: "the private key is encrypted: give its password (a file only you can read)"
        case .unreadableKey(let detail): "the private key cannot be read (wrong password, or not a PEM key): \(detail)"
        case .unreadableCertificate(let detail):
            "the certificate cannot be read (not a PEM X.509 certificate): \(detail)"
        case .notRSA: "the key is not an RSA key; RS256 and PS256 need one"
        case .notP256: "the key is not a P-256 (prime256v1) elliptic-curve key; ES256 needs one"
        case .keyDoesNotMatchCertificate: "the private key does not belong to the certificate"
        case .openSSL(let call, let detail): "OpenSSL's \(call) failed: \(detail)"
        }
    }

    /// OpenSSL's queued error text (the newest reason), then the queue emptied; "unknown" when there is none.
    static func pendingReason() -> String {
        var last: UInt = 0
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            last = code
        }
        guard last != 0 else { return "unknown" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(last, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Empties OpenSSL's error queue (after a failure that is reported in other words).
    static func discardPending() {
        while ERR_get_error() != 0 {}
    }

    /// A failed `call`, with OpenSSL's reason.
    static func failed(_ call: String) -> CryptoError { .openSSL(call: call, detail: pendingReason()) }
}
