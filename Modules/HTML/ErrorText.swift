/// Finds the error messages a page shows, by structure and in any language:
///
/// 1. **Error containers**: `role=alert`, `aria-live=assertive`, or an id or class whose words name an error
///    (`error`, `errors`, `alert`, `errorText`, `ErrorTextLabel`, `input-error…`, `…-error`, `pf-m-error`,
///    `contactAdminMessage`, `errorlist`…) or say the credentials are wrong (`wrongPasswordMsg`, `invalid-credentials`). The innermost containers speak (an outer "error panel" holding several messages
///    gives each message, not its buttons); links and buttons inside are not part of the message.
/// 2. **An error heading**: a heading (`h1`–`h6`, `role=heading`, or an element whose id or class says title,
///    header or heading) whose text is an error word of ``SignInLexicon`` ("Error", "Fehler", "Błąd",
///    "Unhandled exception"…). Its message is the emphasised text right under it (`<strong>`, `<b>`, `<em>`),
///    else the prose blocks that follow, up to the next heading, control, or a line that introduces a value
///    ("Reference number:").
///
/// Only text a scripting browser shows counts: nothing inside script/style/noscript/template, nothing hidden by
/// CSS or an attribute (see ``Visibility``), or a tooltip/popover class
/// (shown only on demand).
enum ErrorTextReader {
    static func messages(in root: DOMNode, blocks: [TextBlocks.Block]) -> [String] {
        read(root, blocks: blocks).messages
    }

    /// The messages in page order, and those of them shown with an error's severity (see ``isSevere(_:)``).
    static func read(_ root: DOMNode, blocks: [TextBlocks.Block]) -> (messages: [String], severe: [String]) {
        var messages: [String] = []
        var severe: [String] = []
        func add(_ text: String, from container: DOMNode?) {
            guard !text.isEmpty else { return }
            if !messages.contains(text) { messages.append(text) }
            if let container, isSevere(container) || container.ancestors.contains(where: isSevere),
                !severe.contains(text)
            {
                severe.append(text)
            }
        }
        func visit(_ node: DOMNode) {
            guard node.kind == .element, !isSkipped(node) else { return }
            if isErrorContainer(node) {
                let inner = innerContainers(of: node)
                if inner.isEmpty {
                    let text = visibleText(of: node).collapsingWhitespace()
                    // An empty alert a script fills from a code or translation key in the markup: the key is all
                    // there is to say.
                    let key = messageKey(in: node).map(describe)
                    add(text.isEmpty ? key ?? "" : text, from: node)
                } else {
                    for container in inner { add(visibleText(of: container).collapsingWhitespace(), from: container) }
                }
                return
            }
            for child in node.children { visit(child) }
        }
        visit(root)
        if messages.isEmpty, let message = messageUnderErrorHeading(in: blocks) {
            add(message, from: nil)
            severe.append(message)
        }
        return (messages, severe)
    }

    /// Whether a container shows its message as an error, not a notice: `role=alert`, `aria-live=assertive`, or an
    /// id or class word for an error or danger (`alert-danger`, `error`, `errorlist`, `is-invalid`), not a bare
    /// `alert` box of another kind (`alert alert-info`), nor a message whose category class says `info` or
    /// `success`.
    static func isSevere(_ node: DOMNode) -> Bool {
        guard node.kind == .element else { return false }
        if node.attribute("role")?.trimmingASCIIWhitespace().lowercased() == "alert" { return true }
        if node.attribute("aria-live")?.trimmingASCIIWhitespace().lowercased() == "assertive" { return true }
        let names = ([node.attribute("id") ?? ""] + node.classTokens).map { $0.lowercased() }
        // A message's own category says a notice (Flask's and Django's message categories, `info`, `success`),
        // whatever styling hook the container shares with errors (`class="info fs-error-msg"`).
        let noticeCategories: Set<String> = ["info", "success"]
        if node.classTokens.contains(where: { noticeCategories.contains($0.lowercased()) }) { return false }
        return node.nameSignals.contains(.severeWord)
            || names.contains { isErrorCompound($0) && !$0.hasPrefix("alert") }
            || names.contains { SignInLexicon.saysCredentialsWrong($0) }
    }

