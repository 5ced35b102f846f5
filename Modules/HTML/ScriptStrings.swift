#if canImport(Glibc)
    import Glibc
#endif

/// Bytes of scripts and JavaScript string literals, without Foundation.
enum ScriptStrings {
    /// Calls `body` with the UTF-8 bytes of `text` (no copy for native strings).
    static func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = text
        return text.withUTF8(body)
    }

    /// Whether `needle` (ASCII) occurs in `bytes`.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        needle.utf8CodeUnitCount == 0 || firstIndex(of: needle, in: bytes, from: 0) != nil
    }

    /// Whether `bytes` contain `head` followed by `tail` (both ASCII, not empty), found by `tail`: for a word whose
    /// opening bytes are common in scripts and whose end is not (`ur` + `lPost`), so the search passes over most
    /// places eight at a time.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ head: StaticString, then tail: StaticString) -> Bool {
        let headCount = head.utf8CodeUnitCount
        var start = headCount
        while let found = firstIndex(of: tail, in: bytes, from: start) {
            if (0..<headCount).allSatisfy({ bytes[found - headCount + $0] == head.utf8Start[$0] }) { return true }
            start = found + 1
        }
        return false
    }

    /// Whether `bytes` contain `needle` (any bytes; an empty needle is everywhere): `memchr` to each place its first
    /// byte is, then a comparison.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard let base = bytes.baseAddress, bytes.count >= needle.count else { return false }
        var start = 0
        let last = bytes.count - needle.count
        while start <= last, let found = memchr(base + start, Int32(first), last - start + 1) {
            let position = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            if memcmp(base + position, needle.baseAddress!, needle.count) == 0 { return true }
            start = position + 1
        }
        return false
    }

    /// The first index at or after `start` where `needle` (ASCII, not empty) occurs in `bytes`. Eight places are
    /// looked at a time while none of them holds the needle's first two bytes: most of a text is passed over that way,
    /// even for a needle whose first letter is everywhere (`challenge`, looked for in whole pages).
    static func firstIndex(of needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard count > 0, start >= 0, bytes.count - start >= count, let base = bytes.baseAddress else { return nil }
        let pattern = needle.utf8Start
        let first = pattern[0]
        // The second byte, one place on; a one-byte needle checks its only byte twice.
        let secondOffset = count > 1 ? 1 : 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let firstSpread = UInt64(first) &* ones
        let secondSpread = UInt64(pattern[secondOffset]) &* ones
        var index = start
        let last = bytes.count - count
        while index <= last {
            if index + 8 + secondOffset <= bytes.count {
                // A byte equal to the needle's byte is a zero byte of `word ^ spread`, which the usual test marks (a
                // byte after a marked one may be marked too, never one left out): where no place is marked for both
                // bytes, all eight places are passed over.
                let atFirst = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ firstSpread
                let atSecond =
                    UnsafeRawPointer(base + index + secondOffset).loadUnaligned(as: UInt64.self) ^ secondSpread
                if (atFirst &- ones) & ~atFirst & (atSecond &- ones) & ~atSecond & highs == 0 {
                    index += 8
                    continue
                }
            }
            if bytes[index] == first {
                var offset = 1
                while offset < count && bytes[index + offset] == pattern[offset] { offset += 1 }
                if offset == count { return index }
            }
            index += 1
        }
        return nil
    }

    /// The value of the string literal `token` (quotes removed, escapes decoded); for a template piece, its text.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ token: ScriptToken) -> String {
        var start = token.start + 1
        var end = token.end
        if token.kind == .template {
            if token.code == 1 { end -= 2 } else if token.terminated { end -= 1 }
        } else if token.terminated {
            end -= 1
        }
        start = min(start, token.end)
        end = max(start, end)
        return decode(bytes, from: start, to: end)
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    private static func appendScalar(_ value: UInt32, to output: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        output.append(contentsOf: UTF8.encode(scalar)!)
    }

    /// Decodes the JavaScript escapes of the string literal text `bytes[from..<to]`: `\n \r \t \b \f \v \0`,
    /// `\xHH`, `\uHHHH` (surrogate pairs joined, a lone surrogate becomes U+FFFD), `\u{H…}`, legacy octal,
    /// line continuations; any other escaped character stands for itself.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> String {
        var index = from
        var hasEscape = false
        while index < to {
            if bytes[index] == UInt8(ascii: "\\") {
                hasEscape = true
                break
            }
            index += 1
        }
        guard hasEscape else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        }
        var output: [UInt8] = []
        output.reserveCapacity(to - from)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<index]))
        func byte(_ offset: Int) -> UInt8 { offset < to ? bytes[offset] : 0 }
        func hex(_ offset: Int, _ count: Int) -> UInt32? {
            guard offset + count <= to else { return nil }
            var value: UInt32 = 0
            for position in offset..<offset + count {
                guard let digit = hexValue(bytes[position]) else { return nil }
                value = value << 4 | digit
            }
            return value
        }
        /// A `\uHHHH` or `\u{…}` escape at `offset` (the backslash): the code unit or point and the length.
        func unicodeEscape(_ offset: Int) -> (UInt32, Int)? {
            guard byte(offset) == UInt8(ascii: "\\"), byte(offset + 1) == UInt8(ascii: "u") else { return nil }
            if byte(offset + 2) == UInt8(ascii: "{") {
                var position = offset + 3
                var value: UInt32 = 0
                while position < to, position < offset + 12, let digit = hexValue(bytes[position]) {
                    value = value << 4 | digit
                    position += 1
                }
                guard position > offset + 3, byte(position) == UInt8(ascii: "}"), value <= 0x10FFFF else { return nil }
                return (value, position + 1 - offset)
            }
            return hex(offset + 2, 4).map { ($0, 6) }
        }
        while index < to {
            guard bytes[index] == UInt8(ascii: "\\") else {
                // The run up to the next backslash, copied whole.
                var end = index + 1
                while end < to && bytes[end] != UInt8(ascii: "\\") { end += 1 }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
                continue
            }
            let escape = byte(index + 1)
            switch escape {
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "v"): output.append(0x0B)
            case 0x0A:
                break
            case 0x0D:
                if byte(index + 2) == 0x0A { index += 1 }
            case 0xE2 where byte(index + 2) == 0x80 && (byte(index + 3) == 0xA8 || byte(index + 3) == 0xA9):
                index += 2
            case UInt8(ascii: "x"):
                if let value = hex(index + 2, 2) {
                    appendScalar(value, to: &output)
                    index += 4
                    continue
                }
                output.append(escape)
            case UInt8(ascii: "u"):
                guard let (unit, length) = unicodeEscape(index) else {
                    output.append(escape)
                    break
                }
                if length == 6 && unit >= 0xD800 && unit <= 0xDBFF, let (low, lowLength) = unicodeEscape(index + 6),
                    lowLength == 6, low >= 0xDC00 && low <= 0xDFFF
                {
                    appendScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &output)
                    index += 12
                    continue
                }
                appendScalar(unit, to: &output)
                index += length
                continue
            case 0x30...0x37:
                var value = UInt32(escape - 0x30)
                var length = 2
                while length < 4, case let digit = byte(index + length), digit >= 0x30 && digit <= 0x37,
                    value * 8 + UInt32(digit - 0x30) <= 0xFF
                {
                    value = value * 8 + UInt32(digit - 0x30)
                    length += 1
                }
                appendScalar(value, to: &output)
                index += length
                continue
            case 0:
                if index + 1 >= to {
                    index += 1
                    continue
                }
                output.append(0)
            default:
                output.append(escape)
            }
            index += 2
        }
        return String(decoding: output, as: UTF8.self)
    }
}
