import TestSupport
import Testing

@testable import SPSim

@Suite(.childProcesses) struct DigestTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func knownVectors() {
        #expect(Self.hex(Digest.md4(Array("abc".utf8))) == "a448017aaf21d8525fc10ae87aa6729d")
        #expect(Self.hex(Digest.md4([])) == "31d6cfe0d16ae931b73c59d7e0c089c0")
        #expect(Self.hex(Digest.md5(Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(Self.hex(Digest.md5(Array(repeating: 0x61, count: 1000))) == "cabe45dcc9ae5b66ba86600cca6b8ba8")
        #expect(
            Self.hex(Digest.hmacMD5(key: Array("key".utf8), Array("The quick brown fox jumps over the lazy dog".utf8)))
                == "80070713463e7749b90c2dc24911e275")
    }
}
