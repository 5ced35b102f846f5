/// RFC 3986 reference resolution (section 5.2) on strings, with the small clean-ups browsers apply to
/// attribute values first: leading/trailing whitespace dropped, tabs and newlines removed, and spaces,
/// controls and non-ASCII characters percent-encoded (UTF-8).
public enum URLResolver {
    /// The parts of a URI reference (RFC 3986 appendix B); nil components are absent, "" is present-empty.
    public struct Components: Sendable, Equatable {
        /// The scheme, without `:`.
        public var scheme: String?
        /// The authority, without `//`.
        public var authority: String?
        /// The path (possibly empty).
        public var path: String
        /// The query, without `?`.
        public var query: String?
        /// The fragment, without `#`.
        public var fragment: String?

        /// Recomposes the reference (RFC 3986 section 5.3).
        public var string: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority { result += "//" + authority }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
            return result
        }
    }

    /// Splits a reference into its five components.
    public static func components(of reference: String) -> Components {
        var copy = reference
        if let parts = copy.withUTF8({ asciiComponents(of: $0) }) { return parts }
        // The delimiters are ASCII: in ASCII text (every cleaned reference) a search of the bytes finds what a search
        // of the characters finds, without working out grapheme boundaries.
        let ascii = reference.utf8.allSatisfy { $0 < 0x80 }
        func first(_ delimiter: Character, in text: Substring) -> Substring.Index? {
            ascii ? text.utf8.firstIndex(of: delimiter.asciiValue!) : text.firstIndex(of: delimiter)
        }
        var rest = Substring(reference)
        var fragment: String?
        if let hash = first("#", in: rest) {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = first("?", in: rest) {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        var scheme: String?
        if let colon = first(":", in: rest) {
            let candidate = rest[..<colon]
            if let first = candidate.first, first.isASCII, first.isLetter,
                candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
            {
                scheme = String(candidate)
                rest = rest[rest.index(after: colon)...]
            }
        }
        var authority: String?
        if rest.hasPrefix("//") {
            let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
            let end = first("/", in: rest[afterSlashes...]) ?? rest.endIndex
            authority = String(rest[afterSlashes..<end])
            rest = rest[end...]
        }
        return Components(scheme: scheme, authority: authority, path: String(rest), query: query, fragment: fragment)
    }

    /// ``components(of:)`` of an ASCII reference (every cleaned one), on its bytes: there each byte is a character and
    /// the letters, digits and delimiters are the ASCII ones. Nil for a reference beyond ASCII.
    private static func asciiComponents(of bytes: UnsafeBufferPointer<UInt8>) -> Components? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        func first(_ delimiter: Character, in range: Range<Int>) -> Int? {
            bytes[range].firstIndex(of: delimiter.asciiValue!)
        }
        func isLetter(_ byte: UInt8) -> Bool { (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
        var start = 0
        var end = bytes.count
        var fragment: String?
        if let hash = first("#", in: start..<end) {
            fragment = text(hash + 1..<end)
            end = hash
        }
        var query: String?
        if let mark = first("?", in: start..<end) {
            query = text(mark + 1..<end)
            end = mark
        }
        var scheme: String?
        if let colon = first(":", in: start..<end), colon > 0, isLetter(bytes[0]),
            bytes[0..<colon].allSatisfy({
                isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        {
            scheme = text(0..<colon)
            start = colon + 1
        }
        var authority: String?
        if end - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
            let slash = first("/", in: start + 2..<end) ?? end
            authority = text(start + 2..<slash)
            start = slash
        }
        return Components(
            scheme: scheme, authority: authority, path: text(start..<end), query: query, fragment: fragment)
    }

    /// `scheme://host[:port]` of an absolute http(s) URL, lowercased, without user information; nil otherwise.
    static func origin(of url: String) -> String? {
        let parts = components(of: url)
        guard let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var authority = parts.authority?.lowercased(), !authority.isEmpty
        else { return nil }
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        return scheme + "://" + authority
    }

    /// Resolves `reference` against the absolute `base` (RFC 3986 section 5.2.2, strict parser).
    /// Returns nil when the result has no scheme (the base was not absolute and the reference is relative).
    public static func resolve(_ reference: String, against base: String) -> String? {
        resolve(reference) { Base(base).parts }
    }

    /// A base URL parsed once, for the many references of a page resolved against it.
    struct Base {
        /// The base's parts, its scheme lower-cased; nil when it has no scheme.
        fileprivate let parts: Components?

        init(_ url: String) {
            var parts = URLResolver.components(of: URLResolver.clean(url))
            // Lower-cased as an absolute reference's is: resolving a result again keeps it.
            parts.scheme = parts.scheme?.lowercased()
            self.parts = parts.scheme == nil ? nil : parts
        }

        /// ``URLResolver/resolve(_:against:)`` against this base.
        func resolve(_ reference: String) -> String? {
            URLResolver.resolve(reference) { parts }
        }
    }

    /// Resolves `reference` against the base `base` gives, asked only for a relative reference.
    private static func resolve(_ reference: String, base: () -> Components?) -> String? {
        let cleaned = clean(reference)
        let r = components(of: cleaned)
        let target: Components
        if r.scheme != nil {
            target = Components(
                scheme: r.scheme?.lowercased(), authority: r.authority, path: removeDotSegments(r.path), query: r.query,
                fragment: r.fragment)
        } else {
            guard let b = base() else { return nil }
            if r.authority != nil {
                target = Components(
                    scheme: b.scheme, authority: r.authority, path: removeDotSegments(r.path), query: r.query,
                    fragment: r.fragment)
            } else if r.path.isEmpty {
                target = Components(
                    scheme: b.scheme, authority: b.authority, path: b.path, query: r.query ?? b.query,
                    fragment: r.fragment)
            } else if r.path.hasPrefix("/") {
                target = Components(
                    scheme: b.scheme, authority: b.authority, path: removeDotSegments(r.path), query: r.query,
                    fragment: r.fragment)
            } else {
                target = Components(
                    scheme: b.scheme, authority: b.authority,
                    path: removeDotSegments(merge(base: b, path: r.path)), query: r.query, fragment: r.fragment)
            }
        }
        return target.string
    }

    /// `url` with its query replaced by `query` (the fragment kept), as GET form submission does.
    public static func replacingQuery(of url: String, with query: String) -> String {
        var parts = components(of: url)
        parts.query = query
        return parts.string
    }

    /// RFC 3986 section 5.2.4.
    public static func removeDotSegments(_ path: String) -> String {
        // Every rule below needs a segment that starts with a dot: a path with none comes out as it went in.
        guard path.utf8.first == UInt8(ascii: ".") || ASCIIText.contains(path, "/.") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    private static func merge(base: Components, path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// A URL typed into a browser's address bar (or a command line), made sendable the way the browser makes it:
    /// ``clean(_:)``'s clean-up, and `{`, `}`, `|`, `\` and `^` percent-encoded too (libcurl refuses them as
    /// they are). An existing `%20` stays one and the delimiters (`/`, `?`, `&`, `=`, `#`, `'`, `(`, `)`, `$`) keep
    /// their meaning, so `/_api/web/GetFolderByServerRelativeUrl('/Shared Documents')` is sent as it is written.
    public static func typed(_ text: String) -> String {
        var result = ""
        for character in clean(text) {
            switch character {
            case "{", "}", "|", "\\", "^": result += percentByte(character.asciiValue ?? 0)
            default: result.append(character)
            }
        }
        return result
    }

    /// Browser-style clean-up of an attribute URL before parsing: whitespace around it dropped, tabs and line
    /// breaks removed, spaces, controls, non-ASCII and `"`, `<`, `>`, `` ` `` percent-encoded.
    static func clean(_ value: String) -> String {
        // Most values need no clean-up at all: nothing to drop, nothing to encode.
        if value.utf8.allSatisfy({ byte in
            byte > 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x3C && byte != 0x3E && byte != 0x60
        }) {
            return value
        }
        // On bytes: every scalar the clean-up drops or keeps alone is one ASCII byte, and a scalar beyond ASCII is
        // encoded byte by byte, all of its bytes being 0x80 or more.
        var bytes = Array(value.utf8)[...]
        while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            switch byte {
            case 0x09, 0x0A, 0x0D: continue
            case 0x00...0x20, 0x22, 0x3C, 0x3E, 0x60, 0x7F...: appendPercentByte(byte, to: &result)
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `%XX` of `byte`, upper-case hexadecimal.
    static func percentByte(_ byte: UInt8) -> String {
        var result: [UInt8] = []
        appendPercentByte(byte, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends `%XX` of `byte` to `bytes`.
    static func appendPercentByte(_ byte: UInt8, to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        bytes.append(UInt8(ascii: "%"))
        bytes.append(digits.utf8Start[Int(byte >> 4)])
        bytes.append(digits.utf8Start[Int(byte & 0x0F)])
    }
}
