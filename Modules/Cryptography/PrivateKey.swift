internal import CCrypto

/// An RSA private key read from PEM (PKCS#8 `PRIVATE KEY`, encrypted PKCS#8 `ENCRYPTED PRIVATE KEY`, or PKCS#1
/// `RSA PRIVATE KEY`), or made fresh. Signs RS256 and PS256.
///
/// The one owner of its `EVP_PKEY` (freed in deinit). Not `Sendable`: keep it in the task that uses it. Its
/// description never shows key material.
public final class PrivateKey: CustomStringConvertible {
    let handle: OpaquePointer

    /// Reads the first private key in `pem`; `password` decrypts an encrypted key (it is never shown or kept).
    public init(pem: [UInt8], password: [UInt8]? = nil) throws(CryptoError) {
        let key = try PEMText.readPrivateKey(pem, password: password)
        handle = key
        guard EVP_PKEY_get_base_id(key) == SPC_EVP_PKEY_RSA else { throw .notRSA }
    }

    /// A new RSA key of `bits` bits (2048 or more), for simulators and tests.
    public init(generatingRSA bits: Int = 2048) throws(CryptoError) {
        guard let context = EVP_PKEY_CTX_new_id(SPC_EVP_PKEY_RSA, nil) else {
            throw CryptoError.failed("EVP_PKEY_CTX_new_id")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw CryptoError.failed("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 else {
            throw CryptoError.failed("EVP_PKEY_CTX_set_rsa_keygen_bits")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen(context, &key) == 1, let key else { throw CryptoError.failed("EVP_PKEY_keygen") }
        handle = key
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`): secret material, for the caller to keep
    /// private.
    public func pkcs8PEM() throws(CryptoError) -> [UInt8] {
        let bio = try MemoryBIO()
        guard PEM_write_bio_PrivateKey(bio.handle, handle, nil, nil, 0, nil, nil) == 1 else {
            throw CryptoError.failed("PEM_write_bio_PrivateKey")
        }
        return bio.contents
    }

    /// The public half, for verifying what this key signed.
    public func publicKey() throws(CryptoError) -> PublicKey {
        let bio = try MemoryBIO()
        guard PEM_write_bio_PUBKEY(bio.handle, handle) == 1 else { throw CryptoError.failed("PEM_write_bio_PUBKEY") }
        return try PublicKey(pem: bio.contents)
    }

    /// The signature of `message` with `algorithm` (RS256: PKCS#1 v1.5; PS256: PSS, 32-byte salt).
    public func sign(_ message: [UInt8], algorithm: SignatureAlgorithm) throws(CryptoError) -> [UInt8] {
        try EVPSignature.sign(message, key: handle, algorithm: algorithm)
    }

    /// Always `PrivateKey(RSA, <redacted>)`.
    public var description: String { "PrivateKey(RSA, <redacted>)" }

    deinit { EVP_PKEY_free(handle) }
}
