/// Turns the parsed tree (plus the raw bytes, for form ownership) into an `HTMLPage`.
struct PageReader {
    let root: DOMNode
    /// The tree's elements in document order.
    let elements: [DOMNode]
    let bytes: [UInt8]
    let url: String

    static let inputTypes: Set<String> = [
        "hidden", "text", "search", "tel", "url", "email", "password", "date", "month", "week", "time",
        "datetime-local", "number", "range", "color", "checkbox", "radio", "file", "submit", "image", "reset", "button",
    ]

    func page() -> HTMLPage {
        Visibility.applyPageStyles(to: elements)
        var names = NameSignals.Memo()
        for element in elements where element.hasAttribute("id") || element.hasAttribute("class") {
            element.nameSignals = names.signals(of: element)
        }
        let baseElement = elements.first { $0.name == "base" && $0.hasAttribute("href") }
        let baseHref = baseElement?.attribute("href")
        let baseURL = baseHref.flatMap { URLResolver.resolve($0, against: url) } ?? url
        let title = elements.first { $0.name == "title" }.map { $0.textContent.collapsingWhitespace() }

        var forms = readForms(elements: elements, baseURL: baseURL)

        let metaRefresh = elements.lazy.filter {
            $0.name == "meta" && $0.attribute("http-equiv")?.trimmingASCIIWhitespace().lowercased() == "refresh"
                && !$0.hasAncestor(named: "noscript")
        }.compactMap { Self.parseRefresh($0.attribute("content") ?? "", baseURL: baseURL) }.first

        let scriptElements = elements.filter { $0.name == "script" }
        let inlineScripts = scriptElements.filter { !$0.hasAttribute("src") }.map(\.textContent)
        let javaScripts = scriptElements.filter { !$0.hasAttribute("src") && Self.isJavaScript($0.attribute("type")) }
            .map(\.textContent)
        let scriptSources = scriptElements.compactMap { $0.attribute("src") }.compactMap {
            URLResolver.resolve($0, against: baseURL)
        }
        let onload = elements.first { $0.name == "body" }?.attribute("onload")
        let emptyIDs = forms.isEmpty ? Self.emptyElementIDs(elements) : []
        let scripts = PageScripts(
            javaScripts: javaScripts, onload: onload, hasForms: !forms.isEmpty, readsContentLoads: !emptyIDs.isEmpty)
        // Scripts first, then `<body onload>` (`onload="location.href='…'"` is a load-time redirect too).
        let scriptRedirect =
            scripts.redirectTarget().flatMap { URLResolver.resolve($0, against: baseURL) }
            ?? (forms.isEmpty ? contentLoad(scripts, emptyIDs: emptyIDs, baseURL: baseURL) : nil)

        let aadConfig = javaScripts.lazy.compactMap(ScriptReading.config).first.map(AADConfig.init(raw:))
        let selfSubmit = findSelfSubmit(forms: forms, scripts: scripts)

        let blocks = TextBlocks(root: root).blocks
        let (errors, severeErrors) = ErrorTextReader.read(root, blocks: blocks)
        forms = Self.markingCodeRequests(forms, blocks: blocks)

        let headings = blocks.filter { $0.isHeading && !$0.text.isEmpty }.map(\.text)
        var visibleText = blocks.map(\.text).filter { !$0.isEmpty }.joined(separator: "\n")
        if visibleText.utf8.count > 16 << 10 { visibleText = String(visibleText.utf8.prefix(16 << 10)) ?? "" }

        let base = URLResolver.Base(baseURL)
        let links = elements.filter { $0.name == "a" && !Visibility.isHidden($0) }.compactMap { anchor in
            anchor.attribute("href").flatMap { href -> String? in
                Self.isJavaScriptURL(href) ? nil : base.resolve(href)
            }
        }
        let imageNames = elements.filter { $0.name == "img" && !Visibility.isHidden($0) }.flatMap { image in
            [image.attribute("src").map { String($0.split(separator: "/").last ?? "") }, image.attribute("alt")]
                .compactMap { $0 }.filter { !$0.isEmpty }
        }

        // WebAuthn options: only on a page whose bytes name a challenge at all.
        let passkeyOptions =
            bytes.withUnsafeBufferPointer { ScriptStrings.contains($0, "challenge") }
            ? (inlineScripts
                + elements.flatMap { element in
                    element.attributes.lazy.map(\.value).filter { ASCIIText.contains($0, "challenge") }
                }).flatMap(PasskeyOptionsReading.objects(in:)) : []

        return HTMLPage(
            url: url, baseHref: baseHref, baseURL: baseURL, title: title, forms: forms, metaRefresh: metaRefresh,
            scripts: inlineScripts, scriptSources: scriptSources, scriptRedirect: scriptRedirect,
            selfSubmit: selfSubmit, aadConfig: aadConfig, errorMessages: errors, severeErrorMessages: severeErrors,
            headings: headings,
            visibleText: visibleText, links: links, imageNames: imageNames, passkeyOptions: passkeyOptions)
    }

