#if canImport(Glibc)
    import Glibc
#endif

/// A minimal scan of the raw markup, tokenised the way libxml2 2.9 tokenises it (comments, declarations,
/// processing instructions skipped; only `script` and `style` hold raw text). It yields the start tags of
/// forms and form controls and the `</form>` end tags, in source order, so form ownership can follow the
/// browser's "form element pointer" instead of libxml2's HTML4 tree repairs.
enum RawMarkup {
    enum Event: Equatable {
        /// A start tag of `form`, `input`, `select`, `textarea` or `button` (lower-cased name).
        case start(String)
        /// A `</form>` end tag.
        case endForm
    }

    static let trackedStartTags: Set<String> = ["form", "input", "select", "textarea", "button"]

    /// ``trackedStartTags`` with their names as static text, for the scan.
    private static let trackedNames: [(name: String, bytes: StaticString)] = [
        ("button", "button"), ("form", "form"), ("input", "input"), ("select", "select"), ("textarea", "textarea"),
    ]

    static func events(in bytes: [UInt8]) -> [Event] {
        bytes.withUnsafeBufferPointer { events(in: $0) }
    }

    /// ``events(in:)`` on the bytes in place.
    private static func events(in bytes: UnsafeBufferPointer<UInt8>) -> [Event] {
        guard let base = bytes.baseAddress else { return [] }
        var events: [Event] = []
        var index = 0
        let count = bytes.count

        func isLetter(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
        }
        func lower(_ byte: UInt8) -> UInt8 { (byte >= 0x41 && byte <= 0x5A) ? byte + 32 : byte }
        /// Whether the name `bytes[range]` is `name` (lower-case) in any letter case.
        func named(_ range: Range<Int>, _ name: StaticString) -> Bool {
            guard range.count == name.utf8CodeUnitCount else { return false }
            let expected = name.utf8Start
            for offset in 0..<range.count where lower(bytes[range.lowerBound + offset]) != expected[offset] {
                return false
            }
            return true
        }
        /// Where `pattern` (ASCII, lower-case when `caseInsensitive`, its first byte not a letter) next starts at or
        /// after `position`: `memchr` to each place its first byte is, then a comparison.
        func find(_ pattern: StaticString, from position: Int, caseInsensitive: Bool = false) -> Int? {
            let length = pattern.utf8CodeUnitCount
            let expected = pattern.utf8Start
            var cursor = position
            while cursor + length <= count {
                guard let found = memchr(base + cursor, Int32(expected[0]), count - length + 1 - cursor) else {
                    return nil
                }
                cursor = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                var matched = true
                for offset in 0..<length {
                    let byte = caseInsensitive ? lower(bytes[cursor + offset]) : bytes[cursor + offset]
                    if byte != expected[offset] {
                        matched = false
                        break
                    }
                }
                if matched { return cursor }
                cursor += 1
            }
            return nil
        }
        /// Skips a tag's attributes from `position`; returns the index just past the closing `>`.
        func skipAttributes(from position: Int) -> Int {
            var cursor = position
            while cursor < count {
                let byte = bytes[cursor]
                if byte == UInt8(ascii: ">") { return cursor + 1 }
                if byte == UInt8(ascii: "=") {
                    cursor += 1
                    while cursor < count && isSpace(bytes[cursor]) { cursor += 1 }
                    if cursor < count && (bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'")) {
                        let quote = bytes[cursor]
                        cursor += 1
                        // To the closing quote by `memchr`: a value may be long (a URL, inline JSON).
                        guard let closing = memchr(base + cursor, Int32(quote), count - cursor) else { return count }
                        cursor = UnsafeRawPointer(closing) - UnsafeRawPointer(base) + 1
                        continue
                    }
                    continue
                }
                cursor += 1
            }
            return count
        }

        while index < count {
            // To the next `<`, by the C library's `memchr`: the text between tags is passed over, not looked at.
            guard let found = memchr(base + index, Int32(UInt8(ascii: "<")), count - index) else { break }
            index = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            guard index + 1 < count else { break }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!"), index + 3 < count, bytes[index + 2] == UInt8(ascii: "-"),
                bytes[index + 3] == UInt8(ascii: "-")
            {
                index = (find("-->", from: index + 4).map { $0 + 3 }) ?? count
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                index = (find(">", from: index + 2).map { $0 + 1 }) ?? count
            } else if next == UInt8(ascii: "/"), index + 2 < count, isLetter(bytes[index + 2]) {
                var cursor = index + 2
                while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") { cursor += 1 }
                if named(index + 2..<cursor, "form") { events.append(.endForm) }
                index = (find(">", from: cursor).map { $0 + 1 }) ?? count
            } else if isLetter(next) {
                var cursor = index + 1
                while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
                    bytes[cursor] != UInt8(ascii: "/")
                {
                    cursor += 1
                }
                let name = index + 1..<cursor
                index = skipAttributes(from: cursor)
                if let tracked = trackedNames.first(where: { named(name, $0.bytes) }) {
                    events.append(.start(tracked.name))
                } else if named(name, "script") {
                    index = find("</script", from: index, caseInsensitive: true) ?? count
                } else if named(name, "style") {
                    index = find("</style", from: index, caseInsensitive: true) ?? count
                }
            } else {
                index += 1
            }
        }
        return events
    }

    /// For each tracked start tag in `events` (in order), the index of the owning form start tag among the
    /// form start tags (`nil` when no form is open), following the HTML "form element pointer": a `<form>`
    /// seen while another form is open is ignored, and only `</form>` closes it. Also returns, per form start
    /// tag, whether a browser ignores it (nested inside an open form).
    static func pointerOwners(_ events: [Event]) -> (owners: [Int?], ignoredForms: [Bool]) {
        var owners: [Int?] = []
        var ignored: [Bool] = []
        var pointer: Int?
        var formCount = 0
        for event in events {
            switch event {
            case .start("form"):
                owners.append(nil)
                if pointer == nil {
                    pointer = formCount
                    ignored.append(false)
                } else {
                    ignored.append(true)
                }
                formCount += 1
            case .start:
                owners.append(pointer)
            case .endForm:
                pointer = nil
            }
        }
        return (owners, ignored)
    }
}
