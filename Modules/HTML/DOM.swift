/// A parsed page as a plain Swift tree, built from libxml2's parse events (``DOMParser``).
/// Internal and not `Sendable`: it only lives while an `HTMLPage` is being read.
///
/// The few properties that change after a node is made (its children and parent while the tree is built, and what the
/// page's readers work out once per node) are `@exclusivity(unchecked)`: one thread builds and reads a page's tree, no
/// access to them overlaps another (each is a plain read or assignment, never held across a call), and the run-time
/// check on every access to them took about 5 % of reading a page.
final class DOMNode {
    enum Kind {
        case element
        case text
        case comment
    }

    let kind: Kind
    /// Lower-cased element name; empty for text and comments.
    let name: String
    /// Attributes in source order, names lower-cased, values entity-decoded.
    let attributes: [(name: String, value: String)]
    /// Text of text and comment nodes.
    let text: String
    /// What the element's name tells the readers, looked up once.
    let nameTraits: ElementNameTraits
    @exclusivity(unchecked) private(set) var children: [DOMNode] = []
    /// The parent element or document. `unowned`: the parent owns its children, and every node lives exactly as
    /// long as the tree's root (a `weak` reference would give each node a side table, which doubled the cost of
    /// every retain and release while a page is read).
    @exclusivity(unchecked) private(set) unowned var parent: DOMNode?
    /// Hidden by a rule of the page's own `<style>` (``Visibility/applyPageStyles(to:)`` marks it once per page).
    var isHiddenByPageStyle: Bool {
        get { hiddenByPageStyle }
        set {
            hiddenByPageStyle = newValue
            hiddenVerdict = nil
        }
    }
    @exclusivity(unchecked) private var hiddenByPageStyle = false
    /// ``Visibility/isHidden(_:)`` of this node, kept from its first answer: every reader of the page asks it of the
    /// elements it walks.
    @exclusivity(unchecked) var hiddenVerdict: Bool?

    init(kind: Kind, name: String = "", attributes: [(name: String, value: String)] = [], text: String = "") {
        self.kind = kind
        self.name = name
        self.attributes = attributes
        self.text = text
        self.nameTraits = ElementNameTraits.of(name)
    }

    /// An element whose name's traits are already known (the tree builder looks each name up once per page).
    init(element name: String, traits: ElementNameTraits, attributes: [(name: String, value: String)]) {
        self.kind = .element
        self.name = name
        self.attributes = attributes
        self.text = ""
        self.nameTraits = traits
    }

    func append(_ child: DOMNode) {
        child.parent = self
        children.append(child)
    }

    /// The value of the first attribute called `name` (lower-case), nil when absent.
    func attribute(_ name: String) -> String? {
        let count = name.utf8.count
        return attributes.first { $0.name.utf8.count == count && $0.name == name }?.value
    }

    func hasAttribute(_ name: String) -> Bool {
        let count = name.utf8.count
        return attributes.contains { $0.name.utf8.count == count && $0.name == name }
    }

    /// Ancestors, nearest first.
    var ancestors: [DOMNode] {
        var result: [DOMNode] = []
        var current = parent
        while let node = current {
            result.append(node)
            current = node.parent
        }
        return result
    }

    func hasAncestor(named name: String) -> Bool { nearestAncestor(named: name) != nil }

    /// The nearest ancestor element called `name`, walking up without building the ancestor list.
    func nearestAncestor(named name: String) -> DOMNode? {
        var current = parent
        while let node = current {
            if node.kind == .element && node.name == name { return node }
            current = node.parent
        }
        return nil
    }

    /// All descendants in document (tree) order, not including `self`.
    var descendants: [DOMNode] {
        var result: [DOMNode] = []
        func walk(_ node: DOMNode) {
            for child in node.children {
                result.append(child)
                walk(child)
            }
        }
        walk(self)
        return result
    }

    /// Concatenated text of all descendant text nodes.
    var textContent: String {
        if kind != .element { return kind == .text ? text : "" }
        var result = ""
        appendText(to: &result)
        return result
    }

    /// Appends the text of the descendant text nodes, in order, without listing the descendants first.
    private func appendText(to result: inout String) {
        for child in children {
            switch child.kind {
            case .text: result += child.text
            case .element: child.appendText(to: &result)
            case .comment: break
            }
        }
    }

    /// What the element's id and classes tell the page readers (``NameSignals``): worked out on the first question,
    /// or marked for a whole page at once (``PageReader`` does, with a memo of the page's names).
    var nameSignals: NameSignals {
        get {
            if let knownSignals { return knownSignals }
            let signals = NameSignals.of(self)
            knownSignals = signals
            return signals
        }
        set { knownSignals = newValue }
    }
    @exclusivity(unchecked) private var knownSignals: NameSignals?

    /// Space-separated tokens of the `class` attribute, split once per node: the visibility rules, the style sheet,
    /// the heading test and the error reader all ask for them.
    var classTokens: [String] {
        if let knownClassTokens { return knownClassTokens }
        let tokens = splitClasses()
        knownClassTokens = tokens
        return tokens
    }
    @exclusivity(unchecked) private var knownClassTokens: [String]?

    /// The `class` attribute split into its tokens.
    private func splitClasses() -> [String] {
        guard let classes = attribute("class"), !classes.isEmpty else { return [] }
        // ASCII without CR LF (nearly every class attribute): each separator is a character of its own, so the bytes
        // split where the characters do. Elsewhere a separator may be part of a wider character (CR LF, a space
        // before a combining mark), which the split by characters keeps whole.
        let bytes = classes.utf8
        if bytes.allSatisfy({ $0 < 0x80 }), !ASCIIText.contains(classes, "\r\n") {
            return bytes.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
                .map { String(decoding: $0, as: UTF8.self) }
        }
        return classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .map(String.init)
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, LF, FF, CR).
    package func trimmingASCIIWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.isASCIIWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.isASCIIWhitespace })!
        return String(scalars[start...end])
    }

    /// Whether the string is empty or all white space (ASCII white space and U+00A0): whether
    /// ``collapsingWhitespace()`` would give the empty string, without building it.
    package var isBlank: Bool {
        unicodeScalars.allSatisfy { $0.isASCIIWhitespace || $0 == "\u{A0}" }
    }

    /// Whitespace runs collapsed to one space, trimmed. Worked on the UTF-8 bytes: every white space it collapses is
    /// one ASCII byte or the two bytes of U+00A0 (`C2 A0`, which in valid UTF-8 is never part of another character).
    package func collapsingWhitespace() -> String {
        var copy = self
        return copy.withUTF8 { Self.collapsingWhitespace(of: $0) }
    }

    /// ``collapsingWhitespace()`` of UTF-8 bytes.
    private static func collapsingWhitespace(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var pendingSpace = false
        var afterC2 = false
        for byte in bytes {
            if afterC2 {
                afterC2 = false
                if byte == 0xA0 {
                    pendingSpace = !result.isEmpty
                    continue
                }
                if pendingSpace { result.append(0x20) }
                pendingSpace = false
                result.append(0xC2)
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                pendingSpace = !result.isEmpty
            } else if byte == 0xC2 {
                afterC2 = true
            } else {
                if pendingSpace { result.append(0x20) }
                pendingSpace = false
                result.append(byte)
            }
        }
        if afterC2 {
            if pendingSpace { result.append(0x20) }
            result.append(0xC2)
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension Unicode.Scalar {
    var isASCIIWhitespace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\u{0C}" }
}
