/// The page's own `<style>` rules that hide elements on load, read as far as a person's view of the page needs:
/// rules whose selector is one compound of a type, classes and an id (`.error`, `#msg`, `div.alert.hide`, in a
/// comma list), and whose declarations hide (``HidingDeclarations``). Rules inside at-rules (`@media`, `@supports`)
/// and selectors with combinators, attributes or pseudo-classes are left out: whether they apply depends on more
/// than the element. Among the rules that match an element, the most specific wins, then the later one, as in CSS.
struct PageStyleSheet {
    /// One compound selector and what its rule says of visibility.
    struct Rule {
        let type: String?
        let classes: [String]
        let id: String?
        /// True: the rule hides; false: it shows again (`display:block`); never nil in a kept rule.
        let hides: Bool
        /// CSS specificity as one number: ids, then classes, then types.
        var specificity: Int { (id == nil ? 0 : 10_000) + classes.count * 100 + (type == nil ? 0 : 1) }
    }

    private(set) var rules: [Rule] = []
    /// Class names and ids any rule names: an element naming none of them is never looked at twice.
    private var namedClasses: Set<String> = []
    private var namedIDs: Set<String> = []

    var isEmpty: Bool { rules.isEmpty }

    /// The rules of the `<style>` texts, in document order.
    init(styles: [String]) {
        for text in styles { read(Self.withoutComments(text)) }
        for rule in rules {
            namedClasses.formUnion(rule.classes)
            if let id = rule.id { namedIDs.insert(id) }
        }
    }

    /// Whether the page's rules hide `node` itself (its ancestors are judged on their own).
    func hides(_ node: DOMNode) -> Bool {
        let classes = node.classTokens
        let id = node.attribute("id")
        guard classes.contains(where: namedClasses.contains) || id.map(namedIDs.contains) == true else { return false }
        var decided: (specificity: Int, hides: Bool)?
        for rule in rules where Self.matches(rule, type: node.name, classes: classes, id: id) {
            if decided == nil || rule.specificity >= decided!.specificity {
                decided = (rule.specificity, rule.hides)
            }
        }
        return decided?.hides ?? false
    }

    private static func matches(_ rule: Rule, type: String, classes: [String], id: String?) -> Bool {
        if let wanted = rule.type, wanted != type { return false }
        if let wanted = rule.id, wanted != id { return false }
        return rule.classes.allSatisfy(classes.contains)
    }

    /// Reads `selectors { declarations }` pairs at the top level; an at-rule's block is skipped whole.
    private mutating func read(_ text: String) {
        // ASCII text (nearly every style sheet) is read on its bytes: there a byte is a character, the braces too.
        var bytes = text
        let readAsBytes = bytes.withUTF8 { bytes -> Bool in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            readASCII(bytes)
            return true
        }
        if !readAsBytes { readCharacters(text) }
    }

    /// ``read(_:)`` of ASCII text, on its bytes.
    private mutating func readASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var index = 0
        while index < bytes.count {
            guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "{")) else { return }
            let prelude = text(index..<open).trimmingASCIIWhitespace()
            var depth = 0
            var closing: Int?
            for position in open..<bytes.count {
                if bytes[position] == UInt8(ascii: "{") {
                    depth += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 {
                        closing = position
                        break
                    }
                }
            }
            guard let close = closing else { return }
            if !prelude.hasPrefix("@") { addRules(prelude: prelude, body: text(open + 1..<close)) }
            index = close + 1
        }
    }

    /// The rules of one `selectors { declarations }` pair.
    private mutating func addRules(prelude: String, body: String) {
        // The selectors first: most rules have none of one compound, and their declarations need not be read.
        let compounds = prelude.split(separator: ",").compactMap {
            Self.compound(String($0).trimmingASCIIWhitespace(), hides: false)
        }
        guard !compounds.isEmpty, let hides = HidingDeclarations(body).verdict else { return }
        for compound in compounds {
            rules.append(Rule(type: compound.type, classes: compound.classes, id: compound.id, hides: hides))
        }
    }

    /// ``read(_:)`` of text beyond ASCII, character by character.
    private mutating func readCharacters(_ text: String) {
        var index = text.startIndex
        while index < text.endIndex {
            guard let open = text[index...].firstIndex(of: "{") else { return }
            let prelude = String(text[index..<open]).trimmingASCIIWhitespace()
            guard let close = Self.matchingBrace(in: text, from: open) else { return }
            if !prelude.hasPrefix("@") {
                addRules(prelude: prelude, body: String(text[text.index(after: open)..<close]))
            }
            index = text.index(after: close)
        }
    }

    /// The `}` that closes the block opened at `open`, counting nested blocks; nil when unbalanced.
    private static func matchingBrace(in text: String, from open: String.Index) -> String.Index? {
        var depth = 0
        var index = open
        while index < text.endIndex {
            switch text[index] {
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// A selector of one compound (`div.a.b#c`), or nil for anything else.
    private static func compound(_ selector: String, hides: Bool) -> Rule? {
        guard !selector.isEmpty,
            selector.allSatisfy({ $0.isLetter || $0.isNumber || "-_.#".contains($0) })
        else { return nil }
        var type: String?
        var classes: [String] = []
        var id: String?
        var current = ""
        var marker: Character? = nil
        func flush() {
            guard !current.isEmpty else { return }
            switch marker {
            case ".": classes.append(current)
            case "#": id = current
            default: type = current.lowercased()
            }
            current = ""
        }
        for character in selector {
            if character == "." || character == "#" {
                flush()
                marker = character
            } else {
                current.append(character)
            }
        }
        flush()
        guard !classes.isEmpty || id != nil else { return nil }  // a whole element type hidden is not a template
        return Rule(type: type, classes: classes, id: id, hides: hides)
    }

    private static func withoutComments(_ text: String) -> String {
        guard !ASCIIText.contains(text, "/*") else { return withoutComments(containing: text) }
        return text
    }

    /// ``withoutComments(_:)`` of text holding `/*`: on its bytes when it is ASCII, else character by character.
    private static func withoutComments(containing text: String) -> String {
        var copy = text
        if let cut = copy.withUTF8({ bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var kept: [UInt8] = []
            kept.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                guard let start = ScriptStrings.firstIndex(of: "/*", in: bytes, from: index) else { break }
                kept += bytes[index..<start]
                guard let end = ScriptStrings.firstIndex(of: "*/", in: bytes, from: start + 2) else {
                    return String(decoding: kept, as: UTF8.self)
                }
                index = end + 2
            }
            if index < bytes.count { kept += bytes[index...] }
            return String(decoding: kept, as: UTF8.self)
        }) {
            return cut
        }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "/*") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "*/") else { return result }
            rest = rest[end.upperBound...]
        }
        return result + rest
    }
}
