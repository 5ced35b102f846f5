/// Minimal image encoders so the "Photos" library holds real pictures a browser can display.
enum Images {
    /// A valid PNG (8-bit RGB) of `width`×`height`, pixels from `pixel(x, y)`, zlib with stored blocks.
    static func png(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (width * 3 + 1))
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                raw += [r, g, b]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let final: UInt8 = offset + count >= raw.count ? 1 : 0
            zlib.append(final)
            zlib += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))

        var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        ihdr += [8, 2, 0, 0, 0]  // depth 8, RGB, deflate, adaptive filtering, no interlace
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", ihdr)
        out += chunk("IDAT", zlib)
        out += chunk("IEND", [])
        return out
    }

    /// A small SVG picture.
    static func svg(width: Int, height: Int, title: String) -> [UInt8] {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <title>\(xmlEscape(title))</title>
            <rect width="\(width)" height="\(height)" fill="#0f6cbd"/>
            <circle cx="\(width / 2)" cy="\(height / 2)" r="\(min(width, height) / 3)" fill="#ffd43b"/>
            </svg>

            """
        return Array(text.utf8)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static let crcTable: [UInt32] = (0..<256).map { index in
        var c = UInt32(index)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