    /// Id and class words that say an error's severity.
    static let severeWords: Set<String> = ["error", "errors", "danger", "invalid", "negative", "fail", "failed"]

    // MARK: Containers

    /// The code an empty error container carries for a script to turn into words: a `data-*` attribute whose
    /// name says code, error or message (`data-error-code="5"`, `data-msg="bad_password"`), short and not blank.
    static func messageCode(of node: DOMNode) -> String? {
        for (name, value) in node.attributes where name.hasPrefix("data-") {
            let words = SignInLexicon.tokens(of: String(name.dropFirst(5)))
            guard words.contains(where: { ["code", "error", "message", "msg", "err", "reason"].contains($0) }) else {
                continue
            }
            let trimmed = value.trimmingASCIIWhitespace()
            if !trimmed.isEmpty, trimmed.count <= 40, !["0", "false", "none", "null"].contains(trimmed.lowercased()) {
                return trimmed
            }
        }
        return nil
    }

    /// The key of the message a script will write into the empty container `node`: its own code (``messageCode``),
    /// else a translation key on it or an element inside it (`<span trmsg="5">`, `data-i18n="badCredentials"`,
    /// `trspan="authFailed"`): an attribute whose name says message or translation (``isMessageKeyAttribute``).
    static func messageKey(in node: DOMNode) -> (attribute: String?, key: String)? {
        if let code = messageCode(of: node) { return (nil, code) }
        var found: (attribute: String?, key: String)?
        func walk(_ current: DOMNode) {
            guard found == nil, current.kind == .element else { return }
            for (name, value) in current.attributes where isMessageKeyAttribute(name.lowercased()) {
                let trimmed = value.trimmingASCIIWhitespace()
                if !trimmed.isEmpty, trimmed.count <= 60, !trimmed.contains(" ") {
                    found = (name.lowercased(), trimmed)
                    return
                }
            }
            for child in current.children { walk(child) }
        }
        walk(node)
        return found
    }

    /// What a page says by a message key alone: "the identity provider's message 5", and, when the catalogs give
    /// the key's meaning, that meaning in words (": wrong credentials").
    static func describe(_ found: (attribute: String?, key: String)) -> String {
        let text = "the identity provider's message \(found.key)"
        guard let attribute = found.attribute,
            let meaning = SignInLexicon.concepts(ofMessageKey: found.key, attribute: attribute).lazy
                .compactMap(\.meaning).first
        else { return text }
        return text + ": " + meaning
    }

    /// Attribute names that carry a message or translation key: `data-i18n`, `i18n`, `data-l10n-id`,
    /// `data-translate`, `msgid`, `data-msg`, and the short `tr`-prefixed names of page translators (`trmsg`,
    /// `trspan`).
    static func isMessageKeyAttribute(_ name: String) -> Bool {
        if ["i18n", "l10n", "translat", "msg"].contains(where: { name.contains($0) }) { return true }
        guard name.hasPrefix("tr"), name.count <= 8 else { return false }
        return ["msg", "span", "div", "p", "label", "text"].contains(String(name.dropFirst(2)))
    }

    static func isErrorContainer(_ node: DOMNode) -> Bool {
        if node.attribute("role")?.trimmingASCIIWhitespace().lowercased() == "alert" { return true }
        if node.attribute("aria-live")?.trimmingASCIIWhitespace().lowercased() == "assertive" { return true }
        if isRefusalInAMessageBox(node) { return true }
        guard node.hasAttribute("id") || node.hasAttribute("class") else { return false }
        return !node.nameSignals.isDisjoint(with: [.errorName, .errorWord, .credentialsWrongName])
    }

