/// How a page moves on by itself, read from its markup and scripts: refreshes, self-submitting forms, content
/// loads, and which named functions run on load.
extension PageReader {
    /// Parses a refresh `content` value ("5; url='…'"), per the HTML shared declarative refresh steps.
    static func parseRefresh(_ content: String, baseURL: String) -> MetaRefresh? {
        var rest = Substring(content.trimmingASCIIWhitespace())
        // The time is the leading whole number; digits and dots after it are skipped ("1.5.2" waits 1 s), and
        // anything else right after ("1e3") makes the whole value invalid, as in browsers.
        let whole = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(whole.count)
        let skipped = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !whole.isEmpty || !skipped.isEmpty else { return nil }
        rest = rest.dropFirst(skipped.count)
        if let next = rest.first,
            !(next == ";" || next == "," || next == " " || next == "\t" || next == "\n" || next == "\r")
        {
            return nil
        }
        let delay = whole.isEmpty ? 0 : Double(whole) ?? .infinity
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        if rest.first == ";" || rest.first == "," { rest = rest.dropFirst() }
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard !rest.isEmpty else { return MetaRefresh(delay: delay, url: baseURL) }
        if rest.lowercased().hasPrefix("url") {
            var afterURL = rest.dropFirst(3).drop { $0 == " " || $0 == "\t" }
            if afterURL.first == "=" {
                afterURL = afterURL.dropFirst().drop { $0 == " " || $0 == "\t" }
                rest = afterURL
            }
        }
        if let quote = rest.first, quote == "'" || quote == "\"" {
            rest = rest.dropFirst()
            if let end = rest.firstIndex(of: quote) { rest = rest[..<end] }
        }
        guard let target = URLResolver.resolve(String(rest), against: baseURL) else { return nil }
        return MetaRefresh(delay: delay, url: target)
    }

    /// A check whether a named function is called or referenced anywhere in `code` (page scripts and the
    /// body's onload), other than in its own declaration.
    static func invocationCheck(code: [String]) -> (String) -> Bool {
        let references = ScriptReferences(code: code)
        return { references.contains($0) }
    }

    func findSelfSubmit(forms: [HTMLForm], scripts: PageScripts) -> SelfSubmit? {
        // Every way a page submits itself names one of its forms: a page without one needs no script read.
        guard !forms.isEmpty else { return nil }
        // Each script in turn, then `<body onload>`: the first submission of each that names one of the forms.
        for index in scripts.indices {
            if let submission = scripts.submission(in: index),
                let formIndex = ScriptReading.formIndex(of: submission, in: forms)
            {
                return SelfSubmit(formIndex: formIndex, trigger: index == scripts.onloadIndex ? .bodyOnload : .script)
            }
        }
        for form in forms where form.hasOnlyHiddenFields {
            let buttons = form.submitButtons
            if !buttons.isEmpty, buttons.allSatisfy(\.insideNoscript) {
                return SelfSubmit(formIndex: form.index, trigger: .noscriptButton)
            }
        }
        if let form = forms.first(where: { $0.hasOnlyHiddenFields && $0.carriesProtocolMessage }) {
            return SelfSubmit(formIndex: form.index, trigger: .protocolFields)
        }
        return nil
    }

    /// The ids of the page's empty elements (no child element, no text but white space): where a script may load
    /// content (``contentLoad(_:emptyIDs:baseURL:)``).
    static func emptyElementIDs(_ elements: [DOMNode]) -> Set<String> {
        Set(
            elements.filter { element in
                element.children.allSatisfy { $0.kind != .element && $0.textContent.trimmingASCIIWhitespace().isEmpty }
            }.compactMap { $0.attribute("id") })
    }

    /// A page with no form whose script, on load, fills an empty element of the page with another URL's content
    /// (`getToContent('/login?…', 'content')`, `$('#content').load('/login?…')`): what the person sees is that URL's
    /// page, so the engine reads it as a navigation there. Only a URL of the page's own origin counts (a script may
    /// load content only from there unless the other server allows it), and only into an element that exists and
    /// is empty (a container waiting for the content, not one already showing something).
    func contentLoad(_ scripts: PageScripts, emptyIDs: Set<String>, baseURL: String) -> String? {
        guard !emptyIDs.isEmpty, let origin = URLResolver.origin(of: baseURL) else { return nil }
        for index in scripts.indices {
            for (first, second) in scripts.contentLoads(in: index) {
                let address = emptyIDs.contains(second) ? first : emptyIDs.contains(first) ? second : nil
                // A URL, not a message: no white space, and a path or a query in it.
                guard let address, !address.contains(where: \.isWhitespace),
                    address.contains("/") || address.contains("?"),
                    let url = URLResolver.resolve(address, against: baseURL),
                    URLResolver.origin(of: url) == origin
                else { continue }
                return url
            }
        }
        return nil
    }
}
