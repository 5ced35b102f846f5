import Foundation
import HTTPServer
import SharePoint
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Files of the site downloaded through the app with the session (`/download?url=…`), so the browser never holds
/// a cookie: SharePoint's bytes stream to a private temporary file (mode 0600 in a 0700 folder, unlinked as soon as
/// it is open) and from it to the browser, 64 KiB at a time; nothing is held whole in memory.
///
/// Thread-safety: all methods may be called from any thread (no shared mutable state).
final class Downloads: Sendable {
    let scratch: ScratchFolder

    init(scratch: ScratchFolder = ScratchFolder(prefix: "spconnect-status-download")) {
        self.scratch = scratch
    }

    /// `url` when it is a server-relative URL of a file inside the site (`sitePath` is `/` or `/sites/team`):
    /// no scheme, no host (`//`), no backslash, no `.`/`..` or empty segment, no query or fragment, no control
    /// character; else nil.
    static func siteFile(_ url: String, sitePath: String) -> String? {
        guard url.hasPrefix("/"), !url.hasPrefix("//"), !url.contains("\\"), !url.contains("?"), !url.contains("#"),
            url.count <= 1024, !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        let segments = url.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard !segments.contains(where: { $0 == "." || $0 == ".." || $0.isEmpty }) else { return nil }
        let base = sitePath.hasSuffix("/") ? sitePath : sitePath + "/"
        guard url.lowercased().hasPrefix(base.lowercased()) else { return nil }
        return url
    }

    /// The file at `serverRelativeURL` (already checked by ``siteFile(_:sitePath:)``), fetched with `site`, as a
    /// streamed response: `application/octet-stream`, `Content-Disposition: attachment` with the file's name,
    /// `Content-Length`.
    func response(for serverRelativeURL: String, site: SharePointSite) async -> Result<
        HTTPServerResponse, StatusFailure
    > {
        let path = scratch.path + "/" + UUID().uuidString
        defer { unlink(path) }
        let size: Int64
        do {
            size = try await site.download(serverRelativeURL: serverRelativeURL, to: path)
        } catch {
            return .failure(StatusFailure(error, doing: "download the file"))
        }
        guard let file = StreamedFile(path: path) else {
            return .failure(
                StatusFailure(
                    status: 500, title: "The downloaded file cannot be read",
                    message: "The app's temporary folder may be full; free some space and try again."))
        }
        let name = String(serverRelativeURL.split(separator: "/").last ?? "download")
        return .success(
            HTTPServerResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/octet-stream"),
                    ("Content-Disposition", Self.contentDisposition(name)), ("Cache-Control", "no-store"),
                ],
                body: .stream(length: Int(size), next: { file.next() })))
    }

    /// `attachment; filename="a_b.txt"; filename*=UTF-8''a%20b.txt` (RFC 6266: an ASCII fallback, then UTF-8).
    static func contentDisposition(_ name: String) -> String {
        let fallback = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" && scalar.value != 0x7F
                    ? Character(scalar) : "_"
            })
        let encoded = StatusPages.Links().encode(name)
        return "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(encoded)"
    }
}

/// An open, already unlinked temporary file read chunk by chunk on the server's connection thread; closed when
/// the last chunk is read or, if the browser went away first, when the response is released.
final class StreamedFile: Sendable {
    private let descriptor: Int32
    /// Whether the descriptor was closed (reads and the close are serialised by this mutex).
    private let closed = Mutex(false)

    /// Opens `path` and unlinks it (the open descriptor keeps the bytes); nil when it cannot be opened.
    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        unlink(path)
    }

    deinit { closeOnce() }

    /// The next chunk, `.end` after the last one, `.abort` on a read error.
    func next() -> HTTPServerResponse.Chunk {
        closed.withLock { closed in
            guard !closed else { return .end }
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    close(descriptor)
                    closed = true
                    return count == 0 ? .end : .abort
                }
                return .data(Array(buffer[..<count]))
            }
        }
    }

    private func closeOnce() {
        closed.withLock { closed in
            if !closed && descriptor >= 0 { close(descriptor) }
            closed = true
        }
    }
}

/// A private temporary folder (mode 0700, from `mkdtemp`) removed with everything in it when released.
final class ScratchFolder: Sendable {
    let path: String

    init(prefix: String) {
        var template = Array((NSTemporaryDirectory() + "/" + prefix + "-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        if let made {
            path = String(cString: made)
        } else {
            path = NSTemporaryDirectory() + "/" + prefix + "-" + UUID().uuidString
            try? FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