    /// Whether one name (an id, or a class) marks an error container whole: `input-error…`, one of ``errorNames``
    /// (`errorText`, `contactAdminMessage`), or an error word joined with a container's (``isErrorCompound(_:)``).
    static func namesAnError(_ name: String) -> Bool {
        guard !name.isEmpty, mentionsAnErrorWord(name) else { return false }
        let lowered = name.lowercased()
        return lowered.hasPrefix("input-error") || errorNames.contains(lowered) || isErrorCompound(lowered)
    }

    /// Whether `name` holds, in any ASCII letter case, a word every error name of ``isErrorContainer(_:)`` holds
    /// (`error`, `alert`, `danger`, `invalid`, `contactadmin`): a name without one is not lower-cased and looked up.
    /// Lower-casing makes none of these letters from a character beyond ASCII.
    static func mentionsAnErrorWord(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { mentionsAnErrorWord($0) }
    }

    /// ``mentionsAnErrorWord(_:)`` of a name's UTF-8 bytes.
    static func mentionsAnErrorWord(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        // One pass: only where a byte could start one of the words is the word compared.
        for (index, byte) in name.enumerated() {
            let rest = UnsafeBufferPointer(rebasing: name[index...])
            let found: Bool =
                switch byte | 0x20 {
                case UInt8(ascii: "e"): ASCIIText.startsIgnoringCase(rest, "error")
                case UInt8(ascii: "a"): ASCIIText.startsIgnoringCase(rest, "alert")
                case UInt8(ascii: "d"): ASCIIText.startsIgnoringCase(rest, "danger")
                case UInt8(ascii: "i"): ASCIIText.startsIgnoringCase(rest, "invalid")
                case UInt8(ascii: "c"): ASCIIText.startsIgnoringCase(rest, "contactadmin")
                default: false
                }
            if found { return true }
        }
        return false
    }

    /// Whether the element's id or one of its classes says the credentials are wrong (`wrongPasswordMsg`,
    /// `invalid-credentials`): ``NameSignals/credentialsWrongName``.
    static func namesSayCredentialsWrong(_ node: DOMNode) -> Bool {
        node.nameSignals.contains(.credentialsWrongName)
    }

    /// A container named as a message of any kind (`message`, `msg`, `flash`, `notice`, `notification`, `feedback`,
    /// `status`, `callout`, `toast`), or text coloured red, that says the credentials are wrong or the account is
    /// locked: the refusal a page shows in its general message box, in any lexicon language
    /// ("ユーザー名またはパスワードが正しくありません").
    static func isRefusalInAMessageBox(_ node: DOMNode) -> Bool {
        guard node.kind == .element,
            node.hasAttribute("class") || node.hasAttribute("id") || node.hasAttribute("style")
                || node.name == "font"
        else { return false }
        guard node.nameSignals.contains(.messageBoxWord) || isInRed(node) else { return false }
        let text = visibleText(of: node).collapsingWhitespace()
        guard !text.isEmpty, text.count <= 300 else { return false }
        let reading = SignInLexicon.Reading(text)
        return SignInLexicon.saysCredentialsWrong(reading) || SignInLexicon.says(.locked, in: reading)
    }

    /// Text a page colours red, the oldest way of saying "error": `<font color="red">`, or an inline `color` of red
    /// (`red`, `#f00`, `#ff0000`, `#c00`, `#cc0000`, `#d00`, `#e00`, `crimson`, `darkred`, `firebrick`).
    static func isInRed(_ node: DOMNode) -> Bool {
        if node.name == "font", let color = node.attribute("color") {
            return reds.contains(color.trimmingASCIIWhitespace().lowercased())
        }
        guard let style = node.attribute("style"), ASCIIText.containsIgnoringCase(style, "color") else { return false }
        return StyleDeclarations.pairs(of: style).contains { $0.property == "color" && reds.contains($0.value) }
    }

    /// The colour values ``isInRed(_:)`` takes for red.
    static let reds: Set<String> = [
        "red", "#f00", "#ff0000", "#c00", "#cc0000", "#d00", "#dd0000", "#e00", "#ee0000", "#b00", "#bb0000",
        "crimson", "darkred", "firebrick",
    ]

