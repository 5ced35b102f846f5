import Foundation
import SharePoint
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Pictures fetched through the app with the session (the browser never sees a cookie), checked to be images,
/// and kept in memory (oldest dropped first beyond ``capacity`` bytes).
///
/// Only the site's own server-relative URLs are fetched: ``validate(_:sitePath:)``.
/// Thread-safety: all methods may be called from any thread (one mutex around the cache).
final class ThumbnailCache: Sendable {
    /// A picture ready to serve.
    struct Picture: Sendable, Equatable {
        var bytes: [UInt8]
        var contentType: String
    }

    /// Largest file fetched (a picture library may hold camera originals).
    let maxFileBytes: Int
    /// Largest total kept in memory.
    let capacity: Int
    /// The cached pictures by lower-cased URL, oldest first in `order`, and their total size.
    private struct Entries {
        var pictures: [String: Picture] = [:]
        var order: [String] = []
        var total = 0
    }
    private let cache = Mutex(Entries())
    private let scratch = ScratchFolder(prefix: "spconnect-status")

    init(maxFileBytes: Int = 8 << 20, capacity: Int = 48 << 20) {
        self.maxFileBytes = maxFileBytes
        self.capacity = capacity
    }

    /// Extensions of the pictures the app serves.
    static let pictureExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp"]

    /// `url` when it is a server-relative URL of a file inside the site (``Downloads/siteFile(_:sitePath:)``)
    /// naming a picture file, else nil.
    static func validate(_ url: String, sitePath: String) -> String? {
        guard let url = Downloads.siteFile(url, sitePath: sitePath) else { return nil }
        let name = String(url.split(separator: "/").last ?? "")
        guard let dot = name.lastIndex(of: "."),
            pictureExtensions.contains(name[name.index(after: dot)...].lowercased())
        else { return nil }
        return url
    }

    /// The content type the bytes are, judged by their signature, or nil when they are not a picture served here.
    static func sniff(_ bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8]) -> Bool {
            bytes.count >= prefix.count && Array(bytes.prefix(prefix.count)) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("BM".utf8)), bytes.count > 14 { return "image/bmp" }
        if starts(Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        // SVG: XML text whose first element is <svg (after an optional BOM, XML declaration, comments, doctype).
        let head = String(decoding: bytes.prefix(2048), as: UTF8.self).lowercased()
        if let svg = head.range(of: "<svg"),
            head[..<svg.lowerBound].allSatisfy({ $0.isWhitespace || $0 == "\u{FEFF}" }) || head.hasPrefix("<?xml")
                || head.hasPrefix("<!--") || head.hasPrefix("<!doctype")
        {
            return "image/svg+xml"
        }
        return nil
    }

    /// The picture at `serverRelativeURL` (already validated), from memory or fetched with `site`.
    func picture(_ serverRelativeURL: String, site: SharePointSite) async -> Result<Picture, StatusFailure> {
        let key = serverRelativeURL.lowercased()
        if let cached = cache.withLock({ $0.pictures[key] }) { return .success(cached) }
        let path = scratch.path + "/" + UUID().uuidString
        defer { unlink(path) }
        do {
            let size = try await site.download(serverRelativeURL: serverRelativeURL, to: path)
            guard size <= maxFileBytes else {
                return .failure(
                    StatusFailure(
                        status: 413, title: "Picture too large",
                        message: "The file is \(size) bytes; pictures up to \(maxFileBytes) bytes are shown."))
            }
        } catch {
            return .failure(StatusFailure(error, doing: "fetch the picture"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(
                StatusFailure(
                    status: 500, title: "The picture cannot be read",
                    message: "The app's temporary folder may be full; free some space and reload."))
        }
        let bytes = [UInt8](data)
        guard let type = Self.sniff(bytes) else {
            return .failure(
                StatusFailure(
                    status: 415, title: "Not a picture",
                    message: "The file is not a PNG, JPEG, GIF, WebP, BMP or SVG image."))
        }
        let picture = Picture(bytes: bytes, contentType: type)
        store(picture, key: key)
        return .success(picture)
    }

    private func store(_ picture: Picture, key: String) {
        cache.withLock { cache in
            guard cache.pictures[key] == nil, picture.bytes.count <= capacity else { return }
            cache.pictures[key] = picture
            cache.order.append(key)
            cache.total += picture.bytes.count
            while cache.total > capacity, !cache.order.isEmpty {
                let oldest = cache.order.removeFirst()
                cache.total -= cache.pictures.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
    }

    /// How many pictures are held (for tests).
    var count: Int { cache.withLock { $0.pictures.count } }
}
