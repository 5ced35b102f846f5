/// Finds form controls in raw page text the way an HTML tokenizer reads tags, and blanks the values that may
/// hold a secret: every hidden or password `<input>`'s `value`, the `value` of any input with a secret name,
/// and the content of a `<textarea>` with a secret name.
///
/// It works on the text as served, not on a parsed DOM, so it also sees markup inside script strings:
/// Entra's `$Config` carries a hidden PPFT input in `sFTTag` with JSON-escaped quotes (`\"`) and
/// sometimes `\u003c`/`\u003e` for the angle brackets; markup quoted into an attribute or text arrives as
/// `&lt;input type=&quot;hidden&quot; ...&gt;`. Quoted values may contain `>`; unquoted values end at
/// white space or `>`. A value whose closing quote never comes runs to the end of the text, as in a browser,
/// and is blanked to the end.
enum ControlValueRedaction {
    static let marker = Array("<redacted>".utf8)

    /// The byte sequences the scanner looks for, spelled once (compared case-insensitively).
    private enum Word {
        static let input = Array("input".utf8)
        static let textarea = Array("textarea".utf8)
        static let escapedLess = Array("\\u003c".utf8)
        static let escapedGreater = Array("\\u003e".utf8)
        static let escapedQuotes = [Array("\\u0022".utf8), Array("\\u0027".utf8)]
        static let entityLess = Array("&lt;".utf8)
        static let entityGreater = Array("&gt;".utf8)
        static let entityQuotes = ["&quot;", "&#34;", "&#x22;", "&#39;", "&#x27;", "&apos;"].map { Array($0.utf8) }
        static let textareaClosings = [
            Array("</textarea".utf8), Array("<\\/textarea".utf8), Array("\\u003c/textarea".utf8),
            Array("\\u003c\\/textarea".utf8), Array("&lt;/textarea".utf8),
        ]
    }

    /// `text` with the secret-bearing control values replaced by `<redacted>`; `isSecretName` decides by
    /// control name.
    static func redact(_ text: String, isSecretName: @escaping (String) -> Bool) -> String {
        let bytes = Array(text.utf8)
        var scanner = TagScanner(bytes: bytes, isSecretName: isSecretName)
        scanner.run()
        return String(decoding: scanner.output, as: UTF8.self)
    }

    private struct Attribute {
        var name: String
        /// The value's content, without its delimiters.
        var value: Range<Int>
        var quoted: Bool
    }

    private struct TagScanner {
        let bytes: [UInt8]
        let isSecretName: (String) -> Bool
        var output: [UInt8] = []
        /// Bytes before this index have been copied to `output` (or replaced there).
        var copied = 0

        init(bytes: [UInt8], isSecretName: @escaping (String) -> Bool) {
            self.bytes = bytes
            self.isSecretName = isSecretName
            output.reserveCapacity(bytes.count)
        }

        mutating func run() {
            var index = 0
            while index < bytes.count {
                guard let (element, afterName) = tagOpening(at: index) else {
                    index += 1
                    continue
                }
                let (attributes, tagEnd) = readAttributes(from: afterName)
                let type = attributes.first { $0.name == "type" }.map { text($0.value).lowercased() } ?? ""
                let name = attributes.first { $0.name == "name" }.map { text($0.value) } ?? ""
                let secretName = !name.isEmpty && isSecretName(name)
                if element == "input" && (type == "hidden" || type == "password" || secretName) {
                    for attribute in attributes where attribute.name == "value" {
                        replace(attribute.value, quoted: attribute.quoted)
                    }
                }
                index = tagEnd
                if element == "textarea" && secretName && tagEnd < bytes.count {
                    let contentEnd = textareaEnd(from: tagEnd)
                    replace(tagEnd..<contentEnd, quoted: true)
                    index = contentEnd
                }
            }
            output += bytes[copied...]
        }

        /// `input` or `textarea` and the index after the element name, when a start tag of one begins here.
        func tagOpening(at index: Int) -> (String, Int)? {
            var start: Int
            if bytes[index] == UInt8(ascii: "<") {
                start = index + 1
            } else if bytes[index] == UInt8(ascii: "\\"), matches(Word.escapedLess, at: index) {
                start = index + 6
            } else if bytes[index] == UInt8(ascii: "&"), matches(Word.entityLess, at: index) {
                start = index + 4
            } else {
                return nil
            }
            let element: String
            if matches(Word.input, at: start) {
                element = "input"
            } else if matches(Word.textarea, at: start) {
                element = "textarea"
            } else {
                return nil
            }
            let after = start + element.utf8.count
            guard
                after >= bytes.count || isSpace(bytes[after]) || endsName(bytes[after])
                    || bytes[after] == UInt8(ascii: "&")
            else { return nil }
            return (element, after)
        }

