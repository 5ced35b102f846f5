import JSON

/// Which form a script submits.
public enum FormReference: Sendable, Equatable {
    /// `document.forms[N]`
    case index(Int)
    /// `document.forms['name']`, `document.forms.name`, `document.name`
    case name(String)
    /// `document.getElementById('id')`
    case id(String)
}

/// Reading the few script idioms sign-in pages use, without running any script.
enum ScriptReading {
    /// The first location assignment or `location.replace/assign` call with a string literal, as written
    /// (JavaScript escapes decoded), ignoring those inside named function declarations that `isInvoked`
    /// says nothing calls.
    static func redirectTarget(in script: String, isInvoked: (String) -> Bool = { _ in false }) -> String? {
        guard script.contains("location") else { return nil }
        let patterns: [Regex<(Substring, Substring?, Substring?)>] = [
            // window.location = '…', location.href = "…", document.location.href='…', top.location = …
            #/(?:^|[^\w$.])(?:(?:window|document|top|self|parent)\s*\.\s*)?location(?:\s*\.\s*href)?\s*=(?!=)\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/#,
            // location.replace('…'), window.location.assign("…"), location.href.replace is not a navigation
            #/(?:^|[^\w$.])(?:(?:window|document|top|self|parent)\s*\.\s*)?location\s*\.\s*(?:replace|assign)\s*\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/#,
        ]
        let bodies = declaredFunctionBodies(in: script)
        var best: (offset: Int, target: String)?
        for pattern in patterns {
            for match in script.matches(of: pattern) {
                let offset = script.utf8.distance(from: script.utf8.startIndex, to: match.range.lowerBound)
                if isInsideUncalledFunction(offset, bodies: bodies, isInvoked: isInvoked) { continue }
                guard let literal = match.output.1 ?? match.output.2 else { continue }
                if best == nil || offset < best!.offset { best = (offset, unescapeJavaScript(String(literal))) }
                break
            }
        }
        return best?.target
    }

