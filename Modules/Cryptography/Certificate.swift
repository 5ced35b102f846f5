internal import CCrypto

/// An X.509 certificate read from PEM: its DER bytes, the SHA-1 and SHA-256 thumbprints Entra names it by
/// (`x5t`, `x5t#S256`), its public key, and whether a private key belongs to it.
///
/// The one owner of its `X509` (freed in deinit). Not `Sendable`.
public final class Certificate {
    let handle: OpaquePointer
    /// The certificate in DER, as the thumbprints are computed over it.
    public let der: [UInt8]

    /// Reads the first certificate in `pem`.
    public init(pem: [UInt8]) throws(CryptoError) {
        guard PEMText.contains("CERTIFICATE", in: pem) else { throw .noPEM("CERTIFICATE") }
        let bio = try MemoryBIO(reading: pem)
        guard let certificate = PEM_read_bio_X509(bio.handle, nil, nil, nil) else {
            throw .unreadableCertificate(detail: CryptoError.pendingReason())
        }
        handle = certificate
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw CryptoError.failed("i2d_X509") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else { throw CryptoError.failed("i2d_X509") }
        der = bytes
    }

    /// SHA-1 of the DER (what `x5t` carries, and what Entra's portal shows in hex).
    public var sha1Thumbprint: [UInt8] { MessageDigest.hash(.sha1, der) }
    /// SHA-256 of the DER (what `x5t#S256` carries).
    public var sha256Thumbprint: [UInt8] { MessageDigest.hash(.sha256, der) }

    /// The certificate's public key.
    public func publicKey() throws(CryptoError) -> PublicKey {
        guard let key = X509_get_pubkey(handle) else { throw CryptoError.failed("X509_get_pubkey") }
        let publicKey = PublicKey(owning: key)
        guard EVP_PKEY_get_base_id(key) == SPC_EVP_PKEY_RSA else { throw .notRSA }
        return publicKey
    }

    /// Whether `key` is the private half of this certificate's public key.
    public func matches(_ key: PrivateKey) -> Bool {
        let result = X509_check_private_key(handle, key.handle)
        if result != 1 { CryptoError.discardPending() }
        return result == 1
    }

    /// Whether `key` is the private half of this certificate's P-256 public key.
    public func matches(_ key: P256PrivateKey) -> Bool {
        let result = X509_check_private_key(handle, key.handle)
        if result != 1 { CryptoError.discardPending() }
        return result == 1
    }

    deinit { X509_free(handle) }
}
