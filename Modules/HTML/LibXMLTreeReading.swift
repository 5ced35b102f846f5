internal import CLibXML2
internal import CXMLShims

/// The reference ``DOMTreeBuilder`` is checked against: libxml2 builds its own tree of the page (`htmlReadMemory`) and
/// the Swift tree is copied from it node by node. Pages are not read this way (the copy costs libxml2's tree, about
/// 40 % of its parse); tests and the HTML fuzz target compare the two trees.
enum LibXMLTreeReading {
    /// The Swift tree of libxml2's own tree of `bytes`, as ``DOMParser/parse(bytes:url:charset:)`` is meant to
    /// build it. Nil when libxml2 gives no document.
    static func parse(bytes: [UInt8], url: String, charset: String?) -> DOMNode? {
        guard DOMParser.initialized else { return nil }
        let trimmedCharset = charset.map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        guard let document = LibXMLDocument(bytes: bytes, url: url, charset: trimmedCharset) else { return nil }
        let root = DOMNode(kind: .element, name: "#document")
        withExtendedLifetime(document) {
            var child = document.pointer.pointee.children
            while let node = child {
                convert(node, into: root, document: document.pointer)
                child = node.pointee.next
            }
        }
        return root
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// An attribute's value: the text of its child nodes, entities included.
    private static func attributeValue(_ attribute: xmlAttrPtr, document: htmlDocPtr) -> String {
        if let child = attribute.pointee.children, child.pointee.next == nil, child.pointee.type == XML_TEXT_NODE {
            return string(child.pointee.content)
        }
        guard let raw = xmlNodeListGetString(document, attribute.pointee.children, 1) else { return "" }
        defer { spc_xml_free(raw) }
        return String(cString: raw)
    }

    private static func convert(_ node: xmlNodePtr, into parent: DOMNode, document: htmlDocPtr) {
        let type = node.pointee.type
        if type == XML_ELEMENT_NODE {
            var attributes: [(name: String, value: String)] = []
            var attribute = node.pointee.properties
            while let current = attribute {
                attributes.append(
                    (DOMParser.lowercasedName(current.pointee.name), attributeValue(current, document: document)))
                attribute = current.pointee.next
            }
            let element = DOMNode(
                kind: .element, name: DOMParser.lowercasedName(node.pointee.name), attributes: attributes)
            parent.append(element)
            var child = node.pointee.children
            while let current = child {
                convert(current, into: element, document: document)
                child = current.pointee.next
            }
        } else if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE {
            parent.append(DOMNode(kind: .text, text: string(node.pointee.content)))
        } else if type == XML_COMMENT_NODE {
            parent.append(DOMNode(kind: .comment, text: string(node.pointee.content)))
        }
    }
}

/// Owns one libxml2 document and frees it.
private final class LibXMLDocument {
    let pointer: htmlDocPtr

    init?(bytes: [UInt8], url: String, charset: String?) {
        let input = bytes.isEmpty ? [UInt8(ascii: " ")] : bytes
        let document: htmlDocPtr? = input.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlReadMemory(chars.baseAddress, Int32(chars.count), url, charset, DOMParser.options)
            }
        }
        guard let document else { return nil }
        pointer = document
    }

    deinit { xmlFreeDoc(pointer) }
}

extension LibXMLTreeReading {
    /// Where two trees first differ (a path of child positions and what differs there), or nil when they are the
    /// same: kinds, names, attributes in order, texts and children.
    static func firstDifference(_ left: DOMNode, _ right: DOMNode, path: String = "") -> String? {
        if left.kind != right.kind { return "\(path): \(left.kind) vs \(right.kind)" }
        if left.name != right.name { return "\(path): <\(left.name)> vs <\(right.name)>" }
        if left.text != right.text {
            return "\(path) <\(left.name)>: text \(left.text.debugDescription) vs \(right.text.debugDescription)"
        }
        if !left.attributes.elementsEqual(right.attributes, by: { $0.name == $1.name && $0.value == $1.value }) {
            return "\(path) <\(left.name)>: attributes \(left.attributes) vs \(right.attributes)"
        }
        if left.children.count != right.children.count {
            return "\(path) <\(left.name)>: \(left.children.count) vs \(right.children.count) children"
        }
        for (index, (leftChild, rightChild)) in zip(left.children, right.children).enumerated() {
            if let difference = firstDifference(leftChild, rightChild, path: "\(path)/\(index)") { return difference }
        }
        return nil
    }
}
