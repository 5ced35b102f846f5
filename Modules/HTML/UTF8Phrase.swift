/// Finding a phrase of a script written without spaces (`パスワード`, `密码`) in a text, on UTF-8 bytes. UTF-8 is
/// self-synchronising, so a byte match of a whole phrase starts and ends on characters' scalars; a match followed by
/// a mark that extends its last character (a combining accent, a joiner, a variation selector) is another character
/// and does not count, as with `String`'s own comparison by characters. Neither side is normalised: a page's text is
/// compared as written, as before this search moved off Foundation's.
enum UTF8Phrase {
    /// Whether `phrase` (UTF-8, not empty) occurs in `text` and ends on a character boundary.
    static func occurs(_ phrase: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = phrase.count
        guard count > 0, text.count >= count else { return false }
        let first = phrase[0]
        var index = 0
        let last = text.count - count
        while index <= last {
            if text[index] == first {
                var offset = 1
                while offset < count && text[index + offset] == phrase[offset] { offset += 1 }
                if offset == count && !extendsCharacter(text, at: index + count) { return true }
            }
            index += 1
        }
        return false
    }

    /// Whether the scalar starting at `index` joins the character before it (Grapheme_Extend, a spacing mark, or the
    /// zero-width joiner); false at the end of the text or for a malformed sequence.
    private static func extendsCharacter(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index < text.count, text[index] >= 0x80 else { return false }
        var decoder = UTF8()
        var iterator = text[index...].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        return scalar.properties.isGraphemeExtend || scalar.properties.generalCategory == .spacingMark
            || scalar == "\u{200D}"
    }
}
