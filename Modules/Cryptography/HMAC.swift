internal import CCrypto

/// HMAC over OpenSSL's libcrypto (RFC 2104), for one-time passwords. A namespace; safe from any thread.
public enum HMAC {
    /// The digest an HMAC is built on.
    public enum Algorithm: String, Sendable, CaseIterable {
        case sha1 = "SHA1"
        case sha256 = "SHA256"
        case sha512 = "SHA512"

        fileprivate var digest: OpaquePointer? {
            switch self {
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha512: EVP_sha512()
            }
        }
    }

    /// The HMAC of `message` with `key`; nil only when libcrypto fails (it does not for these digests).
    public static func authenticationCode(_ algorithm: Algorithm, key: [UInt8], message: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                output.withUnsafeMutableBufferPointer { out in
                    CCrypto.HMAC(
                        algorithm.digest, keyBytes.baseAddress, Int32(key.count),
                        messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, out.baseAddress,
                        &length)
                }
            }
        }
        guard result != nil else { return nil }
        return Array(output.prefix(Int(length)))
    }
}
