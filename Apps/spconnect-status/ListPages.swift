import Foundation
import Presentation

extension StatusPages {
    // MARK: Lists

    /// One list on `/lists`.
    struct ListRow: Sendable, Equatable {
        /// The list title.
        var title: String
        /// `ItemCount`.
        var itemCount: Int?
        /// `LastItemModifiedDate`.
        var lastModified: Date?
        /// Whether it is a picture library (base template 109): the row links to its gallery too.
        var isPictureLibrary: Bool

        /// Creates a row.
        init(title: String, itemCount: Int?, lastModified: Date?, isPictureLibrary: Bool = false) {
            self.title = title
            self.itemCount = itemCount
            self.lastModified = lastModified
            self.isPictureLibrary = isPictureLibrary
        }
    }

    /// `/lists`: every visible list with its item count and last change.
    static func listsPage(_ rows: [ListRow], links: Links, now: Date) -> String {
        let header = HTMLNode.element(
            "tr", [],
            [
                .element("th", text: "List"), .element("th", [HTMLAttribute("class", "num")], text: "Items"),
                .element("th", text: "Last modified"),
            ])
        let lines = rows.map { row -> HTMLNode in
            var title: [HTMLNode] = [.element("a", [HTMLAttribute("href", links.list(row.title))], text: row.title)]
            if row.isPictureLibrary {
                title += [
                    .text(" · "), .element("a", [HTMLAttribute("href", links.photos(row.title))], text: "gallery"),
                ]
            }
            return .element(
                "tr", [],
                [
                    .element("td", [], title),
                    .element("td", [HTMLAttribute("class", "num")], text: row.itemCount.map(String.init) ?? ""),
                    .element(
                        "td", [],
                        row.lastModified.map { date in
                            [
                                .text(dateText(date)),
                                .element(
                                    "span", [HTMLAttribute("class", "muted when")],
                                    text: HumanFormat.relative(date, now: now)),
                            ]
                        } ?? []),
                ])
        }
        let table = HTMLNode.element(
            "div", [HTMLAttribute("class", "table-wrap")],
            [.element("table", [], [.element("thead", [], [header]), .element("tbody", [], lines)])])
        let libraries = rows.filter(\.isPictureLibrary).map(\.title)
        return document(
            title: "Lists · SPConnect status",
            body: [
                navigation(links, current: "/lists", pictureLibraries: libraries), .element("h1", text: "Lists"),
                rows.isEmpty ? .element("p", [HTMLAttribute("class", "muted")], text: "No lists.") : table,
            ])
    }

    /// One page of a list's items.
    struct ItemsPage: Sendable, Equatable {
        /// The list title.
        var listTitle: String
        /// The items as records, with their columns.
        var items: RecordSet
        /// The item ID the next page starts after, when there is a next page.
        var nextAfter: Int?
        /// Whether this is not the first page (shows a link back to it).
        var isContinuation: Bool

        /// Creates a page.
        init(listTitle: String, items: RecordSet, nextAfter: Int?, isContinuation: Bool) {
            self.listTitle = listTitle
            self.items = items
            self.nextAfter = nextAfter
            self.isContinuation = isContinuation
        }
    }

    /// `/lists/<title>`: a page of items as a table with first/next links.
    static func itemsPage(_ page: ItemsPage, links: Links) -> String {
        var body: [HTMLNode] = [navigation(links, current: ""), .element("h1", text: page.listTitle)]
        if page.items.records.isEmpty {
            body.append(.element("p", [HTMLAttribute("class", "muted")], text: "No items."))
        } else {
            body.append(HTMLPage.table(page.items))
        }
        var pager: [HTMLNode] = []
        if page.isContinuation {
            pager.append(.element("a", [HTMLAttribute("href", links.list(page.listTitle))], text: "First page"))
        }
        if let next = page.nextAfter {
            pager.append(
                .element(
                    "a",
                    [HTMLAttribute("href", links.list(page.listTitle, after: next)), HTMLAttribute("rel", "next")],
                    text: "Next page"))
        }
        if !pager.isEmpty { body.append(.element("div", [HTMLAttribute("class", "pager")], pager)) }
        return document(title: page.listTitle + " · SPConnect status", body: body)
    }

}
