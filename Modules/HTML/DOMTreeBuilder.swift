internal import CLibXML2
internal import CXMLShims

enum DOMParser {
    /// libxml2's one-time global set-up, done before the first parse (thread-safe: a Swift static `let`).
    static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Recovering, no network, silent.
    static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue)

    /// Parses `bytes` with libxml2's HTML parser into a Swift tree whose root is a synthetic element named
    /// `#document`: the tree libxml2 itself would build (``LibXMLTreeReading``), made straight from the parser's events.
    /// Nil when libxml2 cannot start a parser.
    static func parse(bytes: [UInt8], url: String, charset: String?) -> DOMNode? {
        parseTree(bytes: bytes, url: url, charset: charset)?.root
    }

    /// ``parse(bytes:url:charset:)``, with the tree's elements in document order (as they were made).
    static func parseTree(bytes: [UInt8], url: String, charset: String?) -> (root: DOMNode, elements: [DOMNode])? {
        guard initialized else { return nil }
        let trimmedCharset = charset.map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        // An empty buffer gives libxml2 no parser; a lone space gives every page a document.
        let input = bytes.isEmpty ? [UInt8(ascii: " ")] : bytes
        let builder = DOMTreeBuilder()
        let status = withExtendedLifetime(builder) {
            var events = spc_html_events(
                context: Unmanaged.passUnretained(builder).toOpaque(),
                start_element: { context, name, nameLasts, attributes in
                    DOMTreeBuilder.of(context).startElement(name: name, lasting: nameLasts != 0, attributes: attributes)
                        ? 1 : 0
                },
                end_element: { context in DOMTreeBuilder.of(context).endElement() },
                text: { context, bytes, length, isRawText in
                    DOMTreeBuilder.of(context).text(
                        UnsafeBufferPointer(start: bytes, count: Int(length)), raw: isRawText != 0)
                },
                comment: { context, text in DOMTreeBuilder.of(context).comment(text) },
                processing_instruction: { context in DOMTreeBuilder.of(context).processingInstruction() },
                document_type: { context in DOMTreeBuilder.of(context).documentType() })
            return input.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    spc_html_read_events(chars.baseAddress!, Int32(chars.count), trimmedCharset, options, &events)
                }
            }
        }
        guard status == 0 else { return nil }
        return (builder.finish(), builder.elements)
    }

    /// An element or attribute name, lower-cased (libxml2 gives most names in lower case already: those are copied
    /// as they are).
    static func lowercasedName(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        var cursor = pointer
        while cursor.pointee != 0 {
            if (cursor.pointee >= 0x41 && cursor.pointee <= 0x5A) || cursor.pointee >= 0x80 {
                return String(cString: pointer).lowercased()
            }
            cursor += 1
        }
        return String(cString: pointer)
    }
}

/// Builds the Swift tree from libxml2's HTML parse events, linking each node where libxml2's own tree builder
/// (`xmlSAX2StartElement`, `xmlSAX2Characters`, `xmlSAX2CDataBlock`, `xmlSAX2Comment` in libxml2 2.9) would, so the
/// tree is the one ``LibXMLTreeReading`` copies from libxml2's tree, without libxml2 building and freeing it:
///
/// - text joins the text right before it in the same element; raw text (scripts, styles) joins raw text; one kind
///   after the other starts a new node, and so does anything in between (a comment, a processing instruction);
/// - text with no element open is dropped;
/// - an element starting with none open goes to the document when the document has no child yet or its first child
///   is not an element (a document type, a comment, a processing instruction), else into that first element;
/// - past 256 open elements libxml2 stops reading, without the element that went too deep.
///
/// A node's text ends at its first NUL byte, as libxml2's C strings do. Not `Sendable`: one parse, one thread.
final class DOMTreeBuilder {
    /// libxml2's default nesting limit (`xmlParserMaxDepth`).
    static let maximumDepth = 256

    // The state below is `@exclusivity(unchecked)`: only the parse's callbacks touch it, one at a time on one thread,
    // and the run-time check on each access cost more than the building itself.
    private let root = DOMNode(kind: .element, name: "#document")
    @exclusivity(unchecked) private var open: [DOMNode] = []
    /// Every element made, in the order made: document order, since a node is only ever added after its parent's
    /// last child.
    @exclusivity(unchecked) private(set) var elements: [DOMNode] = []

    private enum FirstDocumentChild {
        case none
        case element(DOMNode)
        case other
    }

    @exclusivity(unchecked) private var firstDocumentChild = FirstDocumentChild.none

