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
                .element(
                    "p", [HTMLAttribute("class", "muted summary")],
                    text: rows.count == 1 ? "1 list" : "\(rows.count) lists"),
                rows.isEmpty ? .element("p", [HTMLAttribute("class", "muted")], text: "No lists.") : table,
            ])
    }

    /// One page of a list's items, with where it is in the list.
    struct ItemsPage: Sendable, Equatable {
        /// The list title.
        var listTitle: String
        /// The table's columns and the page's rows.
        var columns: [ItemTable.Column]
        var rows: [[ItemTable.Cell]]
        /// The list's `ItemCount`, when known.
        var itemCount: Int?
        /// Items per page.
        var pageSize: Int
        /// The page's number (from 1), when known (a hand-made `?after=` link does not say).
        var pageNumber: Int?
        /// The item ID the next page starts after, when there is a next page.
        var nextAfter: Int?
        /// The previous page, when this is not the first: the ID it starts after (nil for the first page).
        var previous: PreviousPage?

        /// Where the previous page starts.
        struct PreviousPage: Sendable, Equatable {
            /// The ID the previous page starts after, or nil when it is the first page.
            var after: Int?
        }

        /// Pages in all, when the item count is known (`ItemCount` counts folders too in a library).
        var pageCount: Int? {
            itemCount.map { max(1, ($0 + pageSize - 1) / pageSize) }
        }
    }

    /// `/lists/<title>`: the item count, a page of items (numbers right-aligned, file names linking to their
    /// download) and the pager: previous, "page N of M", next.
    static func itemsPage(_ page: ItemsPage, links: Links) -> String {
        var body: [HTMLNode] = [navigation(links, current: ""), .element("h1", text: page.listTitle)]
        body.append(.element("p", [HTMLAttribute("class", "muted summary")], text: summary(page)))
        if page.rows.isEmpty {
            body.append(.element("p", [HTMLAttribute("class", "muted")], text: "No items."))
        } else {
            body.append(itemTable(page.columns, page.rows, links: links))
        }
        var pager: [HTMLNode] = []
        if let previous = page.previous {
            let number = page.pageNumber.map { $0 - 1 }
            pager.append(
                .element(
                    "a",
                    [
                        HTMLAttribute("href", links.list(page.listTitle, after: previous.after, page: number)),
                        HTMLAttribute("rel", "prev"),
                    ], text: "← Previous page"))
        }
        if let number = page.pageNumber {
            pager.append(
                .element(
                    "span", [HTMLAttribute("class", "muted")],
                    text: "Page \(number)" + (page.pageCount.map { " of \($0)" } ?? "")))
        }
        if let next = page.nextAfter {
            pager.append(
                .element(
                    "a",
                    [
                        HTMLAttribute(
                            "href", links.list(page.listTitle, after: next, page: page.pageNumber.map { $0 + 1 })),
                        HTMLAttribute("rel", "next"),
                    ], text: "Next page →"))
        }
        if !pager.isEmpty && (page.previous != nil || page.nextAfter != nil) {
            body.append(
                .element("nav", [HTMLAttribute("class", "pager"), HTMLAttribute("aria-label", "pages")], pager))
        }
        return document(title: page.listTitle + " · SPConnect status", body: body)
    }

    /// `57 items · showing 21–40` (positions when the page number is known).
    static func summary(_ page: ItemsPage) -> String {
        var parts: [String] = []
        if let count = page.itemCount { parts.append(count == 1 ? "1 item" : "\(count) items") }
        if let number = page.pageNumber, !page.rows.isEmpty {
            let first = (number - 1) * page.pageSize + 1
            parts.append("showing \(first)–\(first + page.rows.count - 1)")
        } else if !page.rows.isEmpty {
            parts.append("showing \(page.rows.count)")
        }
        return parts.joined(separator: " · ")
    }

    /// The items as a table that scrolls sideways when it is wider than the screen: number columns right-aligned,
    /// text columns wrapping, short values (dates, people) on one line.
    static func itemTable(_ columns: [ItemTable.Column], _ rows: [[ItemTable.Cell]], links: Links) -> HTMLNode {
        func attributes(_ column: ItemTable.Column) -> [HTMLAttribute] {
            switch column.kind {
            case .number: return [HTMLAttribute("class", "num")]
            case .text: return [HTMLAttribute("class", "text")]
            case .short: return []
            }
        }
        let header = HTMLNode.element(
            "tr", [], columns.map { .element("th", attributes($0) + [HTMLAttribute("scope", "col")], text: $0.title) })
        let lines = rows.map { cells in
            HTMLNode.element(
                "tr", [],
                zip(columns, cells).map { column, cell in
                    guard let download = cell.download else {
                        return .element("td", attributes(column), text: cell.text)
                    }
                    return .element(
                        "td", attributes(column),
                        [.element("a", [HTMLAttribute("href", links.download(download))], text: cell.text)])
                })
        }
        return .element(
            "div", [HTMLAttribute("class", "table-wrap")],
            [.element("table", [], [.element("thead", [], [header]), .element("tbody", [], lines)])])
    }
}
