public import Foundation
public import LocalFiles
import Synchronization
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// How far a download or upload has got. Reported values never go backwards within one call. A plain value.
public struct FileProgress: Sendable, Equatable {
    /// Bytes of the file moved so far.
    public var completedBytes: Int64
    /// The file's size, when known (`Content-Length` for downloads; always known for uploads).
    public var totalBytes: Int64?

    /// Creates a progress value.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }
}

/// Forwards progress only when it moves forward (a Transport retry restarts its byte counts at zero).
final class MonotonicProgress: Sendable {
    private let last = Mutex<Int64>(-1)
    private let handler: @Sendable (FileProgress) -> Void

    init(_ handler: @escaping @Sendable (FileProgress) -> Void) { self.handler = handler }

    func report(_ progress: FileProgress) {
        let forward = last.withLock { last -> Bool in
            guard progress.completedBytes > last else { return false }
            last = progress.completedBytes
            return true
        }
        if forward { handler(progress) }
    }
}

extension SharePointSite {
    /// Downloads a file's bytes (`GET …/GetFileByServerRelativeUrl('…')/$value`) to `path`, streamed to disk by
    /// Transport (never held whole in memory): ``download(serverRelativeURL:into:as:modified:progress:)`` into the
    /// folder of `path` (a link in that folder's own path is followed: it is the caller's choice).
    ///
    /// - Returns: the number of bytes written.
    /// - Throws: ``SharePointError`` (`fileNotFound` for a wrong path, `transport` for a broken connection,
    ///   `localFile` when the destination cannot be written).
    @discardableResult
    public func download(
        serverRelativeURL: String, to path: String, modified: Date? = nil,
        progress: (@Sendable (FileProgress) -> Void)? = nil
    ) async throws(SharePointError) -> Int64 {
        let destination = URL(fileURLWithPath: path)
        let folder: LocalFolder
        do {
            folder = try LocalFolder(path: destination.deletingLastPathComponent().path)
        } catch {
            throw SharePointError(error)
        }
        return try await download(
            serverRelativeURL: serverRelativeURL, into: folder, as: destination.lastPathComponent, modified: modified,
            progress: progress)
    }

    /// Downloads a file's bytes (`GET …/GetFileByServerRelativeUrl('…')/$value`) as `name` in the local `folder`,
    /// streamed to disk by Transport (never held whole in memory).
    ///
    /// The bytes go to a new temporary file (`.<name>.<uuid>.part`, `name` cut to fit a file name) created in
    /// `folder` by name from its descriptor, mode 0600, never through a symbolic link; it is renamed over `name`
    /// only when the transfer completed (a link at `name` is replaced, not followed). On any failure the temporary
    /// file is removed and an existing file at `name` is left untouched. `progress` is called on Transport's thread
    /// (keep it short). With `modified` the temporary file gets that modification time before the rename, so a file
    /// at `name` with another time was never completed by this call. With `replacing: false` the finished file is
    /// linked into place only when nothing is at `name` (checked by the link itself, so nothing that appears
    /// meanwhile is replaced): otherwise ``SharePointError/Kind/alreadyExists`` and the temporary file is removed.
    ///
    /// - Returns: the number of bytes written.
    /// - Throws: ``SharePointError`` (`fileNotFound` for a wrong path, `transport` for a broken connection,
    ///   `localFile`, naming the file and the system's reason, when the destination cannot be written).
    @discardableResult
    public func download(
        serverRelativeURL: String, into folder: LocalFolder, as name: String, modified: Date? = nil,
        replacing: Bool = true, progress: (@Sendable (FileProgress) -> Void)? = nil
    ) async throws(SharePointError) -> Int64 {
        let url = API.file(serverRelativeUrl: serverRelativeURL).value.url(site: siteURL)
        return try await download(
            from: url, into: folder, as: name, modified: modified, replacing: replacing, progress: progress)
    }

