import AppSupport
import Foundation
import HTTPServer
import ListOperations
import SharePoint

/// `/photos/NAME`, `/thumb?url=` and `/download?url=`: a picture library's gallery, one picture, one file.
extension StatusApp {
    /// SharePoint's base template of a picture library.
    static let pictureLibraryTemplate = 109

    /// The gallery of `title`, or a clear 404 when that list is not a picture library.
    func galleryPage(_ title: String) -> HTTPServerResponse {
        let result: Result<(String, [StatusPages.Photo]), StatusFailure> = withSite { site in
            do throws(SharePointError) {
                let list = try await site.list(title: title)
                guard list.baseTemplate == Self.pictureLibraryTemplate else {
                    return .failure(
                        StatusFailure(
                            status: 404, title: "“\(list.title)” is not a picture library",
                            message: "Only picture libraries have a gallery; its items are on its list page.",
                            onward: StatusFailure.Onward(
                                label: "Open “\(list.title)” as a list",
                                path: "/lists/" + StatusPages.Links().encode(list.title))))
                }
                return .success((list.title, try await Self.photos(site, .title(list.title))))
            } catch {
                return .failure(StatusFailure(error, doing: "read the library “\(title)”", subject: title))
            }
        }
        switch result {
        case .success(let (library, photos)):
            return html(200, StatusPages.galleryPage(library: library, photos: photos, links: links))
        case .failure(let failure): return self.failure(failure)
        }
    }

    /// The library's pictures (at most ``galleryLimit``), with the dimensions its items keep (`ImageWidth`,
    /// `ImageHeight`), in the folders its files' `FileRef`s name (a library has no item for its root folder).
    static func photos(_ site: SharePointSite, _ list: ListPath) async throws(SharePointError) -> [StatusPages.Photo] {
        let found = try await LibraryFiles.read(
            list, select: ["ImageWidth", "ImageHeight"], limit: galleryLimit, site: site)
        return found.filter { isPicture($0.file.name) }.map { found in
            StatusPages.Photo(
                title: (found.file.title?.isEmpty == false ? found.file.title : nil) ?? found.file.name,
                serverRelativeURL: found.file.serverRelativeUrl, size: found.file.length,
                created: found.file.timeCreated, width: found.item["ImageWidth"]?.intValue,
                height: found.item["ImageHeight"]?.intValue)
        }
    }

    /// Answers a request for one file of the site named by its `url` query value: refused with `refusal` unless
    /// `check` accepts it for the site's server-relative path, else `produce`d with the site client.
    private func siteFile(
        _ request: HTTPServerRequest, refusal: StatusFailure, check: (String, String) -> String?,
        produce: @escaping @Sendable (String, SharePointSite) async -> Result<HTTPServerResponse, StatusFailure>
    ) -> HTTPServerResponse {
        let session = self.session
        guard let sitePath = blockingAwait({ await session.siteServerRelativePath() }) else {
            return failure(
                StatusFailure(
                    status: 503, title: "Not signed in",
                    message: "There is no saved session to fetch files with. Run spconnect login, then reload."))
        }
        guard let url = request.queryValue("url").flatMap({ check($0, sitePath) }) else { return failure(refusal) }
        switch withSite({ site in await produce(url, site) }) {
        case .success(let response): return response
        case .failure(let failure): return self.failure(failure)
        }
    }

    /// One picture, fetched with the session and kept in memory (``ThumbnailCache``).
    func thumbnail(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let thumbnails = self.thumbnails
        return siteFile(
            request,
            refusal: StatusFailure(
                status: 400, title: "Not a picture of this site",
                message: "Only pictures at the site's own server-relative URLs are shown."),
            check: { ThumbnailCache.validate($0, sitePath: $1) },
            produce: { url, site in
                await thumbnails.picture(url, site: site).map { picture in
                    HTTPServerResponse(
                        status: 200,
                        headers: [("Content-Type", picture.contentType), ("Cache-Control", "private, max-age=300")],
                        body: .bytes(picture.bytes))
                }
            })
    }

    /// One file of the site, downloaded with the session and streamed to the browser (``Downloads``).
    func download(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let downloads = self.downloads
        return siteFile(
            request,
            refusal: StatusFailure(
                status: 400, title: "Not a file of this site",
                message: "Only files at the site's own server-relative URLs can be downloaded through the app."),
            check: { Downloads.siteFile($0, sitePath: $1) },
            produce: { url, site in await downloads.response(for: url, site: site) })
    }

    static func isPicture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return ThumbnailCache.pictureExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
