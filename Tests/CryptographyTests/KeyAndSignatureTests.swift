import Cryptography
import Foundation
import TestSupport
import Testing

/// Keys, certificates, thumbprints and RS256/PS256 signatures against the openssl command's own answers for the
/// same key and certificate.
@Suite struct KeyAndSignatureTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    func file(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func thumbprintsEqualOpenSSLFingerprints() async throws {
        let app = try await TestAppCredential.make()
        let certificate = try Certificate(pem: try file(app.certificatePath))
        for (flag, thumbprint) in [("-sha1", certificate.sha1Thumbprint), ("-sha256", certificate.sha256Thumbprint)] {
            let output = try await TestAppCredential.openssl([
                "x509", "-in", app.certificatePath, "-noout", "-fingerprint", flag,
            ])
            let expected = String(decoding: output, as: UTF8.self).split(separator: "=").last.map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: ":", with: "")
            }
            #expect(Self.hex(thumbprint) == expected)
        }
        let der = try await TestAppCredential.openssl(["x509", "-in", app.certificatePath, "-outform", "DER"])
        #expect(certificate.der == Array(der))
    }

    @Test func base64urlMatchesTheDocumentedThumbprintVector() throws {
        // Microsoft's example: SHA-1 84E05C1D98BCE3A5421D225B140B36E86A3D5534 is x5t hOBcHZi846VCHSJbFAs26Go9VTQ.
        let bytes = stride(from: 0, to: 40, by: 2).map { offset -> UInt8 in
            let text = Array("84E05C1D98BCE3A5421D225B140B36E86A3D5534")
            return UInt8(String(text[offset..<offset + 2]), radix: 16) ?? 0
        }
        #expect(Base64URL.encode(bytes) == "hOBcHZi846VCHSJbFAs26Go9VTQ")
        #expect(Base64URL.decode("hOBcHZi846VCHSJbFAs26Go9VTQ") == bytes)
        #expect(Base64URL.decode("a+b/") == nil)
        #expect(Base64URL.encode(Array("\u{FB}\u{FF}".utf8)) == "w7vDvw")
    }

    @Test func rs256EqualsOpenSSLsSignatureAndPS256VerifiesBothWays() async throws {
        let app = try await TestAppCredential.make()
        let key = try PrivateKey(pem: try file(app.keyPath))
        let message = Array("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0".utf8)
        // PKCS#1 v1.5 is deterministic: the same bytes as openssl's.
        let openssl = try await TestAppCredential.openssl(
            ["dgst", "-sha256", "-sign", app.keyPath], input: Data(message))
        #expect(try key.sign(message, algorithm: .rs256) == Array(openssl))
        let certificate = try Certificate(pem: try file(app.certificatePath))
        let publicKey = try certificate.publicKey()
        #expect(publicKey.verify(Array(openssl), of: message, algorithm: .rs256))
        #expect(!publicKey.verify(Array(openssl), of: message + [0x2E], algorithm: .rs256))

        // PSS is randomised: ours verifies with openssl, openssl's with ours.
        let pss = try key.sign(message, algorithm: .ps256)
        #expect(pss != (try key.sign(message, algorithm: .ps256)))
        #expect(publicKey.verify(pss, of: message, algorithm: .ps256))
        #expect(!publicKey.verify(pss, of: message, algorithm: .rs256))
        let signaturePath = app.directory + "/pss.sig"
        let publicPath = app.directory + "/app.pub"
        try Data(pss).write(to: URL(fileURLWithPath: signaturePath))
        try await TestAppCredential.openssl([
            "x509", "-in", app.certificatePath, "-pubkey", "-noout", "-out", publicPath,
        ])
        let pssOptions = [
            "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32", "-sigopt", "rsa_mgf1_md:sha256",
        ]
        try await TestAppCredential.openssl(
            ["dgst", "-sha256"] + pssOptions + ["-verify", publicPath, "-signature", signaturePath],
            input: Data(message))
        let theirs = try await TestAppCredential.openssl(
            ["dgst", "-sha256"] + pssOptions + ["-sign", app.keyPath], input: Data(message))
        #expect(publicKey.verify(Array(theirs), of: message, algorithm: .ps256))
        // The public key taken from the private key is the certificate's.
        #expect(try key.publicKey().rsaComponents().modulus == (try publicKey.rsaComponents().modulus))
        #expect(try publicKey.rsaComponents().exponent == [1, 0, 1])
    }

    @Test func encryptedKeysNeedTheirPassword() async throws {
        let app = try await TestAppCredential.make()
        let pem = try file(app.encryptedKeyPath)
        #expect(String(decoding: pem, as: UTF8.self).contains("BEGIN ENCRYPTED PRIVATE KEY"))
        #expect(throws: CryptoError.passwordRequired) { try PrivateKey(pem: pem) }
        #expect {
            try PrivateKey(pem: pem, password: Array("wrong".utf8))
        } throws: { error in
            guard case .unreadableKey(let detail) = error as? CryptoError else { return false }
            return !detail.contains("wrong")
        }
        let key = try PrivateKey(pem: pem, password: Array(app.password.utf8))
        #expect(try Certificate(pem: try file(app.certificatePath)).matches(key))
    }

    @Test func aKeyOfAnotherCertificateDoesNotMatch() async throws {
        let first = try await TestAppCredential.make()
        let second = try await TestAppCredential.make()
        let certificate = try Certificate(pem: try file(first.certificatePath))
        #expect(!certificate.matches(try PrivateKey(pem: try file(second.keyPath))))
        #expect(throws: CryptoError.noPEM("CERTIFICATE")) { try Certificate(pem: try file(first.keyPath)) }
        #expect(throws: CryptoError.noPEM("PRIVATE KEY")) { try PrivateKey(pem: try file(first.certificatePath)) }
    }

    @Test func aGeneratedKeyRoundTripsThroughPEM() throws {
        let key = try PrivateKey(generatingRSA: 2048)
        let pem = try key.pkcs8PEM()
        #expect(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let again = try PrivateKey(pem: pem)
        let signature = try again.sign([1, 2, 3], algorithm: .rs256)
        #expect(try key.publicKey().verify(signature, of: [1, 2, 3], algorithm: .rs256))
        #expect("\(key)" == "PrivateKey(RSA, <redacted>)")
    }
}
