import Presentation

extension StatusPages {
    // MARK: Errors

    /// A page for a failed request: what failed as the heading, then in the red box what to do and, small on a
    /// second line, the server's code (``StatusFailure/detail``); a link onward when the failure suggests one.
    static func errorPage(_ failure: StatusFailure, links: Links) -> String {
        var box: [HTMLNode] = [.element("p", [], text: failure.message)]
        if let detail = failure.detail {
            box.append(.element("p", [HTMLAttribute("class", "muted detail")], text: detail))
        }
        var body: [HTMLNode] = [
            navigation(links, current: ""), .element("h1", text: failure.title),
            .element("div", [HTMLAttribute("class", "state bad"), HTMLAttribute("role", "alert")], box),
        ]
        if let onward = failure.onward {
            body.append(
                .element("p", [], [.element("a", [HTMLAttribute("href", links.href(onward.path))], text: onward.label)])
            )
        }
        return document(title: failure.title + " · SPConnect status", body: body)
    }
}
