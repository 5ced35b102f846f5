import Foundation
import Presentation

/// The status app's pages: plain view models (facts the app gathered) and pure renderers that turn them into one
/// self-contained, escaped HTML document or a JSON text. No I/O; the current time is always an input. One file per
/// page (`SessionPage`, `ListPages`, `GalleryPage`, `ErrorPage`, `StatusJSON`); this one holds the document, its
/// stylesheet and the pieces every page shares.
///
/// Every string from SharePoint or an identity provider goes through ``HTMLNode`` text or attribute values, so it
/// is escaped; the only raw content is the page's own stylesheet.
enum StatusPages {
    // MARK: Document

    /// The policy of the `<meta>` element: inline styles, images from the app itself, forms posting to the app.
    /// (`frame-ancestors` only works as a header: see ``headerContentSecurityPolicy``.)
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'"

    /// The policy the app sends as a `Content-Security-Policy` header on every response.
    static let headerContentSecurityPolicy = contentSecurityPolicy + "; frame-ancestors 'none'"

    /// ``HTMLPage/defaultStylesheet`` plus the status app's few additions (state banners, facts, the gallery, nav).
    static let stylesheet =
        HTMLPage.defaultStylesheet + "\n"
            + """
            nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0 0 1rem;font-size:.95rem}
            nav a{text-decoration:none}nav a[aria-current]{font-weight:600;text-decoration:underline}
            .state{border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem;border:1px solid}
            .state strong{display:block;font-size:1.05rem}
            .ok{border-color:#1e8e3e;background:rgba(30,142,62,.1)}
            .bad{border-color:#d93025;background:rgba(217,48,37,.12)}
            .bad strong{color:#d93025}
            dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
            dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
            ol.trace{padding-left:1.5rem}ol.trace li{margin:0 0 .25rem}
            button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid var(--accent);\
            background:var(--accent);color:var(--bg);cursor:pointer}
            .gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:1rem;padding:0;\
            list-style:none}
            .gallery figure{margin:0;border:1px solid var(--line);border-radius:.5rem;padding:.5rem}
            .gallery img{display:block;width:100%;height:8rem;object-fit:contain;image-rendering:pixelated}
            .gallery figcaption{font-size:.9rem;overflow-wrap:anywhere}
            .gallery a{display:block}
            .pager{display:flex;flex-wrap:wrap;align-items:baseline;gap:.5rem 1.5rem;margin:1rem 0}
            main{max-width:90rem}
            p,dl.facts,.state,ol.trace{max-width:60rem}
            th{white-space:nowrap}form,.table-wrap{margin:0 0 1rem}
            table{width:auto;min-width:100%}
            td{white-space:nowrap;overflow-wrap:normal}
            td.text{white-space:normal;overflow-wrap:break-word;min-width:12rem;max-width:36rem}
            @media (max-width:30rem){td.text{min-width:8rem}}
            .summary{margin:-.5rem 0 1rem}
            .when{display:block;font-size:.85rem}
            .detail{font-size:.85rem;margin:.25rem 0 0}
            """

    /// A complete document: like ``HTMLPage/render(title:body:stylesheet:language:)`` but with the status app's
    /// policy (images from the app itself are allowed, for the gallery) and stylesheet; `refreshSeconds` adds a
    /// meta refresh (no JavaScript).
    static func document(title: String, body: [HTMLNode], refreshSeconds: Int? = nil) -> String {
        HTMLPage.render(
            title: title, body: body, stylesheet: stylesheet, contentSecurityPolicy: contentSecurityPolicy,
            referrerPolicy: "no-referrer", refreshSeconds: refreshSeconds)
    }

    /// The navigation bar; `current` is the path of the page shown.
    static func navigation(_ links: Links, current: String, pictureLibraries: [String] = []) -> HTMLNode {
        var entries: [(String, String, String)] = [
            ("/", "Session", links.href("/")), ("/lists", "Lists", links.href("/lists")),
        ]
        entries += pictureLibraries.map { ("/photos/" + $0, $0, links.photos($0)) }
        entries.append(("/status.json", "JSON", links.href("/status.json")))
        return .element(
            "nav", [],
            entries.map { path, label, href in
                .element(
                    "a",
                    [HTMLAttribute("href", href)] + (path == current ? [HTMLAttribute("aria-current", "page")] : []),
                    text: label)
            })
    }

    /// ``HumanFormat/relative(_:now:)``, with `just now` for `now`.
    static func relative(_ date: Date, now: Date) -> String {
        let text = HumanFormat.relative(date, now: now)
        return text == "now" ? "just now" : text
    }

    /// A trace step on one line: `3. POST 127.0.0.2:443 (filled UserName and Password) → HTTP 200, auto-post`.

    static func banner(ok: Bool, headline: String, detail: String, code: String? = nil) -> HTMLNode {
        var children: [HTMLNode] = [.element("strong", text: headline), .text(detail)]
        if let code { children.append(.element("span", [HTMLAttribute("class", "muted")], text: " (\(code))")) }
        return .element(
            "div", [HTMLAttribute("class", ok ? "state ok" : "state bad"), HTMLAttribute("role", "status")], children)
    }

    static func factList(_ rows: [(String, HTMLNode)]) -> HTMLNode {
        .element(
            "dl", [HTMLAttribute("class", "facts")],
            rows.flatMap { label, value in [.element("dt", text: label), .element("dd", [], [value])] })
    }

    /// `2026-01-05 09:00 UTC`: stable and unambiguous.
    static func dateText(_ date: Date) -> String {
        let iso = CellText.iso8601(date)  // 2026-01-05T09:00:00Z
        guard iso.count >= 16 else { return iso }
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
    }

}