    /// Id and class words of a page's general message boxes.
    static let messageBoxNames: Set<String> = [
        "message", "messages", "msg", "flash", "flashes", "notice", "notification", "notifications", "feedback",
        "status", "callout", "toast",
    ]

    /// A one-word name joining an error word and a container's word (`errorlist`, `errorbox`, `errornote`,
    /// `errorsummary`), which no word split sees; not `errorless` or `terror`.
    static func isErrorCompound(_ name: String) -> Bool {
        for stem in ["errors", "error", "alert", "danger"] where name.hasPrefix(stem) {
            if containerWords.contains(String(name.dropFirst(stem.count))) { return true }
        }
        return false
    }

    /// What a container is called after the error word of a compound name.
    static let containerWords: Set<String> = [
        "list", "box", "block", "panel", "msg", "message", "messages", "text", "note", "summary", "container",
        "wrapper", "area", "label", "banner", "display",
    ]

    /// Id and class words (and whole names) that mark an error container.
    static let errorNames: Set<String> = [
        "error", "errors", "alert", "errortext", "errormessage", "errormsg", "contactadminmessage", "errorlabel",
        "danger", "invalid",
    ]

    /// The error containers inside `node` that hold text, outermost of each nested group (not `node` itself).
    private static func innerContainers(of node: DOMNode) -> [DOMNode] {
        var found: [DOMNode] = []
        func walk(_ current: DOMNode) {
            for child in current.children where child.kind == .element && !isSkipped(child) {
                if isErrorContainer(child), !visibleText(of: child).isBlank {
                    found.append(child)
                } else {
                    walk(child)
                }
            }
        }
        walk(node)
        return found
    }

    // MARK: Error headings

    /// The message under the first heading that names an error and has one (a page may repeat its error
    /// heading, in a banner and above the content), if any.
    private static func messageUnderErrorHeading(in blocks: [TextBlocks.Block]) -> String? {
        for (index, heading) in blocks.enumerated() where heading.isHeading && isErrorHeading(heading.text) {
            if let message = message(after: index, in: blocks) { return message }
        }
        return nil
    }

    /// The emphasised line right after the heading at `index`, else the prose blocks up to the next heading,
    /// control or "label: value" line.
    private static func message(after index: Int, in blocks: [TextBlocks.Block]) -> String? {
        var collected: [String] = []
        for block in blocks[(index + 1)...] {
            if block.isHeading || block.isControl { break }
            if block.text.isEmpty { continue }
            if block.isEmphasised && collected.isEmpty { return block.text }
            if block.text.hasSuffix(":") || block.leadingEmphasis.hasSuffix(":") || isLabelValueLine(block.text) {
                break
            }
            collected.append(block.text)
        }
        return collected.isEmpty ? nil : collected.joined(separator: " ")
    }

    /// "Reference number: f9b1…", "Correlation ID: 42": a short label, a colon, a short value (not prose).
    static func isLabelValueLine(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let label = text[..<colon]
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let labelWords = label.split(separator: " ")
        return !labelWords.isEmpty && labelWords.count <= 4 && !label.contains(where: { ".!?".contains($0) })
            && !value.isEmpty && value.split(separator: " ").count <= 3
    }

