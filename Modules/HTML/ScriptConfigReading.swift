import JSON

/// Configuration objects and markup inside scripts: `$Config`/`ServerData` literals decoded as JSON, the hidden
/// input a configuration carries as markup (`sFTTag`), HTML entities and JavaScript escapes in their strings.
extension ScriptReading {
    /// Decodes JavaScript string escapes (`\\'`, `\\n`, `\\xHH`, `\\uHHHH` with surrogate pairs, `\\u{…}`…).
    static func unescapeJavaScript(_ text: String) -> String {
        ScriptStrings.withBytes(text) { ScriptStrings.decode($0, from: 0, to: $0.count) }
    }

    /// The configuration object a sign-in page's script assigns, decoded (`ScriptObjectLiteral`; JSON is read as
    /// JSON), repeated member names collapsed as JavaScript does: Entra ID's `$Config = {…}` first; else
    /// Microsoft account's `ServerData = {…}`; else the first object literal assigned to a variable or a window
    /// property (`var x = {…}`, `window.x = {…}`) that carries a string `urlPost` (where the page posts).
    static func config(in script: String) -> JSONValue? {
        ScriptStrings.withBytes(script) { bytes -> JSONValue? in
            if ScriptStrings.contains(bytes, "$Config"),
                let config = firstAssignedObject(
                    in: bytes, reads: { name, _ in ScriptWords.equals(bytes, name, "$Config") ? true : nil })
            {
                return config
            }
            // Looked for by their rarer ends (`rData`, `lPost`): scripts are full of `Se…` and `ur…`.
            let hasServerData = ScriptStrings.contains(bytes, "Serve", then: "rData")
            guard hasServerData || ScriptStrings.contains(bytes, "ur", then: "lPost") else { return nil }
            var posting: JSONValue?
            let serverData = firstAssignedObject(
                in: bytes,
                reads: { name, onWindow in
                    guard onWindow else { return nil }
                    if hasServerData && ScriptWords.equals(bytes, name, "ServerData") { return true }
                    return posting == nil ? false : nil
                },
                inspect: { object in
                    if object["urlPost"]?.stringValue != nil { posting = object }
                })
            return serverData ?? posting
        }
    }

    /// The first object literal assigned to a name (`x = {…}`, `var x = {…}`, `a.x = {…}`) that `reads` takes:
    /// given the name and whether it is a variable or a window property (`window.x`), it answers nil (do not
    /// read), true (read: that is the answer) or false (read and hand the object to `inspect`, then go on).
    /// Repeated names are collapsed. Scanning goes on after each literal read (or where reading stopped), so each
    /// byte is read at most twice.
    private static func firstAssignedObject(
        in bytes: UnsafeBufferPointer<UInt8>, reads: (ScriptToken, Bool) -> Bool?,
        inspect: (JSONValue) -> Void = { _ in }
    ) -> JSONValue? {
        var lexer = ScriptLexer(bytes: bytes)
        var recent = (ScriptToken.none, ScriptToken.none, ScriptToken.none, ScriptToken.none, ScriptToken.none)
        while true {
            let token = lexer.next()
            if token.kind == .end { return nil }
            if token.isPunctuator(UInt8(ascii: "{")) && recent.0.isPunctuator(UInt8(ascii: "="))
                && recent.1.kind == .identifier
            {
                let onWindow =
                    !recent.2.isPunctuator(UInt8(ascii: "."))
                    || (ScriptWords.isAny(bytes, recent.3, ScriptWords.windowsAndGlobal)
                        && !recent.4.isPunctuator(UInt8(ascii: ".")))
                if let answer = reads(recent.1, onWindow) {
                    let (value, end) = ScriptObjectLiteral.read(bytes, at: token.start)
                    if let value, value.objectValue != nil {
                        let object = lastValueWins(value)
                        if answer { return object }
                        inspect(object)
                    }
                    lexer = ScriptLexer(bytes: bytes, from: end)
                    recent = (.none, .none, .none, .none, .none)
                    continue
                }
            }
            recent = (token, recent.0, recent.1, recent.2, recent.3)
        }
    }