    /// The form a script (or an `onload` attribute) submits by itself, ignoring calls inside named
    /// function declarations that `isInvoked` says nothing calls (those run only on a user action).
    static func submittedForm(in script: String, isInvoked: (String) -> Bool = { _ in false }) -> FormReference? {
        guard script.contains("submit") else { return nil }
        let bodies = declaredFunctionBodies(in: script)
        func allowed(_ range: Range<String.Index>) -> Bool {
            let offset = script.utf8.distance(from: script.utf8.startIndex, to: range.lowerBound)
            return !isInsideUncalledFunction(offset, bodies: bodies, isInvoked: isInvoked)
        }
        var found: [(Int, FormReference)] = []
        func record(_ range: Range<String.Index>, _ reference: FormReference) {
            guard allowed(range) else { return }
            found.append((script.utf8.distance(from: script.utf8.startIndex, to: range.lowerBound), reference))
        }
        for match in script.matches(of: #/document\s*\.\s*forms\s*\[\s*(\d+)\s*\]\s*\.\s*submit\s*\(\s*\)/#) {
            if let index = Int(match.output.1) { record(match.range, .index(index)) }
        }
        for match in script.matches(
            of: #/document\s*\.\s*forms\s*\[\s*(?:'([^'\n]*)'|"([^"\n]*)")\s*\]\s*\.\s*submit\s*\(\s*\)/#)
        {
            if let name = match.output.1 ?? match.output.2 { record(match.range, .name(String(name))) }
        }
        for match in script.matches(of: #/document\s*\.\s*forms\s*\.\s*([A-Za-z_$][\w$]*)\s*\.\s*submit\s*\(\s*\)/#) {
            record(match.range, .name(String(match.output.1)))
        }
        for match in script.matches(
            of: #/document\s*\.\s*getElementById\s*\(\s*(?:'([^'\n]*)'|"([^"\n]*)")\s*\)\s*\.\s*submit\s*\(\s*\)/#)
        {
            if let id = match.output.1 ?? match.output.2 { record(match.range, .id(String(id))) }
        }
        for match in script.matches(of: #/document\s*\.\s*([A-Za-z_$][\w$]*)\s*\.\s*submit\s*\(\s*\)/#)
        where match.output.1 != "forms" {
            record(match.range, .name(String(match.output.1)))
        }
        return found.min { $0.0 < $1.0 }?.1
    }

    /// Whether `offset` lies in the body of a declared function nothing calls. `isInvoked` is asked only
    /// for the functions around `offset` (it may be costly on large scripts).
    private static func isInsideUncalledFunction(
        _ offset: Int, bodies: [(name: String, body: Range<Int>)], isInvoked: (String) -> Bool
    ) -> Bool {
        bodies.contains { $0.body.contains(offset) && !isInvoked($0.name) }
    }

    /// The names and byte-offset ranges (UTF-8) of the bodies of `function name(…) { … }` declarations.
    /// Strings and comments are skipped while matching braces.
    static func declaredFunctionBodies(in script: String) -> [(name: String, body: Range<Int>)] {
        let bytes = Array(script.utf8)
        var ranges: [(name: String, body: Range<Int>)] = []
        var openStack: [(position: Int, declared: String?)] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                index = skipString(bytes, from: index)
                continue
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index + 1 < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index += 2
                continue
            case UInt8(ascii: "{"):
                openStack.append((index, isDeclaredFunctionHead(bytes, before: index)))
            case UInt8(ascii: "}"):
                if let open = openStack.popLast(), let name = open.declared {
                    ranges.append((name, open.position..<index))
                }
            default:
                break
            }
            index += 1
        }
        for open in openStack {
            if let name = open.declared { ranges.append((name, open.position..<bytes.count)) }
        }
        return ranges
    }

    /// The name when the text before a `{` ends with `function name(…)` (a declaration, not an expression
    /// assigned somewhere: `x = function(…)` and `onload = function(…)` run when triggered by the page).
    private static func isDeclaredFunctionHead(_ bytes: [UInt8], before position: Int) -> String? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
        }
        var index = position - 1
        while index >= 0 && isSpace(bytes[index]) { index -= 1 }
        guard index >= 0, bytes[index] == UInt8(ascii: ")") else { return nil }
        index -= 1
        while index >= 0 && bytes[index] != UInt8(ascii: "(") && bytes[index] != UInt8(ascii: ")") { index -= 1 }
        guard index >= 0, bytes[index] == UInt8(ascii: "(") else { return nil }
        index -= 1
        while index >= 0 && isSpace(bytes[index]) { index -= 1 }
        let nameEnd = index + 1
        while index >= 0 && isIdentifier(bytes[index]) { index -= 1 }
        let nameStart = index + 1
        guard nameStart < nameEnd else { return nil }
        while index >= 0 && isSpace(bytes[index]) { index -= 1 }
        let keyword = Array("function".utf8)
        guard index + 1 >= keyword.count, bytes[(index + 1 - keyword.count)...index].elementsEqual(keyword) else {
            return nil
        }
        let before = index - keyword.count
        if before >= 0 && isIdentifier(bytes[before]) { return nil }
        let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
        return name == "function" ? nil : name
    }

    /// Whether `name` appears in `code` as an identifier other than in its own `function name` declaration
    /// (a call, or a reference such as `onload = name` or `setTimeout(name, 0)`).
    static func references(_ name: String, in code: String) -> Bool {
        let bytes = Array(code.utf8)
        let target = Array(name.utf8)
        guard !target.isEmpty, bytes.count >= target.count else { return false }
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
        }
        var index = 0
        while index + target.count <= bytes.count {
            defer { index += 1 }
            guard bytes[index..<index + target.count].elementsEqual(target) else { continue }
            if index > 0 && isIdentifier(bytes[index - 1]) { continue }
            let end = index + target.count
            if end < bytes.count && isIdentifier(bytes[end]) { continue }
            var before = index
            while before > 0 && (bytes[before - 1] == 0x20 || bytes[before - 1] == 0x09 || bytes[before - 1] == 0x0A) {
                before -= 1
            }
            let keyword = Array("function".utf8)
            if before >= keyword.count && bytes[(before - keyword.count)..<before].elementsEqual(keyword) { continue }
            return true
        }
        return false
    }

    private static func skipString(_ bytes: [UInt8], from start: Int) -> Int {
        let quote = bytes[start]
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == quote { return index + 1 }
            if bytes[index] == UInt8(ascii: "\n") && quote != UInt8(ascii: "`") { return index + 1 }
            index += 1
        }
        return bytes.count
    }

    /// Decodes JavaScript string escapes (`\'`, `\"`, `\\`, `\/`, `\n`, `\xHH`, `\uHHHH`, `\u{…}`).
    static func unescapeJavaScript(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = ""
        var index = 0
        func hex(_ from: Int, _ count: Int) -> UInt32? {
            guard from + count <= scalars.count else { return nil }
            var digits = ""
            digits.unicodeScalars.append(contentsOf: scalars[from..<from + count])
            return UInt32(digits, radix: 16)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "\\", index + 1 < scalars.count else {
                result.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            let escape = scalars[index + 1]
            index += 2
            switch escape {
            case "n": result += "\n"
            case "r": result += "\r"
            case "t": result += "\t"
            case "x":
                if let code = hex(index, 2), let value = Unicode.Scalar(code) {
                    result.unicodeScalars.append(value)
                    index += 2
                } else {
                    result += "x"
                }
            case "u":
                if index < scalars.count, scalars[index] == "{",
                    let close = scalars[index...].firstIndex(of: "}"),
                    let code = hex(index + 1, close - index - 1), let value = Unicode.Scalar(code)
                {
                    result.unicodeScalars.append(value)
                    index = close + 1
                } else if let code = hex(index, 4), let value = Unicode.Scalar(code) {
                    result.unicodeScalars.append(value)
                    index += 4
                } else {
                    result += "u"
                }
            default: result.unicodeScalars.append(escape)
            }
        }
        return result
    }

    /// The object literal assigned to `$Config` (`$Config = {…};`), decoded as JSON.
    static func config(in script: String) -> JSONValue? {
        let bytes = Array(script.utf8)
        let marker = Array("$Config".utf8)
        var index = 0
        while index + marker.count <= bytes.count {
            guard Array(bytes[index..<index + marker.count]) == marker else {
                index += 1
                continue
            }
            var cursor = index + marker.count
            while cursor < bytes.count,
                bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0A || bytes[cursor] == 0x0D
            { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "="),
                cursor + 1 < bytes.count, bytes[cursor + 1] != UInt8(ascii: "=")
            else {
                index += marker.count
                continue
            }
            cursor += 1
            while cursor < bytes.count,
                bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0A || bytes[cursor] == 0x0D
            { cursor += 1 }
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "{"), let end = matchingBrace(bytes, from: cursor),
                let value = try? JSONValue.parse(bytes: Array(bytes[cursor...end]))
            {
                return lastValueWins(value)
            }
            index = cursor
        }
        return nil
    }

    /// `value` with repeated member names collapsed as JavaScript does for an object literal: the last value wins,
    /// in the place of the first occurrence.
    static func lastValueWins(_ value: JSONValue) -> JSONValue {
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