    /// A short heading that is an error word ("Error", "Błąd", "Unhandled exception", "Sign-in failed").
    static func isErrorHeading(_ text: String) -> Bool {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "-" })
        return !text.isEmpty && words.count <= 4 && !text.contains("?") && SignInLexicon.says(.error, in: text)
    }

    // MARK: Visibility

    /// Elements whose content no one sees on load.
    static func isSkipped(_ node: DOMNode) -> Bool {
        node.nameTraits.contains(.unseen) || Visibility.isHidden(node)
    }

    /// Elements whose content is never shown as text on load.
    static let unseenElements: Set<String> = [
        "script", "style", "noscript", "template", "head", "title", "option", "select", "textarea",
    ]

    /// Elements that do not break a line of text.
    static let inlineElements: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "em", "font", "i", "kbd", "mark", "q", "s", "samp", "small",
        "span", "strong", "sub", "sup", "time", "u", "var", "label",
    ]

    /// The text of `node` a person reads as its message: visible text, without links and buttons (actions
    /// beside a message, not part of it).
    static func visibleText(of node: DOMNode) -> String {
        var text = ""
        func walk(_ current: DOMNode) {
            for child in current.children {
                switch child.kind {
                case .text: text += child.text
                case .comment: break
                case .element:
                    if isSkipped(child) || child.nameTraits.contains(.action) { continue }
                    let inline = child.nameTraits.contains(.inline)
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

/// A page as a reader sees it: its visible text cut into blocks (each run of text between block-level
/// boundaries), with whether the block is a heading, a form control, or wholly emphasised.
struct TextBlocks {
    struct Block {
        var text: String
        var isHeading: Bool
        var isControl: Bool
        var isEmphasised: Bool
        /// The emphasised text the block starts with ("Reference number:" of a label-value line).
        var leadingEmphasis: String = ""
    }

    private(set) var blocks: [Block] = []
    private var current = ""
    private var currentHeading = false
    /// Whether the current block has emphasised text that is not blank.
    private var hasEmphasisedText = false
    /// Whether the current block has plain (not emphasised) text that is not blank.
    private var hasPlainText = false
    /// The emphasised text seen before any plain text in the current block.
    private var leadingEmphasis = ""

    init(root: DOMNode) {
        walk(root, heading: false, emphasised: false)
        flush()
    }

    /// Headings by element or by name (`ctl00_PageTitleLabel`, `class="header"`).
    static func isHeading(_ node: DOMNode) -> Bool {
        if node.nameTraits.contains(.heading) { return true }
        if node.attribute("role")?.lowercased() == "heading" { return true }
        guard node.hasAttribute("id") || node.hasAttribute("class") else { return false }
        return node.nameSignals.contains(.headingWord)
    }

    /// The heading elements.
    static let headingElements: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// Id and class words that make an element a heading.
    static let headingNames: Set<String> = ["title", "header", "heading", "headline"]

    private mutating func flush() {
        // Nothing gathered since the last flush (the leading text is part of `current`, and text was seen whenever
        // one of the flags is set).
        guard !current.isEmpty else {
            currentHeading = false
            return
        }
        let text = current.collapsingWhitespace()
        if !text.isEmpty {
            let emphasised = hasEmphasisedText && !hasPlainText
            blocks.append(
                Block(
                    text: text, isHeading: currentHeading, isControl: false, isEmphasised: emphasised,
                    leadingEmphasis: leadingEmphasis.collapsingWhitespace()))
        }
        current = ""
        currentHeading = false
        hasEmphasisedText = false
        hasPlainText = false
        leadingEmphasis = ""
    }

    private mutating func walk(_ node: DOMNode, heading: Bool, emphasised: Bool) {
        for child in node.children {
            switch child.kind {
            case .text:
                current += child.text
                // Blank texts joined are blank, and a text that is not makes the whole not blank: flags, not copies.
                let blank = child.text.isBlank
                if emphasised {
                    hasEmphasisedText = hasEmphasisedText || !blank
                } else {
                    hasPlainText = hasPlainText || !blank
                }
                if emphasised && !hasPlainText { leadingEmphasis += child.text }
                if heading { currentHeading = true }
            case .comment:
                break
            case .element:
                if ErrorTextReader.isSkipped(child) { continue }
                if child.nameTraits.contains(.control) {
                    flush()
                    blocks.append(Block(text: "", isHeading: false, isControl: true, isEmphasised: false))
                    continue
                }
                let childIsHeading = Self.isHeading(child)
                let inline = child.nameTraits.contains(.inline) && !childIsHeading
                if !inline { flush() }
                let isHeadingHere = heading || childIsHeading
                walk(
                    child, heading: isHeadingHere, emphasised: emphasised || child.nameTraits.contains(.emphasis))
                if !inline { flush() }
            }
        }
    }
}
