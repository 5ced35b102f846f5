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
