extension StatusPages {
    // MARK: Errors

    /// A page for a failed request: `title` as the heading, `message` below it, in the red state.
    static func errorPage(title: String, message: String, links: Links) -> String {
        document(
            title: title + " · SPConnect status",
            body: [
                navigation(links, current: ""), .element("h1", text: title),
                banner(ok: false, headline: title, detail: message),
            ])
    }
}
