import Cryptography
import Foundation
import TestSupport
import Testing

/// TOTP against RFC 6238's own test vectors (appendix B) and against Debian's `oathtool` for the same secret and
/// time; HMAC against RFC 4231's first case.
@Suite struct TOTPTests {
    /// The RFC's seeds: "12345678901234567890" repeated to the digest's key length.
    static func seed(_ algorithm: HMAC.Algorithm) -> [UInt8] {
        let base = Array("12345678901234567890".utf8)
        let length = algorithm == .sha1 ? 20 : algorithm == .sha256 ? 32 : 64
        return Array((0..<length).map { base[$0 % base.count] })
    }

    @Test(arguments: [
        (59, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ])
    func theRFCVectors(time: Int, sha1: String, sha256: String, sha512: String) {
        let date = Date(timeIntervalSince1970: TimeInterval(time))
        for (algorithm, expected) in [(HMAC.Algorithm.sha1, sha1), (.sha256, sha256), (.sha512, sha512)] {
            #expect(TOTP(secret: Self.seed(algorithm), algorithm: algorithm, digits: 8).code(at: date) == expected)
        }
    }

    @Test func hmacMatchesRFC4231() {
        let mac = HMAC.authenticationCode(
            .sha256, key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
        #expect(
            mac?.map { String(format: "%02x", $0) }.joined()
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func secretsAreReadAsUsersGetThem() throws {
        #expect(try TOTP.base32("MZXW6===") == Array("foo".utf8))
        #expect(try TOTP.base32("mzxw 6ytb oi") == Array("foobar".utf8))
        #expect(throws: TOTP.SecretError.notBase32) { try TOTP.base32("not base32!") }
        let uri = try TOTP(text: "otpauth://totp/SP:alice?secret=GEZDGNBVGY3TQOJQ&algorithm=SHA256&digits=8&period=60")
        #expect(uri.algorithm == .sha256 && uri.digits == 8 && uri.period == 60)
        #expect(throws: TOTP.SecretError.badParameter("algorithm")) {
            try TOTP(text: "otpauth://totp/x?secret=GEZDGNBV&algorithm=MD5")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/oathtool"), "oathtool not installed"))
    func theBuiltInGeneratorEqualsOathtool() async throws {
        let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
        let time = 1_796_000_000
        for (algorithm, flag) in [(HMAC.Algorithm.sha1, "sha1"), (.sha256, "sha256"), (.sha512, "sha512")] {
            // The secret through a 0600 file on standard input, never in argv; posix_spawn, as every test runs a tool.
            let folder = try temporaryDirectory("oathtool")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(FileManager.default.createFile(atPath: folder + "/secret", contents: Data((secret + "\n").utf8)))
            let status = await spawnToExit(
                "/usr/bin/oathtool", ["--totp=\(flag)", "--base32", "--now", "@\(time)", "--digits", "6", "-"],
                environment: ["PATH": "/usr/bin:/bin"], standardInput: folder + "/secret",
                standardOutput: folder + "/code")
            #expect(status == 0, "oathtool --totp=\(flag)")
            let expected = ((try? String(contentsOfFile: folder + "/code", encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let code = try TOTP(text: secret)
            let ours = TOTP(secret: code.secret, algorithm: algorithm, digits: 6)
                .code(at: Date(timeIntervalSince1970: TimeInterval(time)))
            #expect(ours == expected, "\(flag)")
        }
    }
}
