internal import CCrypto

/// An RSA public key (from a certificate, a PEM `PUBLIC KEY`, or a private key): verifies RS256 and PS256
/// signatures and gives its modulus and exponent for a JWK.
///
/// The one owner of its `EVP_PKEY` (freed in deinit). Not `Sendable`.
public final class PublicKey {
    let handle: OpaquePointer

    /// Takes ownership of `handle`.
    init(owning handle: OpaquePointer) { self.handle = handle }

    /// Reads a PEM `PUBLIC KEY` (SubjectPublicKeyInfo).
    public init(pem: [UInt8]) throws(CryptoError) {
        guard PEMText.contains("PUBLIC KEY", in: pem) else { throw .noPEM("PUBLIC KEY") }
        let bio = try MemoryBIO(reading: pem)
        guard let key = PEM_read_bio_PUBKEY(bio.handle, nil, nil, nil) else {
            throw .unreadableKey(detail: CryptoError.pendingReason())
        }
        handle = key
        guard EVP_PKEY_get_base_id(key) == SPC_EVP_PKEY_RSA else { throw .notRSA }
    }

    /// Whether `signature` is `algorithm`'s signature of `message` by this key's private half.
    public func verify(_ signature: [UInt8], of message: [UInt8], algorithm: SignatureAlgorithm) -> Bool {
        EVPSignature.verify(signature, of: message, key: handle, algorithm: algorithm)
    }

    /// The RSA modulus `n` and public exponent `e`, big-endian without leading zeros (JWK `n` and `e`).
    public func rsaComponents() throws(CryptoError) -> (modulus: [UInt8], exponent: [UInt8]) {
        (try number(OSSL_PKEY_PARAM_RSA_N), try number(OSSL_PKEY_PARAM_RSA_E))
    }

    private func number(_ name: String) throws(CryptoError) -> [UInt8] {
        var value: OpaquePointer?
        guard EVP_PKEY_get_bn_param(handle, name, &value) == 1, let value else {
            throw CryptoError.failed("EVP_PKEY_get_bn_param(\(name))")
        }
        defer { BN_free(value) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(value) + 7) / 8))
        guard BN_bn2bin(value, &bytes) == Int32(bytes.count) else { throw CryptoError.failed("BN_bn2bin") }
        return bytes
    }

    deinit { EVP_PKEY_free(handle) }
}