    /// The forms, each with a bare password-type input marked when the page's headings and text ask for a code and
    /// not for a password (``HTMLForm/pageAsksForCode``). The lexicon reads the page only when such an input is there.
    static func markingCodeRequests(_ forms: [HTMLForm], blocks: [TextBlocks.Block]) -> [HTMLForm] {
        guard forms.contains(where: { $0.controls.contains(where: \.isBarePasswordInput) }) else { return forms }
        let text = blocks.filter { !$0.isControl && !$0.text.isEmpty }.prefix(40).map(\.text)
        let asksForCode =
            text.contains { SignInLexicon.says(.code, in: $0) }
            && !text.contains { SignInLexicon.says(.password, in: $0) }
        guard asksForCode else { return forms }
        return forms.map { form in
            var marked = form
            marked.pageAsksForCode = form.controls.contains(where: \.isBarePasswordInput)
            return marked
        }
    }

    /// Whether the raw-markup scan lines up with libxml2's tree for these bytes (ownership then follows the
    /// browser's form element pointer; otherwise tree ancestry). For tests and diagnostics.
    static func markupAligns(bytes: [UInt8], url: String, charset: String? = nil) -> Bool {
        guard let root = DOMParser.parse(bytes: bytes, url: url, charset: charset) else { return false }
        let tracked = root.descendants.filter { $0.kind == .element && RawMarkup.trackedStartTags.contains($0.name) }
        let rawNames = RawMarkup.events(in: bytes).compactMap { event -> String? in
            if case .start(let name) = event { return name }
            return nil
        }
        return rawNames == tracked.map(\.name)
    }

    /// Whether a link's `href` is a `javascript:` URL (any letter case, white space around it). Compared on the bytes:
    /// no character beyond ASCII lower-cases to one of the scheme's letters, so only ASCII can spell it.
    static func isJavaScriptURL(_ href: String) -> Bool {
        var text = href
        return text.withUTF8 { ASCIIText.startsIgnoringCase(ASCIIText.trimmingWhitespace($0), "javascript:") }
    }

    static func isJavaScript(_ type: String?) -> Bool {
        guard var given = type else { return true }
        // An ASCII type (nearly all) is read on its bytes, in any letter case.
        if let ascii = given.withUTF8({ bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let trimmed = ASCIIText.trimmingWhitespace(bytes)
            guard !trimmed.isEmpty else { return true }
            return ASCIIText.containsIgnoringCase(trimmed, "javascript")
                || ASCIIText.containsIgnoringCase(trimmed, "ecmascript")
                || ASCIIText.containsIgnoringCase(trimmed, "jscript")
                || (trimmed.count == 6 && ASCIIText.startsIgnoringCase(trimmed, "module"))
        }) {
            return ascii
        }
        guard let type = type?.trimmingASCIIWhitespace().lowercased(), !type.isEmpty else { return true }
        return type.contains("javascript") || type.contains("ecmascript") || type.contains("jscript")
            || type == "module"
    }

