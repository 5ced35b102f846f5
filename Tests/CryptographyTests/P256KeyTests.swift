import Cryptography
import Foundation
import TestSupport
import Testing

/// P-256 keys and ES256 signatures against the openssl command: what we sign it verifies, what it makes we read.
@Suite struct P256KeyTests {
    @Test func opensslVerifiesOurSignatureAndWeVerifyIt() async throws {
        let folder = try temporaryDirectory("p256")
        let key = try P256PrivateKey()
        let message = Array("authenticator data, then the client data's hash".utf8)
        let signature = try key.sign(message)
        try Data(signature).write(to: URL(fileURLWithPath: folder + "/sig.der"))
        try Data(message).write(to: URL(fileURLWithPath: folder + "/message"))
        try Data(try key.pkcs8PEM()).write(to: URL(fileURLWithPath: folder + "/key.pem"))
        _ = try await TestAppCredential.openssl([
            "pkey", "-in", folder + "/key.pem", "-pubout", "-out", folder + "/pub.pem",
        ])
        let verified = try await TestAppCredential.openssl([
            "dgst", "-sha256", "-verify", folder + "/pub.pem", "-signature", folder + "/sig.der", folder + "/message",
        ])
        #expect(String(decoding: verified, as: UTF8.self).contains("Verified OK"))
        let publicKey = try key.publicKey()
        #expect(publicKey.verify(signature, of: message))
        #expect(!publicKey.verify(signature, of: message + [0]))
        #expect(!(try P256PrivateKey().publicKey()).verify(signature, of: message))
        // The SubjectPublicKeyInfo we build is the one openssl writes for the same key.
        let der = try await TestAppCredential.openssl([
            "pkey", "-in", folder + "/key.pem", "-pubout", "-outform", "DER",
        ])
        #expect(try key.subjectPublicKeyInfo() == Array(der))
        #expect(try key.publicPoint().count == 65)
    }

    @Test func readsAnOpenSSLKeyAndRefusesOtherCurves() async throws {
        let folder = try temporaryDirectory("p256")
        _ = try await TestAppCredential.openssl([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", folder + "/p256.pem",
        ])
        let key = try P256PrivateKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/p256.pem"))))
        #expect(key.description == "P256PrivateKey(<redacted>)")
        _ = try await TestAppCredential.openssl([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", folder + "/p384.pem",
        ])
        #expect(throws: CryptoError.notP256) {
            try P256PrivateKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/p384.pem"))))
        }
        let rsa = try PrivateKey(generatingRSA: 2048)
        #expect(throws: CryptoError.notP256) { try P256PrivateKey(pem: try rsa.pkcs8PEM()) }
        #expect(throws: CryptoError.notP256) { try P256PublicKey(point: [4] + [UInt8](repeating: 1, count: 10)) }
        // A point that is not on the curve is refused by OpenSSL.
        #expect(throws: CryptoError.self) { try P256PublicKey(point: [4] + [UInt8](repeating: 1, count: 64)) }
    }
}
