/// The status app's page template: one self-contained HTML document, no external assets, no JavaScript.
///
/// The document declares UTF-8, a phone-friendly viewport and a Content-Security-Policy that allows only the inline
/// stylesheet (`default-src 'none'; style-src 'unsafe-inline'`), so even a missed escape could not run a script.
public enum HTMLPage {
    /// Readable defaults: system font stack, comfortable line height, a centred column that fits phone widths,
    /// tables that scroll sideways instead of overflowing, light and dark schemes.
    public static let defaultStylesheet = """
        :root{color-scheme:light dark;--fg:#1b1b1f;--bg:#fdfdfd;--muted:#5f6368;--line:#d9d9de;--accent:#0b57d0}
        @media (prefers-color-scheme:dark){:root{--fg:#e6e6ea;--bg:#16161a;--muted:#a0a4ab;--line:#3a3a42;\
        --accent:#8ab4f8}}
        *{box-sizing:border-box}
        body{margin:0;padding:1rem;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;\
        color:var(--fg);background:var(--bg);-webkit-text-size-adjust:100%}
        main{max-width:48rem;margin:0 auto}
        h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
        h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
        p,ul,dl{margin:0 0 1rem}
        a{color:var(--accent)}
        .muted{color:var(--muted)}
        .table-wrap{overflow-x:auto}
        table{border-collapse:collapse;width:100%;font-size:.95rem}
        th,td{padding:.4rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;\
        overflow-wrap:anywhere}
        th{font-weight:600}
        td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
        code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
        @media (max-width:30rem){body{padding:.75rem;font-size:15px}th,td{padding:.35rem .4rem}}
        """

    /// A complete document: `<!DOCTYPE html>`, head (charset, viewport, CSP, escaped title, inline stylesheet) and
    /// `body` inside `<main>`.
    /// - Parameters:
    ///   - title: the page title, escaped.
    ///   - body: the content.
    ///   - stylesheet: the CSS; the page's own, never data (see ``HTMLNode/stylesheet(_:)``).
    ///   - language: the `lang` attribute.
    ///   - contentSecurityPolicy: the page's policy (default: no scripts, no external assets, inline styles).
    ///   - referrerPolicy: a `<meta name="referrer">` value, or nil for none.
    ///   - refreshSeconds: a `<meta http-equiv="refresh">` reloading the page after that many seconds, or nil.
    public static func render(
        title: String, body: [HTMLNode], stylesheet: String = defaultStylesheet, language: String = "en",
        contentSecurityPolicy: String = "default-src 'none'; style-src 'unsafe-inline'", referrerPolicy: String? = nil,
        refreshSeconds: Int? = nil
    ) -> String {
        let head = HTMLNode.element(
            "head", [],
            [
                .element("meta", [HTMLAttribute("charset", "utf-8")]),
                .element(
                    "meta",
                    [
                        HTMLAttribute("name", "viewport"),
                        HTMLAttribute("content", "width=device-width, initial-scale=1"),
                    ]
                ),
                .element(
                    "meta",
                    [
                        HTMLAttribute("http-equiv", "Content-Security-Policy"),
                        HTMLAttribute("content", contentSecurityPolicy),
                    ]),
            ]
                + (referrerPolicy.map {
                    [.element("meta", [HTMLAttribute("name", "referrer"), HTMLAttribute("content", $0)])]
                } ?? [])
                + (refreshSeconds.map {
                    [.element("meta", [HTMLAttribute("http-equiv", "refresh"), HTMLAttribute("content", String($0))])]
                } ?? [])
                + [
                    .element("title", text: title),
                    .stylesheet(stylesheet),
                ])
        let html = HTMLNode.element(
            "html", [HTMLAttribute("lang", language)], [head, .element("body", [], [.element("main", [], body)])])
        return "<!DOCTYPE html>\n" + html.render() + "\n"
    }

    /// A ``RecordSet`` as an HTML table inside a sideways-scrolling wrapper. Number columns get `class="num"`
    /// (right-aligned); `null` is an empty cell; every value is escaped.
    public static func table(_ recordSet: RecordSet) -> HTMLNode {
        let numeric = recordSet.columns.map { column in
            (column.alignment ?? TableRenderer.inferredAlignment(recordSet.records, field: column.field)) == .right
        }
        func attributes(_ index: Int) -> [HTMLAttribute] {
            numeric[index] ? [HTMLAttribute("class", "num")] : []
        }
        let header = HTMLNode.element(
            "tr", [],
            recordSet.columns.indices.map { .element("th", attributes($0), text: recordSet.columns[$0].title) })
        let rows = recordSet.records.map { record in
            HTMLNode.element(
                "tr", [],
                recordSet.columns.indices.map { index in
                    .element(
                        "td", attributes(index),
                        text: CellText.plain(record[recordSet.columns[index].field] ?? .null) ?? "")
                })
        }
        return .element(
            "div", [HTMLAttribute("class", "table-wrap")],
            [.element("table", [], [.element("thead", [], [header]), .element("tbody", [], rows)])])
    }
}