    // MARK: Forms

    /// Form ownership as a browser decides it. libxml2 repairs the tree the HTML4 way (a form opened in a
    /// table cell closes at `</td>`, a nested `<form>` closes the outer one), so ownership follows the
    /// HTML "form element pointer" replayed over the raw markup: the nth form/control start tag in the
    /// markup is the nth such element in libxml2's tree. When the two sequences differ (markup libxml2
    /// tokenises differently), ownership falls back to tree ancestry.
    private func readForms(elements: [DOMNode], baseURL: String) -> [HTMLForm] {
        let tracked = elements.filter { $0.nameTraits.contains(.formOwnership) }
        let events = RawMarkup.events(in: bytes)
        let rawNames = events.compactMap { event -> String? in
            if case .start(let name) = event { return name }
            return nil
        }
        let aligned = rawNames == tracked.map(\.name)
        let treeForms = tracked.filter { $0.name == "form" }
        // Index lookups by identity, so reading stays linear in the number of forms.
        var formIndex: [ObjectIdentifier: Int] = [:]
        for (index, form) in treeForms.enumerated() { formIndex[ObjectIdentifier(form)] = index }

        var ignoredForms = Array(repeating: false, count: treeForms.count)
        var pointerOwner: [ObjectIdentifier: Int] = [:]  // control → index into treeForms
        if aligned {
            let (owners, ignored) = RawMarkup.pointerOwners(events)
            ignoredForms = ignored
            for (element, owner) in zip(tracked, owners) where element.name != "form" {
                if let owner { pointerOwner[ObjectIdentifier(element)] = owner }
            }
        } else {
            for element in tracked where element.name != "form" {
                if let form = element.ancestors.first(where: { $0.name == "form" }),
                    let index = formIndex[ObjectIdentifier(form)]
                {
                    pointerOwner[ObjectIdentifier(element)] = index
                }
            }
        }

        // The first element with each id (ignored nested forms do not exist for a browser), asked only for a
        // control's `form` or `aria-labelledby` attribute: a page whose controls have neither needs none of it.
        var firstByID: [String: DOMNode] = [:]
        let asksByID = tracked.contains { $0.hasAttribute("form") || $0.hasAttribute("aria-labelledby") }
        if asksByID {
            for element in elements {
                if element.name == "form", let index = formIndex[ObjectIdentifier(element)], ignoredForms[index] {
                    continue
                }
                if let id = element.attribute("id"), !id.isEmpty, firstByID[id] == nil { firstByID[id] = element }
            }
        }

        var labelsByID: [String: [ControlNaming.Label]] = [:]
        for element in elements where element.name == "label" {
            if let target = element.attribute("for"), !target.isEmpty {
                let form = element.ancestors.first { $0.name == "form" }.flatMap { formIndex[ObjectIdentifier($0)] }
                labelsByID[target, default: []].append(
                    ControlNaming.Label(text: element.textContent.collapsingWhitespace(), form: form))
            }
        }
        let naming = ControlNaming(labelsByID: labelsByID, elementsByID: firstByID)

        var controlsByForm: [[DOMNode]] = Array(repeating: [], count: treeForms.count)
        for element in tracked where element.name != "form" {
            var owner: Int?
            if let formID = element.attribute("form") {
                if let target = firstByID[formID], target.name == "form" {
                    owner = formIndex[ObjectIdentifier(target)]
                }
            } else {
                owner = pointerOwner[ObjectIdentifier(element)]
            }
            if let owner, !ignoredForms[owner] { controlsByForm[owner].append(element) }
        }

        var forms: [HTMLForm] = []
        for (treeIndex, formElement) in treeForms.enumerated() where !ignoredForms[treeIndex] {
            let controls = controlsByForm[treeIndex].enumerated().map {
                makeControl($0.element, index: $0.offset, form: treeIndex, naming: naming)
            }
            let searchLandmark = ([formElement] + formElement.ancestors).contains {
                $0.attribute("role")?.trimmingASCIIWhitespace().lowercased() == "search"
            }
            forms.append(
                HTMLForm(
                    index: forms.count, id: formElement.attribute("id"), name: formElement.attribute("name"),
                    action: formElement.attribute("action"), method: FormMethod.parse(formElement.attribute("method")),
                    enctype: FormEnctype.parse(formElement.attribute("enctype")),
                    onSubmit: formElement.attribute("onsubmit"), documentURL: url, baseURL: baseURL, controls: controls,
                    isSearchLandmark: searchLandmark)
            )
        }
        return forms
    }