    /// Streams the bytes at `url` (a `…/$value`) into `folder` as `name`: see
    /// ``download(serverRelativeURL:into:as:modified:replacing:progress:)``.
    func download(
        from url: String, into folder: LocalFolder, as name: String, modified: Date?, replacing: Bool,
        progress: (@Sendable (FileProgress) -> Void)?
    ) async throws(SharePointError) -> Int64 {
        do {
            // A name the folder cannot hold (too long, say) fails here, before anything is fetched.
            _ = try folder.entry(name)
        } catch {
            throw SharePointError(error)
        }
        let temporary = LocalFolder.temporaryName(for: name, suffix: ".part")
        let fd: Int32
        do {
            // A downloaded file is the user's content: 0666 less the umask, as `curl -o` makes it, so a shared
            // mirror can be read by its group (session and ledger files stay 0600).
            fd = try folder.createFile(temporary, mode: 0o666)
        } catch {
            throw SharePointError(
                localFile: "could not create a temporary file in \(folder.path) for \(name)", detail: error.reason)
        }
        var renamed = false
        defer {
            close(fd)
            if !renamed { folder.removeFile(temporary) }
        }
        var exchange = Exchange.read(self, url)
        exchange.headers.set("Accept", "*/*")
        exchange.responseBody = .descriptor(fd, name: folder.path(of: temporary))
        if let progress {
            let monotonic = MonotonicProgress(progress)
            exchange.progress = { value in
                monotonic.report(
                    FileProgress(
                        completedBytes: value.bytesReceived,
                        totalBytes: value.totalBytesToReceive > 0 ? value.totalBytesToReceive : nil))
            }
        }
        _ = try await perform(exchange) { _ in
            // The error body went to the temporary file: read its start for the server's message.
            var start = [UInt8](repeating: 0, count: 64 << 10)
            let count = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            return Data(start.prefix(max(count, 0)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SharePointError(
                localFile: "could not read the size of \(folder.path(of: temporary))",
                detail: String(cString: strerror(errno)))
        }
        if let modified {
            let seconds = Int(modified.timeIntervalSince1970.rounded(.down))
            var times = [
                timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0),
            ]
            guard futimens(fd, &times) == 0 else {
                throw SharePointError(
                    localFile: "could not set the modification time of \(folder.path(of: temporary))",
                    detail: String(cString: strerror(errno)))
            }
        }
        do {
            if replacing {
                try folder.rename(temporary, to: name)
            } else {
                try folder.link(temporary, to: name)
                folder.removeFile(temporary)
            }
        } catch  where error.code == EEXIST {
            throw SharePointError(
                kind: .alreadyExists, status: 0,
                message: "\(folder.path(of: name)) already exists; it was left as it was")
        } catch {
            throw SharePointError(error)
        }
        renamed = true
        return Int64(info.st_size)
    }

    /// Makes the folder `name` inside `folder` (server-relative URL of a library or a folder in it):
    /// `POST …/GetFolderByServerRelativeUrl('…')/Folders/add(url='…')`. SharePoint answers an existing folder of that
    /// name as it is; a missing parent → ``SharePointError/Kind/fileNotFound``. Safe to repeat, so retried as the
    /// other repeatable writes.
    public func createFolder(named name: String, in folder: String) async throws(SharePointError) -> Folder {
        let url = API.folder(serverRelativeUrl: folder).addFolder(named: name).url(site: siteURL)
        let exchange = Exchange.write(self, url, body: .none, contentType: nil, repeatable: true)
        return try decodeEntity(try await perform(exchange))
    }

    /// Uploads a local file into a folder (server-relative URL of a library or folder) and returns the new file.
    ///
    /// Files up to `chunkSize` bytes go in one `Files/add(url='…',overwrite=…)` request whose body Transport
    /// streams from disk. Larger files are created empty with `Files/add`, then sent in chunks read from disk one
    /// at a time: `StartUpload`, `ContinueUpload`…, `FinishUpload` (offsets are Int64 values the server returns as
    /// JSON strings, checked against the bytes sent); on failure the upload session is cancelled. `progress` is
    /// called on Transport's thread with bytes of the whole file.
    ///
    /// - Parameters:
    ///   - path: the local file.
    ///   - folder: e.g. `/sites/team/Shared Documents`.
    ///   - name: the file name in SharePoint (default: the local file's name).
    ///   - overwrite: replace an existing file of that name (otherwise the server refuses).
    ///   - chunkSize: bytes per chunk for large files (default 10 MiB; held in memory one at a time).
    public func upload(
        file path: String, toFolder folder: String, as name: String? = nil, overwrite: Bool = true,
        chunkSize: Int = 10 << 20, progress: (@Sendable (FileProgress) -> Void)? = nil
    ) async throws(SharePointError) -> File {
        let fileName = name ?? URL(fileURLWithPath: path).lastPathComponent
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw SharePointError(localFile: "cannot read \(path)", detail: String(cString: strerror(errno)))
        }
        let size = Int64(info.st_size)
        let chunk = Int64(max(chunkSize, 1))
        let monotonic = progress.map(MonotonicProgress.init)
        let folderPath = API.folder(serverRelativeUrl: folder)
        let addURL = folderPath.addFile(named: fileName, overwrite: overwrite).url(site: siteURL)
        if size <= chunk {
            var exchange = Exchange.write(
                self, addURL, body: .file(path: path), contentType: "application/octet-stream", repeatable: overwrite)
            if let monotonic {
                exchange.progress = { value in
                    monotonic.report(FileProgress(completedBytes: value.bytesSent, totalBytes: size))
                }
            }
            let file: File = try decodeEntity(try await perform(exchange))
            monotonic?.report(FileProgress(completedBytes: size, totalBytes: size))
            return file
        }

        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw SharePointError(localFile: "cannot open \(path)", detail: "\(error)")
        }
        defer { try? handle.close() }
        let empty = Exchange.write(
            self, addURL, body: .bytes([]), contentType: "application/octet-stream", repeatable: overwrite)
        let created: File = try decodeEntity(try await perform(empty))
        guard let idText = created.uniqueId, let fileId = UUID(uuidString: idText) else {
            throw SharePointError(unexpectedResponse: "the new file has no UniqueId").at(addURL)
        }
        let filePath = API.file(id: fileId)
        let uploadId = UUID()
        var offset: Int64 = 0
        do throws(SharePointError) {
            while true {
                let wanted = Int(min(chunk, size - offset))
                let bytes: [UInt8]
                do {
                    bytes = Array(try handle.read(upToCount: wanted) ?? Data())
                } catch {
                    throw SharePointError(localFile: "cannot read \(path)", detail: "\(error)")
                }
                let isLast = offset + Int64(bytes.count) == size
                // Shorter than it was (a read short of its chunk), or longer (more bytes after the last chunk).
                let grew = isLast && (try? handle.read(upToCount: 1))?.isEmpty == false
                if bytes.count < wanted || grew { throw changedSize(path, from: size, handle: handle) }
                let step: RESTPath =
                    offset == 0
                    ? filePath.startUpload(uploadId: uploadId)
                    : isLast
                        ? filePath.finishUpload(uploadId: uploadId, fileOffset: offset)
                        : filePath.continueUpload(uploadId: uploadId, fileOffset: offset)
                var exchange = Exchange.write(
                    self, step.url(site: siteURL), body: .bytes(bytes), contentType: "application/octet-stream",
                    repeatable: true)
                if let monotonic {
                    let base = offset
                    exchange.progress = { value in
                        monotonic.report(FileProgress(completedBytes: base + value.bytesSent, totalBytes: size))
                    }
                }
                let response = try await perform(exchange)
                let sent = offset + Int64(bytes.count)
                if isLast {
                    // Never the first chunk: a file of more than one chunk is started before it is finished.
                    let file: File = try decodeEntity(response)
                    monotonic?.report(FileProgress(completedBytes: size, totalBytes: size))
                    return file
                }
                let stored: Int64
                do {
                    stored = try UploadResult.offset(Data(response.body))
                } catch {
                    throw error.at(response.url)
                }
                guard stored == sent else {
                    throw SharePointError(
                        unexpectedResponse: "the server stored \(stored) bytes of the upload, expected \(sent)"
                    ).at(response.url)
                }
                offset = sent
            }
        } catch {
            let cancel = Exchange.write(
                self, filePath.cancelUpload(uploadId: uploadId).url(site: siteURL), body: .none, contentType: nil,
                repeatable: true)
            _ = try? await perform(cancel)
            throw error
        }
    }
}

/// The error of a chunked upload whose local file is no longer the size it had when the upload started: what is
/// sent would be neither the old file nor the new one.
private func changedSize(_ path: String, from size: Int64, handle: FileHandle) -> SharePointError {
    var info = stat()
    let now = fstat(handle.fileDescriptor, &info) == 0 ? "\(info.st_size) bytes now" : "its size now unknown"
    return SharePointError(
        localFile: "\(path) changed size while uploading (\(size) bytes when the upload started, \(now))",
        detail: "not uploaded; upload it again once it no longer changes")
}
