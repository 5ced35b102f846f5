internal import CCrypto

/// An OpenSSL memory BIO: the one owner of its `BIO *` (freed in deinit). Not `Sendable`; used within one call.
final class MemoryBIO {
    let handle: OpaquePointer

    /// A read-only BIO over a copy of `bytes`.
    init(reading bytes: [UInt8]) throws(CryptoError) {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.failed("BIO_new") }
        handle = bio
        let written = bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(bytes.count) || bytes.isEmpty else { throw CryptoError.failed("BIO_write") }
    }

    /// An empty BIO to write into.
    init() throws(CryptoError) {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.failed("BIO_new") }
        handle = bio
    }

    /// What was written into the BIO.
    var contents: [UInt8] {
        var data: UnsafeMutablePointer<CChar>?
        let count = spc_bio_mem_data(handle, &data)
        guard count > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: count) {
            Array(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    deinit { BIO_free(handle) }
}

/// The PEM blocks of a text, for finding the one of the kind wanted before handing it to OpenSSL.
enum PEMText {
    /// Whether `text` holds a `-----BEGIN {kind}` line (kind may be a suffix such as `PRIVATE KEY`).
    static func contains(_ kind: String, in text: [UInt8]) -> Bool {
        let string = String(decoding: text, as: UTF8.self)
        return string.range(of: "-----BEGIN ") != nil && string.contains(kind + "-----")
    }
}

extension PEMText {
    /// The first private key in `pem` (PKCS#8, encrypted PKCS#8, or a traditional block), owned by the caller;
    /// `password` decrypts an encrypted key (it is never shown or kept).
    static func readPrivateKey(_ pem: [UInt8], password: [UInt8]?) throws(CryptoError) -> OpaquePointer {
        guard PEMText.contains("PRIVATE KEY", in: pem) else { throw .noPEM("PRIVATE KEY") }
        if PEMText.contains("ENCRYPTED PRIVATE KEY", in: pem)
            || String(decoding: pem, as: UTF8.self).contains("ENCRYPTED"),
            password == nil
        {
            throw .passwordRequired
        }
        let bio = try MemoryBIO(reading: pem)
        // A non-nil passphrase is always given (empty without a password), so OpenSSL never prompts on a terminal.
        var phrase = (password ?? []).map { CChar(bitPattern: $0) } + [0]
        let key = phrase.withUnsafeMutableBufferPointer { buffer in
            PEM_read_bio_PrivateKey(bio.handle, nil, nil, buffer.baseAddress)
        }
        for index in phrase.indices { phrase[index] = 0 }
        guard let key else { throw .unreadableKey(detail: CryptoError.pendingReason()) }
        return key
    }
}