    /// What names a control: `<label for>` texts by id, and elements by id for `aria-labelledby`.
    struct ControlNaming {
        /// A `<label for>`'s text and the form (tree index) it sits in, if any.
        struct Label {
            let text: String
            let form: Int?
        }

        let labelsByID: [String: [Label]]
        let elementsByID: [String: DOMNode]

        /// The label texts of `element` (a control of the form at tree index `form`), joined with " | ", or nil.
        /// When labels for its id sit in its own form, only those name it: pages that repeat one id in several
        /// forms (a passcode form and a password form side by side) label each copy inside its form.
        func labelText(of element: DOMNode, form: Int) -> String? {
            var texts: [String] = []
            if let id = element.attribute("id"), let labels = labelsByID[id] {
                let own = labels.filter { $0.form == form }
                texts += (own.isEmpty ? labels : own).map(\.text)
            }
            if let wrapping = element.nearestAncestor(named: "label") {
                texts.append(wrapping.textContent.collapsingWhitespace())
            }
            for name in ["aria-label", "placeholder", "title"] {
                if let value = element.attribute(name) { texts.append(value.collapsingWhitespace()) }
            }
            for id in (element.attribute("aria-labelledby") ?? "").split(separator: " ") {
                if let node = elementsByID[String(id)] { texts.append(node.textContent.collapsingWhitespace()) }
            }
            let kept = texts.filter { !$0.isEmpty }
            return kept.isEmpty ? nil : kept.joined(separator: " | ")
        }
    }

    private func makeControl(_ element: DOMNode, index: Int, form: Int, naming: ControlNaming) -> FormControl {
        var type: String
        var options: [SelectOption] = []
        var valueAttribute = element.attribute("value")
        var label: String?
        switch element.name {
        case "input":
            let declared = element.attribute("type")?.trimmingASCIIWhitespace().lowercased() ?? "text"
            type = Self.inputTypes.contains(declared) ? declared : "text"
        case "button":
            let declared = element.attribute("type")?.trimmingASCIIWhitespace().lowercased() ?? "submit"
            type = ["submit", "reset", "button"].contains(declared) ? declared : "submit"
            label = Self.buttonLabel(element)
        case "select":
            let multiple = element.hasAttribute("multiple")
            type = multiple ? "select-multiple" : "select-one"
            let size = Int(element.attribute("size")?.trimmingASCIIWhitespace() ?? "") ?? (multiple ? 4 : 1)
            options = Self.options(of: element, multiple: multiple, displaySize: size)
        default:  // textarea
            type = "textarea"
            var text = element.textContent
            if text.hasPrefix("\r\n") {
                text.removeFirst()
            } else if text.hasPrefix("\n") {
                text.removeFirst()
            }
            valueAttribute = text
        }
        return FormControl(
            element: element.name, type: type, name: element.attribute("name"), id: element.attribute("id"),
            valueAttribute: valueAttribute, checked: element.hasAttribute("checked"),
            disabled: Self.isDisabled(element), options: options, label: label,
            autocomplete: element.attribute("autocomplete")?.trimmingASCIIWhitespace().lowercased(),
            inputMode: element.attribute("inputmode")?.trimmingASCIIWhitespace().lowercased(),
            insideNoscript: element.hasAncestor(named: "noscript"), formAction: element.attribute("formaction"),
            formMethod: element.attribute("formmethod"), formEnctype: element.attribute("formenctype"), index: index,
            labelText: naming.labelText(of: element, form: form),
            maxLength: Int(element.attribute("maxlength")?.trimmingASCIIWhitespace() ?? ""),
            pattern: element.attribute("pattern"),
            ariaInvalid: element.attribute("aria-invalid")?.trimmingASCIIWhitespace().lowercased() == "true",
            concealed: element.name != "button" && Visibility.isConcealedControl(element))
    }

