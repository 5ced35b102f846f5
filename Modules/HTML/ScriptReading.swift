/// Which form a script submits.
public enum FormReference: Sendable, Equatable {
    /// `document.forms[N]`
    case index(Int)
    /// `document.forms['name']`, `document.forms.name`, `document.name`
    case name(String)
    /// `document.getElementById('id')`
    case id(String)
}

/// Reading the few script idioms sign-in pages use, without running any script: navigations, self-submissions
/// and configuration objects. Each reader is one linear pass over the script's tokens (`ScriptLexer`), so a
/// string, a comment or a regular expression that merely contains `location=` or `submit()` is never taken
/// for code. Only what runs when the page loads counts (see `ScriptScanner` for the rules).
package enum ScriptReading {
    /// The first navigation the script performs on load: an assignment of a string literal to the window's
    /// `location` or `location.href` (`window.`, `self.`, `top.`, `parent.`, `document.` prefixes allowed), or
    /// `location.replace/assign` with a string literal, as written (JavaScript escapes decoded, literals joined
    /// by `+` joined). A literal followed by more expression (`'…?u=' + x`) is not the target, and `javascript:`
    /// targets are not navigations. `isInvoked` tells whether a named function is called somewhere on the page.
    static func redirectTarget(in script: String, isInvoked: (String) -> Bool = { _ in false }) -> String? {
        ScriptStrings.withBytes(script) { bytes -> String? in
            guard mayRedirect(bytes) else { return nil }
            var scanner = ScriptScanner(bytes: bytes, targets: .redirects)
            scanner.run()
            return scanner.firstRunning(isInvoked: isInvoked, navigation)
        }
    }

    /// Whether a script may navigate at all (it names `location`, and a navigation's signs are in it): one that may
    /// not is not read for navigations.
    static func mayRedirect(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        signs(in: bytes, redirect: true, submit: false).redirect
    }

    /// ``mayRedirect(_:)`` (when `redirect` is asked) and ``maySubmitOrClick(_:)`` (when `submit` is) of one script,
    /// its escapes decoded at most once for both.
    static func signs(in bytes: UnsafeBufferPointer<UInt8>, redirect: Bool, submit: Bool)
        -> (redirect: Bool, submit: Bool)
    {
        ScriptSigns.mayRedirectOrSubmit(
            bytes, redirect: redirect && ScriptStrings.contains(bytes, "location"),
            submit: submit && (ScriptStrings.contains(bytes, "ubmit") || ScriptStrings.contains(bytes, "click")))
    }

    /// The navigation a scanner found, unless it is to a `javascript:` URL.
    static func navigation(_ found: ScriptScanner.Found) -> String? {
        guard case .redirect(let target) = found else { return nil }
        let scheme = target.trimmingASCIIWhitespace().prefix(11).lowercased()
        return scheme == "javascript:" ? nil : target
    }

    /// Whether `script` asks if the page is framed (`self != top`, `window.top !== window.self`,
    /// `top.location != location`, `parent.frames.length`): the test a frame-buster makes before moving the top frame.
    static func comparesFrames(_ script: String) -> Bool {
        let bytes = Array(script.utf8)
        func isChain(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == UInt8(ascii: ".")
        }
        /// The dotted name ending before `end` (skipping spaces and a closing parenthesis).
        func chain(endingBefore end: Int) -> String {
            var stop = end
            while stop > 0, bytes[stop - 1] == 0x20 || bytes[stop - 1] == UInt8(ascii: ")") { stop -= 1 }
            var start = stop
            while start > 0, isChain(bytes[start - 1]) { start -= 1 }
            return String(decoding: bytes[start..<stop], as: UTF8.self)
        }
        /// The dotted name starting at `start` (after spaces and an opening parenthesis).
        func chain(startingAt start: Int) -> String {
            var begin = start
            while begin < bytes.count, bytes[begin] == 0x20 || bytes[begin] == UInt8(ascii: "(") { begin += 1 }
            var end = begin
            while end < bytes.count, isChain(bytes[end]) { end += 1 }
            return String(decoding: bytes[begin..<end], as: UTF8.self)
        }
        func names(_ chain: String) -> [Substring] { chain.split(separator: ".") }
        let outer: Set<Substring> = ["top", "parent"]
        let own: Set<Substring> = ["self", "window", "location", "document"]
        var index = 0
        while index + 1 < bytes.count {
            // `!=`, `!==`, `==`, `===` (not `<=`, `>=` or an assignment).
            guard bytes[index + 1] == UInt8(ascii: "="),
                bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "=")
            else {
                index += 1
                continue
            }
            var after = index + 2
            if after < bytes.count, bytes[after] == UInt8(ascii: "=") { after += 1 }
            let left = names(chain(endingBefore: index))
            let right = names(chain(startingAt: after))
            let leftOuter = left.contains(where: outer.contains)
            let rightOuter = right.contains(where: outer.contains)
            if leftOuter != rightOuter,
                (leftOuter ? right : left).contains(where: own.contains)
            {
                return true
            }
            if left.suffix(2).elementsEqual(["frames", "length"]) && leftOuter { return true }
            index = after
        }
        return script.contains("parent.frames.length") || script.contains("top.frames.length")
    }

    /// The pairs of string literals a script hands, on load, to a call that loads content into an element
    /// (`f('url', 'id')`, `$('#id').load('url')`), in order; the page tells the element from the URL.
    static func contentLoads(in script: String, isInvoked: (String) -> Bool = { _ in false }) -> [(String, String)] {
        ScriptStrings.withBytes(script) { bytes -> [(String, String)] in
            var scanner = ScriptScanner(bytes: bytes, targets: .contentLoads)
            scanner.run()
            return scanner.running(isInvoked: isInvoked, contentLoad)
        }
    }

    /// The two literals of a content load a scanner found.
    static func contentLoad(_ found: ScriptScanner.Found) -> (String, String)? {
        guard case .contentLoad(let first, let second) = found else { return nil }
        return (first, second)
    }

    /// The form a script (or an `onload` attribute) submits by itself on load: `submit()` or `requestSubmit()` on
    /// `document.forms[N]`, `document.forms['name']`, `document.forms.name`, `document.name`,
    /// `document.getElementById('id')`, `document.querySelector('#id')` or `$('#id')`.
    static func submittedForm(in script: String, isInvoked: (String) -> Bool = { _ in false }) -> FormReference? {
        ScriptStrings.withBytes(script) { bytes -> FormReference? in
            guard ScriptStrings.contains(bytes, "ubmit"), ScriptSigns.maySubmit(bytes) else { return nil }
            var scanner = ScriptScanner(bytes: bytes, targets: .submissions)
            scanner.run()
            return scanner.firstRunning(isInvoked: isInvoked) { found -> FormReference? in
                guard case .submission(.form(let reference)) = found else { return nil }
                return reference
            }
        }
    }

    /// Like `submittedForm(in:isInvoked:)`, and also `click()` on an element found by id
    /// (`document.getElementById('id').click()`): the first of either that runs on load.
    static func submission(in script: String, isInvoked: (String) -> Bool = { _ in false }) -> ScriptSubmission? {
        ScriptStrings.withBytes(script) { bytes -> ScriptSubmission? in
            guard maySubmitOrClick(bytes) else { return nil }
            var scanner = ScriptScanner(bytes: bytes, targets: .submissions)
            scanner.run()
            return scanner.firstRunning(isInvoked: isInvoked, submission)
        }
    }

    /// Whether a script may submit a form or click a button at all: one that may not is not read for submissions.
    static func maySubmitOrClick(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        signs(in: bytes, redirect: false, submit: true).submit
    }

    /// The submission a scanner found.
    static func submission(_ found: ScriptScanner.Found) -> ScriptSubmission? {
        guard case .submission(let submission) = found else { return nil }
        return submission
    }

    /// The index in `forms` of the form a submission submits: by index, by name or id (`document.forms.x` and
    /// `document.x` find a form by either), or the form owning the submit button clicked. Nil when none matches.
    static func formIndex(of submission: ScriptSubmission, in forms: [HTMLForm]) -> Int? {
        switch submission {
        case .form(.index(let index)): return index >= 0 && index < forms.count ? index : nil
        case .form(.name(let name)): return forms.first { $0.name == name || $0.id == name }?.index
        case .form(.id(let id)): return forms.first { $0.id == id }?.index
        case .click(let id):
            return forms.first { form in form.controls.contains { $0.id == id && $0.isSubmitButton } }?.index
        }
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

    static func skipString(_ bytes: [UInt8], from start: Int) -> Int {
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
}
