internal import CCrypto

/// A NIST P-256 private key, the key of a software passkey: made fresh or read from PEM, signs ES256 (ECDSA with
/// SHA-256, a DER signature as WebAuthn carries it) and gives its public point for a COSE key.
///
/// The one owner of its `EVP_PKEY` (freed in deinit). Not `Sendable`: keep it in the task that uses it. Its
/// description never shows key material.
public final class P256PrivateKey: CustomStringConvertible {
    let handle: OpaquePointer

    /// A new key from OpenSSL's random generator.
    public init() throws(CryptoError) {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw CryptoError.failed("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw CryptoError.failed("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
            throw CryptoError.failed("EVP_PKEY_CTX_set_group_name")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw CryptoError.failed("EVP_PKEY_generate") }
        handle = key
    }

    /// Reads the first private key in `pem` (PKCS#8, encrypted PKCS#8 with `password`, or SEC 1 `EC PRIVATE KEY`);
    /// it must be on P-256. The password is never shown or kept.
    public init(pem: [UInt8], password: [UInt8]? = nil) throws(CryptoError) {
        let key = try PEMText.readPrivateKey(pem, password: password)
        handle = key
        guard P256Curve.holds(key) else { throw .notP256 }
    }

    /// The key as unencrypted PKCS#8 PEM: secret material, for the caller to keep private.
    public func pkcs8PEM() throws(CryptoError) -> [UInt8] {
        let bio = try MemoryBIO()
        guard PEM_write_bio_PrivateKey(bio.handle, handle, nil, nil, 0, nil, nil) == 1 else {
            throw CryptoError.failed("PEM_write_bio_PrivateKey")
        }
        return bio.contents
    }

    /// The public point, uncompressed: `04 ‖ x ‖ y`, 65 bytes.
    public func publicPoint() throws(CryptoError) -> [UInt8] {
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        guard
            EVP_PKEY_get_octet_string_param(handle, OSSL_PKEY_PARAM_PUB_KEY, &point, point.count, &length) == 1,
            length == 65, point[0] == 4
        else { throw CryptoError.failed("EVP_PKEY_get_octet_string_param(pub)") }
        return point
    }

    /// The public key as DER SubjectPublicKeyInfo (RFC 5480), as WebAuthn's `getPublicKey()` gives it.
    public func subjectPublicKeyInfo() throws(CryptoError) -> [UInt8] {
        P256Curve.subjectPublicKeyInfoPrefix + (try publicPoint())
    }

    /// The public half, for verifying what this key signed.
    public func publicKey() throws(CryptoError) -> P256PublicKey {
        try P256PublicKey(point: try publicPoint())
    }

    /// The ES256 signature of `message` (SHA-256, then ECDSA), DER-encoded as WebAuthn assertions carry it.
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try EVPSignature.sign(message, key: handle, algorithm: nil)
    }

    /// Always `P256PrivateKey(<redacted>)`.
    public var description: String { "P256PrivateKey(<redacted>)" }

    deinit { EVP_PKEY_free(handle) }
}

/// A NIST P-256 public key, from its uncompressed point: verifies ES256 signatures (DER).
///
/// The one owner of its `EVP_PKEY` (freed in deinit). Not `Sendable`.
public final class P256PublicKey {
    let handle: OpaquePointer

    /// The key whose point is `point` (`04 ‖ x ‖ y`, 65 bytes), checked to lie on the curve.
    public init(point: [UInt8]) throws(CryptoError) {
        guard point.count == 65, point[0] == 4 else { throw .notP256 }
        // SubjectPublicKeyInfo for id-ecPublicKey on prime256v1, then the point as its BIT STRING (RFC 5480).
        let info = P256Curve.subjectPublicKeyInfoPrefix + point
        let key = info.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else { throw .unreadableKey(detail: CryptoError.pendingReason()) }
        handle = key
    }

    /// Whether `signature` (DER) is an ES256 signature of `message` by this key's private half.
    public func verify(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        EVPSignature.verify(signature, of: message, key: handle, algorithm: nil)
    }

    deinit { EVP_PKEY_free(handle) }
}

/// What marks a key as P-256.
enum P256Curve {
    /// DER of `SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (65 bytes follow) }` up to the point.
    static let subjectPublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
        0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// Whether `key` is an EC key on P-256 (OpenSSL names the group `prime256v1`).
    static func holds(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == SPC_EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            CryptoError.discardPending()
            return false
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }
}