    /// The `name` and `value` attributes of the first `<input …>` in `markup` (entities decoded): how Microsoft
    /// sign-in pages carry the flow token in `sFTTag`.
    package static func inputAttributes(in markup: String) -> (name: String?, value: String?) {
        let bytes = Array(markup.utf8)
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
        }
        let open = Array("<input".utf8)
        var index = 0
        var found = false
        while index + open.count <= bytes.count {
            if bytes[index] == open[0], (1..<open.count).allSatisfy({ lower(bytes[index + $0]) == open[$0] }),
                index + open.count == bytes.count || isSpace(bytes[index + open.count])
                    || bytes[index + open.count] == UInt8(ascii: "/")
            {
                found = true
                index += open.count
                break
            }
            index += 1
        }
        guard found else { return (nil, nil) }
        var name: String?
        var value: String?
        while index < bytes.count && bytes[index] != UInt8(ascii: ">") {
            if isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") {
                index += 1
                continue
            }
            let nameStart = index
            index += 1  // an attribute name may start with `=`
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="),
                bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/")
            {
                index += 1
            }
            let attribute = String(decoding: bytes[nameStart..<index].map(lower), as: UTF8.self)
            while index < bytes.count && isSpace(bytes[index]) { index += 1 }
            var attributeValue = ""
            if index < bytes.count && bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count && isSpace(bytes[index]) { index += 1 }
                let valueStart: Int
                let valueEnd: Int
                if index < bytes.count && (bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")) {
                    let quote = bytes[index]
                    valueStart = index + 1
                    var end = valueStart
                    while end < bytes.count && bytes[end] != quote { end += 1 }
                    valueEnd = end
                    index = min(end + 1, bytes.count)
                } else {
                    valueStart = index
                    while index < bytes.count && !isSpace(bytes[index]) && bytes[index] != UInt8(ascii: ">") {
                        index += 1
                    }
                    valueEnd = index
                }
                attributeValue = decodeEntities(String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self))
            }
            if attribute == "name" && name == nil { name = attributeValue }
            if attribute == "value" && value == nil { value = attributeValue }
        }
        return (name, value)
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric character references decoded.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = after
                continue
            }
            let entity = after[..<semicolon]
            var replacement: String?
            switch entity {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    replacement = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if entity.hasPrefix("#") {
                    replacement = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                }
            }
            if let replacement {
                result += replacement
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    /// `value` with repeated member names collapsed as JavaScript does for an object literal: the last value wins,
    /// in the place of the first occurrence.
    static func lastValueWins(_ value: JSONValue) -> JSONValue {
        // Most configurations repeat no name: such a value is kept whole instead of being built again.
        guard repeatsAName(value) else { return value }
        switch value {
        case .array(let elements): return .array(elements.map(lastValueWins))
        case .object(let members):
            var names: [String] = []
            var values: [String: JSONValue] = [:]
            for (name, member) in members {
                if values.updateValue(lastValueWins(member), forKey: name) == nil { names.append(name) }
            }
            return .object(names.map { ($0, values[$0]!) })
        default: return value
        }
    }

    /// Whether an object in `value` (itself or one inside it) names a member twice.
    static func repeatsAName(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let elements): return elements.contains(where: repeatsAName)
        case .object(let members):
            // A small object's names are compared pair by pair; a larger one's are gathered in a set.
            if members.count <= 12 {
                for (index, member) in members.enumerated() {
                    if members[..<index].contains(where: { $0.0 == member.0 }) || repeatsAName(member.1) { return true }
                }
                return false
            }
            var names = Set<String>()
            for (name, member) in members {
                if !names.insert(name).inserted || repeatsAName(member) { return true }
            }
            return false
        default: return false
        }
    }

    /// The index of the `}` closing the `{` at `start`, skipping braces inside strings.
    static func matchingBrace(_ bytes: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index = skipString(bytes, from: index)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return bytes[index] == UInt8(ascii: "}") ? index : nil }
            default: break
            }
            index += 1
        }
        return nil
    }
}