    /// What a person reads as a button's name. A rich button (an icon, a title, a description) is named by its
    /// first inline element holding text of its own, with that element's inline content (a description in a
    /// sibling, or a block below, is not the name); a plain one by its first visible line.
    static func buttonLabel(_ button: DOMNode) -> String {
        func ownText(_ node: DOMNode) -> Bool {
            node.children.contains { $0.kind == .text && !$0.text.trimmingASCIIWhitespace().isEmpty }
        }
        func inlineText(_ node: DOMNode) -> String {
            node.children.map { child in
                switch child.kind {
                case .text: child.text
                case .comment: ""
                case .element:
                    ErrorTextReader.isSkipped(child) || !child.nameTraits.contains(.inline)
                        ? "" : inlineText(child)
                }
            }.joined()
        }
        func firstTitled(_ node: DOMNode) -> DOMNode? {
            for child in node.children where child.kind == .element && !ErrorTextReader.isSkipped(child) {
                if child.nameTraits.contains(.inline), ownText(child) { return child }
                if let found = firstTitled(child) { return found }
            }
            return nil
        }
        if let titled = firstTitled(button) {
            let text = inlineText(titled).collapsingWhitespace()
            if !text.isEmpty { return text }
        }
        return TextBlocks(root: button).blocks.first { !$0.text.isEmpty }?.text ?? ""
    }

    /// Disabled itself, or inside a disabled `<fieldset>` but not inside that fieldset's first `<legend>`.
    static func isDisabled(_ element: DOMNode) -> Bool {
        if element.hasAttribute("disabled") { return true }
        var child = element
        var current = element.nearestAncestor(named: "fieldset")
        while let fieldset = current {
            if fieldset.hasAttribute("disabled") {
                // The child of the fieldset on the way up: inside its first legend, the control stays enabled.
                while let parent = child.parent, parent !== fieldset { child = parent }
                let firstLegend = fieldset.children.first { $0.kind == .element && $0.name == "legend" }
                if !(firstLegend === child) { return true }
            }
            current = fieldset.nearestAncestor(named: "fieldset")
        }
        return false
    }

    /// The options of a select with their selectedness after the HTML "selectedness setting algorithm".
    static func options(of select: DOMNode, multiple: Bool, displaySize: Int) -> [SelectOption] {
        let optionNodes = select.descendants.filter { $0.kind == .element && $0.name == "option" }
        var marked = optionNodes.map { $0.hasAttribute("selected") }
        let disabled = optionNodes.map { option in
            option.hasAttribute("disabled")
                || (option.parent?.name == "optgroup" && option.parent?.hasAttribute("disabled") == true)
        }
        if !multiple {
            if let last = marked.lastIndex(of: true) {
                marked = marked.indices.map { $0 == last }
            } else if displaySize <= 1, let first = disabled.firstIndex(of: false) {
                marked[first] = true
            }
        }
        return optionNodes.enumerated().map { offset, option in
            let label = option.textContent.collapsingWhitespace()
            return SelectOption(
                value: option.attribute("value") ?? label, label: label, selected: marked[offset],
                disabled: disabled[offset])
        }
    }
}