        /// The attributes of a start tag whose name ends at `start`, and the index after the tag's `>`.
        func readAttributes(from start: Int) -> ([Attribute], Int) {
            var attributes: [Attribute] = []
            var index = start
            while index < bytes.count {
                index = skipSeparators(from: index)
                guard index < bytes.count else { break }
                if let end = tagClose(at: index) { return (attributes, end) }
                let nameStart = index
                while index < bytes.count, !isSpace(bytes[index]), !endsName(bytes[index]) {
                    index += 1
                }
                if index == nameStart {
                    index += 1
                    continue
                }
                let name = text(nameStart..<index).lowercased()
                var afterSpace = index
                while afterSpace < bytes.count, isSpace(bytes[afterSpace]) { afterSpace += 1 }
                guard afterSpace < bytes.count, bytes[afterSpace] == UInt8(ascii: "=") else { continue }
                index = afterSpace + 1
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                if let delimiter = quote(at: index) {
                    let contentStart = index + delimiter.count
                    let contentEnd = find(delimiter, from: contentStart) ?? bytes.count
                    attributes.append(Attribute(name: name, value: contentStart..<contentEnd, quoted: true))
                    index = min(bytes.count, contentEnd + delimiter.count)
                } else {
                    let valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), tagClose(at: index) == nil { index += 1 }
                    attributes.append(Attribute(name: name, value: valueStart..<index, quoted: false))
                }
            }
            return (attributes, bytes.count)
        }

        /// The index after a tag's closing `>` (or JSON-escaped `\u003e`) at `index`.
        func tagClose(at index: Int) -> Int? {
            if bytes[index] == UInt8(ascii: ">") { return index + 1 }
            if bytes[index] == UInt8(ascii: "\\"), matches(Word.escapedGreater, at: index) { return index + 6 }
            if bytes[index] == UInt8(ascii: "&"), matches(Word.entityGreater, at: index) { return index + 4 }
            return nil
        }

        /// Skips white space, `/` and their escaped forms (`\/`, `\n`, `\t`, `\r`) between attributes.
        func skipSeparators(from start: Int) -> Int {
            var index = start
            while index < bytes.count {
                if isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count,
                    isEscapedSeparator(bytes[index + 1])
                {
                    index += 2
                } else {
                    break
                }
            }
            return index
        }

        /// The opening quote of a value at `index`: `"` or `'`, escaped with backslashes (`\"`, `\\\"`), as
        /// `\u0022`/`\u0027` or as a character reference (`&quot;`). The closing quote is the same sequence.
        func quote(at index: Int) -> [UInt8]? {
            guard index < bytes.count else { return nil }
            if isQuote(bytes[index]) { return [bytes[index]] }
            if bytes[index] == UInt8(ascii: "&") {
                return Word.entityQuotes.first { matches($0, at: index) }
            }
            guard bytes[index] == UInt8(ascii: "\\") else { return nil }
            for escaped in Word.escapedQuotes where matches(escaped, at: index) {
                return Array(bytes[index..<index + escaped.count])
            }
            var end = index
            while end < bytes.count, bytes[end] == UInt8(ascii: "\\") { end += 1 }
            if end < bytes.count, isQuote(bytes[end]) { return Array(bytes[index...end]) }
            return nil
        }

        /// Where the content of a `<textarea>` starting at `start` ends: its `</textarea` (or `<\/textarea`).
        func textareaEnd(from start: Int) -> Int {
            var index = start
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "<") || bytes[index] == UInt8(ascii: "\\")
                    || bytes[index] == UInt8(ascii: "&"),
                    Word.textareaClosings.contains(where: { matches($0, at: index) })
                {
                    return index
                }
                index += 1
            }
            return bytes.count
        }

        /// Replaces `range` with the marker; an unquoted value gets quotes so the tag still reads as one.
        mutating func replace(_ range: Range<Int>, quoted: Bool) {
            guard range.lowerBound >= copied else { return }
            output += bytes[copied..<range.lowerBound]
            if quoted {
                output += marker
            } else {
                output += [UInt8(ascii: "\"")] + marker + [UInt8(ascii: "\"")]
            }
            copied = range.upperBound
        }

        /// Whether `word` (ASCII, compared case-insensitively) is at `index`.
        func matches(_ expected: [UInt8], at index: Int) -> Bool {
            guard index >= 0, index + expected.count <= bytes.count else { return false }
            for offset in expected.indices where lower(bytes[index + offset]) != lower(expected[offset]) {
                return false
            }
            return true
        }

        func find(_ sequence: [UInt8], from start: Int) -> Int? {
            guard let first = sequence.first else { return nil }
            var index = start
            while index + sequence.count <= bytes.count {
                if bytes[index] == first && bytes[index..<index + sequence.count].elementsEqual(sequence) {
                    return index
                }
                index += 1
            }
            return nil
        }

        func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
        }

        /// `=`, `>`, `/` or `\\`: the end of an attribute name.
        func endsName(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "\\")
        }

        /// The letter after a backslash that makes an escaped separator: `\\/`, `\\n`, `\\t`, `\\r`.
        func isEscapedSeparator(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "/") || byte == UInt8(ascii: "n") || byte == UInt8(ascii: "t")
                || byte == UInt8(ascii: "r")
        }

        func isQuote(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        }

        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }

        func lower(_ byte: UInt8) -> UInt8 {
            (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
        }
    }
}
