/// Finds visible error messages: elements with `role=alert`, or whose id or a class names an error
/// (`errorText`, `error`, `alert`, `input-error…`, `…-error`, `contactAdminMessage`…). Only text a
/// scripting browser shows counts: nothing inside script/style/noscript/template, nothing hidden by an
/// inline `display:none`/`visibility:hidden` or the `hidden` attribute.
enum ErrorTextReader {
    static func messages(in root: DOMNode) -> [String] {
        var messages: [String] = []
        func visit(_ node: DOMNode) {
            guard node.kind == .element else { return }
            if ["script", "style", "noscript", "template", "head", "title", "option", "select", "textarea"].contains(
                node.name) || isHidden(node)
            {
                return
            }
            if isErrorContainer(node) {
                let text = visibleText(of: node).collapsingWhitespace()
                if !text.isEmpty {
                    if !messages.contains(text) { messages.append(text) }
                    return  // the outermost container speaks for its descendants
                }
            }
            for child in node.children { visit(child) }
        }
        visit(root)
        return messages
    }

    static func isErrorContainer(_ node: DOMNode) -> Bool {
        if node.attribute("role")?.trimmingASCIIWhitespace().lowercased() == "alert" { return true }
        let names = ([node.attribute("id") ?? ""] + node.classTokens).map { $0.lowercased() }
        return names.contains { name in
            guard !name.isEmpty else { return false }
            if name.hasPrefix("input-error") { return true }
            let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
            return words.contains { word in
                word == "error" || word == "errors" || word == "alert" || word == "errortext"
                    || word == "errormessage" || word == "errormsg" || word == "contactadminmessage"
            }
        }
    }

    /// Elements that do not break a line of text.
    static let inlineElements: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "em", "font", "i", "kbd", "mark", "q", "s", "samp", "small",
        "span", "strong", "sub", "sup", "time", "u", "var",
    ]

    static func isHidden(_ node: DOMNode) -> Bool {
        if node.hasAttribute("hidden") { return true }
        if node.attribute("aria-hidden")?.lowercased() == "true" { return true }
        let style = (node.attribute("style") ?? "").lowercased().filter { $0 != " " && $0 != "\t" && $0 != "\n" }
        return style.contains("display:none") || style.contains("visibility:hidden")
    }

    private static func visibleText(of node: DOMNode) -> String {
        var text = ""
        func walk(_ current: DOMNode) {
            for child in current.children {
                switch child.kind {
                case .text: text += child.text
                case .comment: break
                case .element:
                    if ["script", "style", "noscript", "template"].contains(child.name) || isHidden(child) { continue }
                    let inline = inlineElements.contains(child.name)
                    if !inline { text += " " }
                    walk(child)
                    if !inline { text += " " }
                }
            }
        }
        walk(node)
        return text
    }
}