    /// Text not yet made a node: its bytes, whether it is raw text, and the element it belongs to.
    @exclusivity(unchecked) private var pendingText: [UInt8] = []
    @exclusivity(unchecked) private var pendingIsRaw = false
    @exclusivity(unchecked) private var pendingParent: DOMNode?
    @exclusivity(unchecked) private var halted = false

    static func of(_ context: UnsafeMutableRawPointer?) -> DOMTreeBuilder {
        Unmanaged<DOMTreeBuilder>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The tree, once the parse has ended.
    func finish() -> DOMNode {
        flushText()
        return root
    }

    /// The names met, by where libxml2 keeps them: a direct-mapped table, so a page's few names are each turned
    /// into a `String` and looked up in ``ElementNameTraits`` about once.
    private struct NameTable {
        private var keys = [UInt](repeating: 0, count: 128)
        private var names = [(name: String, traits: ElementNameTraits)](repeating: ("", []), count: 128)

        mutating func name(at pointer: UnsafePointer<UInt8>) -> (name: String, traits: ElementNameTraits) {
            let key = UInt(bitPattern: pointer)
            let slot = Int((key ^ (key >> 7)) & 127)
            if keys[slot] == key { return names[slot] }
            let name = DOMParser.lowercasedName(pointer)
            let entry = (name, ElementNameTraits.of(name))
            keys[slot] = key
            names[slot] = entry
            return entry
        }
    }

    @exclusivity(unchecked) private var knownNames = NameTable()

    /// Returns true when the parse must stop (libxml2's nesting limit). `lasting`: the name's storage lasts the parse.
    func startElement(name: UnsafePointer<UInt8>, lasting: Bool, attributes: UnsafePointer<UnsafePointer<UInt8>?>?)
        -> Bool
    {
        guard !halted else { return true }
        flushText()
        var list: [(name: String, value: String)] = []
        if let attributes {
            var count = 0
            while attributes[count] != nil { count += 2 }
            list.reserveCapacity(count / 2)
            var index = 0
            while let attributeName = attributes[index] {
                let value: String
                if let given = attributes[index + 1] {
                    value = String(cString: given)
                } else {
                    // A boolean attribute written bare (`checked`) has its name as its value; any other, nothing.
                    value = htmlIsBooleanAttr(attributeName) != 0 ? String(cString: attributeName) : ""
                }
                list.append((knownNames.name(at: attributeName).name, value))
                index += 2
            }
        }
        // libxml2 drops the element past its nesting limit and stops reading.
        if open.count > Self.maximumDepth {
            halted = true
            return true
        }
        let known: (name: String, traits: ElementNameTraits)
        if lasting {
            known = knownNames.name(at: name)
        } else {
            let lowered = DOMParser.lowercasedName(name)
            known = (lowered, ElementNameTraits.of(lowered))
        }
        let element = DOMNode(element: known.name, traits: known.traits, attributes: list)
        elements.append(element)
        if let parent = open.last {
            parent.append(element)
        } else {
            switch firstDocumentChild {
            case .none:
                root.append(element)
                firstDocumentChild = .element(element)
            case .element(let first): first.append(element)
            case .other: root.append(element)
            }
        }
        open.append(element)
        return false
    }

    func endElement() {
        guard !halted else { return }
        flushText()
        _ = open.popLast()
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, raw: Bool) {
        guard !halted, let parent = open.last else { return }
        if pendingParent !== parent || pendingIsRaw != raw {
            flushText()
            pendingParent = parent
            pendingIsRaw = raw
        }
        pendingText.append(contentsOf: bytes)
    }

    func comment(_ text: UnsafePointer<UInt8>) {
        guard !halted else { return }
        flushText()
        let node = DOMNode(kind: .comment, text: String(cString: text))
        if let parent = open.last {
            parent.append(node)
        } else {
            root.append(node)
            if case .none = firstDocumentChild { firstDocumentChild = .other }
        }
    }

    func processingInstruction() {
        guard !halted else { return }
        flushText()
        if open.isEmpty, case .none = firstDocumentChild { firstDocumentChild = .other }
    }

    /// libxml2 puts the document type before every other child of the document. The text being gathered is not
    /// interrupted: the declaration is not a child of the element it belongs to.
    func documentType() {
        guard !halted else { return }
        firstDocumentChild = .other
    }

    private func flushText() {
        guard let parent = pendingParent else { return }
        let end = pendingText.firstIndex(of: 0) ?? pendingText.count
        parent.append(DOMNode(kind: .text, text: String(decoding: pendingText[..<end], as: UTF8.self)))
        pendingText.removeAll(keepingCapacity: true)
        pendingParent = nil
    }
}
