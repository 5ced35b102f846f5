internal import CCrypto

extension MessageDigest {
    /// A digest fed piece by piece (`EVP_DigestInit_ex`/`Update`/`Final_ex`), for content too large to hold whole,
    /// such as a downloaded file read back in chunks. Owns its libcrypto context (freed in `deinit`); one owner at a
    /// time, not thread-safe.
    public final class Stream {
        private let context: OpaquePointer?
        private var failed: Bool

        /// A fresh digest of nothing yet.
        public init(_ algorithm: Algorithm) {
            context = EVP_MD_CTX_new()
            failed = context == nil || EVP_DigestInit_ex(context, algorithm.evp, nil) != 1
            if failed { CryptoError.discardPending() }
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Adds `bytes` to what is digested.
        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard !failed, bytes.count > 0 else { return }
            if EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) != 1 {
                failed = true
                CryptoError.discardPending()
            }
        }

        /// The digest of everything added (32 bytes for SHA-256); empty if libcrypto ever failed, which matches no
        /// digest. Call once.
        public func finish() -> [UInt8] {
            guard !failed else { return [] }
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            let result = output.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
            failed = true
            guard result == 1 else {
                CryptoError.discardPending()
                return []
            }
            return Array(output.prefix(Int(length)))
        }
    }
}
