internal import CCrypto

/// SHA-1 and SHA-256 over libcrypto (certificate thumbprints, JWT signatures). A namespace; safe from any thread.
public enum MessageDigest {
    /// The digests offered.
    public enum Algorithm: Sendable, CaseIterable {
        case sha1
        case sha256

        var evp: OpaquePointer? {
            switch self {
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            }
        }
    }

    /// The digest of `bytes` (20 bytes for SHA-1, 32 for SHA-256). libcrypto does not fail for these digests on
    /// memory input; if it ever did, the result is empty, which matches no thumbprint.
    public static func hash(_ algorithm: Algorithm, _ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, algorithm.evp, nil)
            }
        }
        guard result == 1 else {
            CryptoError.discardPending()
            return []
        }
        return Array(output.prefix(Int(length)))
    }
}
