import Foundation

/// MD4, MD5 and HMAC-MD5: just enough to verify NTLMv2 responses (no outside crypto library available).
enum Digest {
    private static func leftRotate(_ x: UInt32, _ c: UInt32) -> UInt32 { (x << c) | (x >> (32 - c)) }

    /// Pads to a multiple of 64 bytes with the message length in bits, little-endian (MD4/MD5 style).
    private static func padded(_ message: [UInt8]) -> [UInt8] {
        var bytes = message
        let bitLength = UInt64(message.count) &* 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8((bitLength >> UInt64(shift)) & 0xFF)) }
        return bytes
    }

    private static func words(_ block: ArraySlice<UInt8>) -> [UInt32] {
        stride(from: block.startIndex, to: block.endIndex, by: 4).map { index in
            UInt32(block[index]) | UInt32(block[index + 1]) << 8 | UInt32(block[index + 2]) << 16
                | UInt32(block[index + 3]) << 24
        }
    }

    private static func littleEndian(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { value in (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xFF) } }
    }

    static func md4(_ message: [UInt8]) -> [UInt8] {
        var a0: UInt32 = 0x6745_2301
        var b0: UInt32 = 0xEFCD_AB89
        var c0: UInt32 = 0x98BA_DCFE
        var d0: UInt32 = 0x1032_5476
        let bytes = padded(message)
        for start in stride(from: 0, to: bytes.count, by: 64) {
            let x = words(bytes[start..<start + 64])
            var (a, b, c, d) = (a0, b0, c0, d0)
            func f(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) | (~x & z) }
            func g(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) | (x & z) | (y & z) }
            func h(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { x ^ y ^ z }
            for i in [0, 4, 8, 12] {
                a = leftRotate(a &+ f(b, c, d) &+ x[i], 3)
                d = leftRotate(d &+ f(a, b, c) &+ x[i + 1], 7)
                c = leftRotate(c &+ f(d, a, b) &+ x[i + 2], 11)
                b = leftRotate(b &+ f(c, d, a) &+ x[i + 3], 19)
            }
            for i in [0, 1, 2, 3] {
                a = leftRotate(a &+ g(b, c, d) &+ x[i] &+ 0x5A82_7999, 3)
                d = leftRotate(d &+ g(a, b, c) &+ x[i + 4] &+ 0x5A82_7999, 5)
                c = leftRotate(c &+ g(d, a, b) &+ x[i + 8] &+ 0x5A82_7999, 9)
                b = leftRotate(b &+ g(c, d, a) &+ x[i + 12] &+ 0x5A82_7999, 13)
            }
            for i in [0, 2, 1, 3] {
                a = leftRotate(a &+ h(b, c, d) &+ x[i] &+ 0x6ED9_EBA1, 3)
                d = leftRotate(d &+ h(a, b, c) &+ x[i + 8] &+ 0x6ED9_EBA1, 9)
                c = leftRotate(c &+ h(d, a, b) &+ x[i + 4] &+ 0x6ED9_EBA1, 11)
                b = leftRotate(b &+ h(c, d, a) &+ x[i + 12] &+ 0x6ED9_EBA1, 15)
            }
            a0 = a0 &+ a
            b0 = b0 &+ b
            c0 = c0 &+ c
            d0 = d0 &+ d
        }
        return littleEndian([a0, b0, c0, d0])
    }

    private static let md5Shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
        14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15,
        21, 6, 10, 15, 21,
    ]
    private static let md5Constants: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double(index + 1))) * 4_294_967_296.0))
    }

    static func md5(_ message: [UInt8]) -> [UInt8] {
        var a0: UInt32 = 0x6745_2301
        var b0: UInt32 = 0xEFCD_AB89
        var c0: UInt32 = 0x98BA_DCFE
        var d0: UInt32 = 0x1032_5476
        let bytes = padded(message)
        for start in stride(from: 0, to: bytes.count, by: 64) {
            let m = words(bytes[start..<start + 64])
            var (a, b, c, d) = (a0, b0, c0, d0)
            for i in 0..<64 {
                var f: UInt32
                let g: Int
                switch i {
                case 0..<16:
                    f = (b & c) | (~b & d)
                    g = i
                case 16..<32:
                    f = (d & b) | (~d & c)
                    g = (5 * i + 1) % 16
                case 32..<48:
                    f = b ^ c ^ d
                    g = (3 * i + 5) % 16
                default:
                    f = c ^ (b | ~d)
                    g = (7 * i) % 16
                }
                f = f &+ a &+ md5Constants[i] &+ m[g]
                a = d
                d = c
                c = b
                b = b &+ leftRotate(f, md5Shifts[i])
            }
            a0 = a0 &+ a
            b0 = b0 &+ b
            c0 = c0 &+ c
            d0 = d0 &+ d
        }
        return littleEndian([a0, b0, c0, d0])
    }

    static func hmacMD5(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? md5(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = md5(block.map { $0 ^ 0x36 } + message)
        return md5(block.map { $0 ^ 0x5C } + inner)
    }
}
