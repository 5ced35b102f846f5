internal import CCrypto

/// RS256, PS256 and ES256 through `EVP_DigestSign`/`EVP_DigestVerify` (no RSA or curve arithmetic of our own). A nil
/// algorithm is the key's own scheme with SHA-256: ECDSA for a P-256 key, with a DER signature.
enum EVPSignature {
    /// The salt PS256 uses: the digest's size (RFC 7518 §3.5; PyJWT and MSAL use the same).
    static let pssSaltLength: Int32 = 32

    static func sign(_ message: [UInt8], key: OpaquePointer, algorithm: SignatureAlgorithm?) throws(CryptoError)
        -> [UInt8]
    {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.failed("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, EVP_sha256(), nil, key) == 1 else {
            throw CryptoError.failed("EVP_DigestSignInit")
        }
        try configure(keyContext, algorithm)
        var length = 0
        let sized = message.withUnsafeBufferPointer { EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1 else { throw CryptoError.failed("EVP_DigestSign") }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard signed == 1 else { throw CryptoError.failed("EVP_DigestSign") }
        return Array(signature.prefix(length))
    }

    static func verify(_ signature: [UInt8], of message: [UInt8], key: OpaquePointer, algorithm: SignatureAlgorithm?)
        -> Bool
    {
        guard let context = EVP_MD_CTX_new() else {
            CryptoError.discardPending()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, EVP_sha256(), nil, key) == 1,
            (try? configure(keyContext, algorithm)) != nil
        else {
            CryptoError.discardPending()
            return false
        }
        let result = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, input.baseAddress, input.count)
            }
        }
        if result != 1 { CryptoError.discardPending() }
        return result == 1
    }

    /// Padding for `algorithm`: PKCS#1 v1.5 for RS256; PSS with MGF1-SHA-256 and a 32-byte salt for PS256; none for
    /// ECDSA (nil).
    private static func configure(_ keyContext: OpaquePointer?, _ algorithm: SignatureAlgorithm?) throws(CryptoError) {
        guard let keyContext else { throw CryptoError.failed("EVP_DigestSignInit (no key context)") }
        switch algorithm {
        case nil: return
        case .rs256:
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else {
                throw CryptoError.failed("EVP_PKEY_CTX_set_rsa_padding")
            }
        case .ps256:
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, pssSaltLength) == 1,
                EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, EVP_sha256()) == 1
            else { throw CryptoError.failed("EVP_PKEY_CTX_set_rsa_pss_saltlen") }
        }
    }
}
