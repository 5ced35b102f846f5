import Foundation
import Presentation

extension StatusPages {
    // MARK: Photos

    /// One picture in a gallery.
    struct Photo: Sendable, Equatable {
        /// The title, or the file name when the file has none.
        var title: String
        /// The file's server-relative URL (the picture is fetched through the app with it).
        var serverRelativeURL: String
        /// The size in bytes.
        var size: Int64
        /// When the file was created.
        var created: Date?
        /// The picture's width and height in pixels (a picture library's `ImageWidth` and `ImageHeight`).
        var width: Int?
        var height: Int?

        /// Creates a photo.
        init(
            title: String, serverRelativeURL: String, size: Int64, created: Date?, width: Int? = nil,
            height: Int? = nil
        ) {
            self.title = title
            self.serverRelativeURL = serverRelativeURL
            self.size = size
            self.created = created
            self.width = width
            self.height = height
        }

        /// `32 × 24 px`, when both are known.
        var dimensions: String? {
            guard let width, let height else { return nil }
            return "\(width) × \(height) px"
        }
    }

    /// `/photos/<title>`: thumbnails (served by the app), each a link to the full picture, with title, dimensions,
    /// size and creation date.
    static func galleryPage(library: String, photos: [Photo], links: Links) -> String {
        var body: [HTMLNode] = [
            navigation(links, current: "/photos/" + library, pictureLibraries: [library]),
            .element("h1", text: library),
            .element(
                "p", [HTMLAttribute("class", "muted summary")],
                [
                    .text(photos.count == 1 ? "1 picture · " : "\(photos.count) pictures · "),
                    .element("a", [HTMLAttribute("href", links.list(library))], text: "as a list"),
                ]),
        ]
        if photos.isEmpty {
            body.append(.element("p", [HTMLAttribute("class", "muted")], text: "No pictures."))
        } else {
            body.append(.element("ul", [HTMLAttribute("class", "gallery")], photos.map { figure($0, links: links) }))
        }
        return document(title: library + " · SPConnect status", body: body)
    }

    /// One picture: the thumbnail linking to the full picture, then its caption.
    static func figure(_ photo: Photo, links: Links) -> HTMLNode {
        let facts = [photo.dimensions, HumanFormat.byteCount(photo.size), photo.created.map(dateText)].compactMap { $0 }
        let picture = links.thumbnail(photo.serverRelativeURL)
        return .element(
            "li", [],
            [
                .element(
                    "figure", [],
                    [
                        .element(
                            "a", [HTMLAttribute("href", picture), HTMLAttribute("title", "Open the full picture")],
                            [
                                .element(
                                    "img",
                                    [
                                        HTMLAttribute("src", picture), HTMLAttribute("alt", photo.title),
                                        HTMLAttribute("loading", "lazy"),
                                    ] + (photo.width.map { [HTMLAttribute("width", String($0))] } ?? [])
                                        + (photo.height.map { [HTMLAttribute("height", String($0))] } ?? []))
                            ]),
                        .element(
                            "figcaption", [],
                            [
                                .element("strong", text: photo.title), .element("br"),
                                .element(
                                    "span", [HTMLAttribute("class", "muted")], text: facts.joined(separator: " · ")),
                            ]),
                    ])
            ])
    }
}
