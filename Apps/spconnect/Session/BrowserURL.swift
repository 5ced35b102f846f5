/// A URL typed as a person would type it into a browser's address bar, made sendable the way the browser makes it:
/// the bytes a URL cannot hold (a space, control characters, non-ASCII letters, `"`, `<`, `>`, `` ` ``, `{`, `}`,
/// `|`, `\`, `^`) percent-encoded as UTF-8, everything else left as written: an existing `%20` stays one, and the
/// delimiters (`/`, `?`, `&`, `=`, `#`, `'`, `(`, `)`, `$`) keep their meaning. So `spconnect api` takes
/// `/_api/web/GetFolderByServerRelativeUrl('/Shared Documents')` as it is written.
enum BrowserURL {
    /// `text` with the bytes a URL cannot hold percent-encoded.
    static func encoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        let invalid = Set("\"<>`{}|\\^".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte <= 0x20 || byte >= 0x7F || invalid.contains(byte) {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
