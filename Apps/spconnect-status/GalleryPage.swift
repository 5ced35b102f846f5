import Foundation
import Presentation

extension StatusPages {
    // MARK: Photos

    /// One picture in a gallery.
    struct Photo: Sendable, Equatable {
        /// The title, or the file name when the file has none.
        var title: String
        /// The file's server-relative URL (the thumbnail is fetched through the app with it).
        var serverRelativeURL: String
        /// The size in bytes.
        var size: Int64
        /// When the file was created.
        var created: Date?

        /// Creates a photo.
        init(title: String, serverRelativeURL: String, size: Int64, created: Date?) {
            self.title = title
            self.serverRelativeURL = serverRelativeURL
            self.size = size
            self.created = created
        }
    }

    /// `/photos/<title>`: thumbnails (served by the app) with title, size and creation date.
    static func galleryPage(library: String, photos: [Photo], links: Links) -> String {
        var body: [HTMLNode] = [
            navigation(links, current: "/photos/" + library, pictureLibraries: [library]),
            .element("h1", text: library),
        ]
        if photos.isEmpty {
            body.append(.element("p", [HTMLAttribute("class", "muted")], text: "No pictures."))
        } else {
            body.append(
                .element(
                    "ul", [HTMLAttribute("class", "gallery")],
                    photos.map { photo in
                        .element(
                            "li", [],
                            [
                                .element(
                                    "figure", [],
                                    [
                                        .element(
                                            "img",
                                            [
                                                HTMLAttribute("src", links.thumbnail(photo.serverRelativeURL)),
                                                HTMLAttribute("alt", photo.title), HTMLAttribute("loading", "lazy"),
                                            ]),
                                        .element(
                                            "figcaption", [],
                                            [
                                                .element("strong", text: photo.title), .element("br"),
                                                .element(
                                                    "span", [HTMLAttribute("class", "muted")],
                                                    text: HumanFormat.byteCount(photo.size)
                                                        + (photo.created.map { " · " + dateText($0) } ?? "")),
                                            ]),
                                    ])
                            ])
                    }))
        }
        return document(title: library + " · SPConnect status", body: body)
    }

}
