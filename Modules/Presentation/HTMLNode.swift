/// An attribute of an ``HTMLNode`` element. The value is always escaped when rendered.
public struct HTMLAttribute: Sendable, Equatable {
    /// The attribute name: ASCII letters, digits and `-`, starting with a letter (checked by a precondition).
    public let name: String
    /// The value, or `nil` for a boolean attribute written as its name alone.
    public let value: String?

    /// Creates an attribute.
    public init(_ name: String, _ value: String?) {
        precondition(HTMLNode.isValidName(name), "invalid HTML attribute name")
        self.name = name
        self.value = value
    }
}

/// A tiny HTML tree for the status app, rendered with escaping that cannot be skipped.
///
/// Text and attribute values are always escaped (`&`, `<`, `>`, `"`, `'`), control characters other than tab, LF
/// and CR become U+FFFD, and URL attributes (`href`, `src`, `action`, `formaction`) whose scheme is not `http`,
/// `https` or `mailto` become `#` (no `javascript:` links). The only unescaped content is the inline stylesheet
/// (``stylesheet(_:)``). Element and attribute names are checked by precondition: they come from code, not data.
///
/// ```swift
/// let node = HTMLNode.element("p", [HTMLAttribute("class", "note")], [.text(title)])
/// node.render()  // <p class="note">…</p>
/// ```
public struct HTMLNode: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case element(String, [HTMLAttribute], [HTMLNode])
        case text(String)
        case fragment([HTMLNode])
        case stylesheet(String)
    }

    let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// Elements written without a closing tag; their children are ignored.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]
    static let urlAttributes: Set<String> = ["href", "src", "action", "formaction"]

    /// An element. `name` must be ASCII letters and digits starting with a letter (precondition).
    public static func element(_ name: String, _ attributes: [HTMLAttribute] = [], _ children: [HTMLNode] = [])
        -> HTMLNode
    {
        precondition(isValidName(name), "invalid HTML element name")
        return HTMLNode(.element(name.lowercased(), attributes, children))
    }

    /// An element holding only `text`.
    public static func element(_ name: String, _ attributes: [HTMLAttribute] = [], text: String) -> HTMLNode {
        element(name, attributes, [.text(text)])
    }

    /// Escaped text.
    public static func text(_ text: String) -> HTMLNode {
        HTMLNode(.text(text))
    }

    /// Several nodes with no element around them.
    public static func fragment(_ nodes: [HTMLNode]) -> HTMLNode {
        HTMLNode(.fragment(nodes))
    }

    /// The escape hatch: a `<style>` element whose CSS is written unescaped. Use it only for the page's own
    /// stylesheet, never with data. Any `</` in `css` is written as `<\/` so it cannot close the element.
    public static func stylesheet(_ css: String) -> HTMLNode {
        HTMLNode(.stylesheet(css))
    }

    /// The node as HTML text.
    public func render() -> String {
        var result = ""
        append(to: &result)
        return result
    }

    /// Writes the node to `sink`.
    public func render(to sink: any OutputSink) {
        sink.write(render())
    }

    private func append(to result: inout String) {
        switch kind {
        case .text(let text):
            result += HTMLNode.escaped(text)
        case .fragment(let nodes):
            for node in nodes { node.append(to: &result) }
        case .stylesheet(let css):
            result += "<style>"
            result += css.split(separator: "</", omittingEmptySubsequences: false).joined(separator: "<\\/")
            result += "</style>"
        case .element(let name, let attributes, let children):
            result += "<" + name
            for attribute in attributes {
                result += " " + attribute.name.lowercased()
                guard var value = attribute.value else { continue }
                if HTMLNode.urlAttributes.contains(attribute.name.lowercased()), !HTMLNode.isSafeURL(value) {
                    value = "#"
                }
                result += "=\"" + HTMLNode.escaped(value) + "\""
            }
            result += ">"
            guard !HTMLNode.voidElements.contains(name) else { return }
            for child in children { child.append(to: &result) }
            result += "</" + name + ">"
        }
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, and control characters (except tab, LF, CR) as U+FFFD.
    public static func escaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&#39;".unicodeScalars)
            case "\t", "\n", "\r": result.append(scalar)
            default:
                let value = scalar.value
                result.append(value < 0x20 || (value >= 0x7F && value < 0xA0) ? "\u{FFFD}" : scalar)
            }
        }
        return String(result)
    }

    /// Whether `name` is an acceptable element or attribute name: an ASCII letter, then letters, digits or `-`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Whether a URL attribute value is relative or uses `http`, `https` or `mailto`. Tabs and newlines are
    /// removed and leading spaces and controls skipped first, as browsers do.
    static func isSafeURL(_ value: String) -> Bool {
        let cleaned = String(
            String.UnicodeScalarView(
                value.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
                    .drop { $0.value <= 0x20 }))
        guard let colon = cleaned.firstIndex(of: ":") else { return true }
        let scheme = cleaned[..<colon]
        if scheme.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return true }
        return ["http", "https", "mailto"].contains(scheme.lowercased())
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self)
    }
}
