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

    /// ``trackedStartTags`` with their bytes, for the scan.
    private static let trackedNames: [(name: String, bytes: [UInt8])] = trackedStartTags.sorted().map {
        ($0, Array($0.utf8))
    }

    static func events(in bytes: [UInt8]) -> [Event] {
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
        func starts(with pattern: [UInt8], at position: Int, caseInsensitive: Bool) -> Bool {
            guard position + pattern.count <= count else { return false }
            for offset in 0..<pattern.count {
                let byte = bytes[position + offset]
                if caseInsensitive ? lower(byte) != lower(pattern[offset]) : byte != pattern[offset] { return false }
            }
            return true
        }
        func find(_ text: String, from position: Int, caseInsensitive: Bool = false) -> Int? {
            find(Array(text.utf8), from: position, caseInsensitive: caseInsensitive)
        }
        func find(_ pattern: [UInt8], from position: Int, caseInsensitive: Bool = false) -> Int? {
            guard let first = pattern.first else { return position }
            var cursor = position
            while cursor < count {
                if (bytes[cursor] == first || (caseInsensitive && lower(bytes[cursor]) == lower(first)))
                    && starts(with: pattern, at: cursor, caseInsensitive: caseInsensitive)
                {
                    return cursor
                }
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
                        while cursor < count && bytes[cursor] != quote { cursor += 1 }
                        cursor += 1
                        continue
                    }
                    continue
                }
                cursor += 1
            }
            return count
        }

        // The patterns and the name buffer are made once per scan, not once per tag.
        let commentOpen = Array("<!--".utf8)
        let commentClose = Array("-->".utf8)
        let tagClose = Array(">".utf8)
        let formName = Array("form".utf8)
        let scriptName = Array("script".utf8)
        let styleName = Array("style".utf8)
        var nameBytes: [UInt8] = []
        while index < count {
            // To the next `<`, by the C library's `memchr`: the text between tags is passed over, not looked at.
            guard
                let opening = bytes.withUnsafeBufferPointer({ buffer -> Int? in
                    guard let base = buffer.baseAddress,
                        let found = memchr(base + index, Int32(UInt8(ascii: "<")), count - index)
                    else { return nil }
                    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
                })
            else { break }
            index = opening
            guard index + 1 < count else { break }
            let next = bytes[index + 1]
            if starts(with: commentOpen, at: index, caseInsensitive: false) {
                index = (find(commentClose, from: index + 4).map { $0 + 3 }) ?? count
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                index = (find(tagClose, from: index + 2).map { $0 + 1 }) ?? count
            } else if next == UInt8(ascii: "/"), index + 2 < count, isLetter(bytes[index + 2]) {
                var cursor = index + 2
                nameBytes.removeAll(keepingCapacity: true)
                while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") {
                    nameBytes.append(lower(bytes[cursor]))
                    cursor += 1
                }
                if nameBytes == formName { events.append(.endForm) }
                index = (find(tagClose, from: cursor).map { $0 + 1 }) ?? count
            } else if isLetter(next) {
                var cursor = index + 1
                nameBytes.removeAll(keepingCapacity: true)
                while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
                    bytes[cursor] != UInt8(ascii: "/")
                {
                    nameBytes.append(lower(bytes[cursor]))
                    cursor += 1
                }
                index = skipAttributes(from: cursor)
                // Compared as bytes: a String is made only for the few tags that are tracked or hold raw text.
                if let tracked = trackedNames.first(where: { $0.bytes == nameBytes }) {
                    events.append(.start(tracked.name))
                } else if nameBytes == scriptName || nameBytes == styleName {
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    index = find("</" + name, from: index, caseInsensitive: true) ?? count
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
