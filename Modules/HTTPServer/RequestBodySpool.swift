#if canImport(Glibc)
    internal import Glibc
#endif

/// Where a request's body is kept while it arrives: in memory (the default), or, past a size, in a file, so that a
/// handler passing large uploads on (a proxy) holds a few kilobytes whatever their size.
public enum RequestBodyStorage: Sendable {
    /// Every body in ``HTTPServerRequest/body``.
    case memory
    /// Bodies up to `threshold` bytes in memory; a larger one in a new 0600 file in `directory` (a folder only this
    /// user can write to), given as ``HTTPServerRequest/bodyFile`` and removed once the request is done with.
    case files(over: Int, in: String)
}

/// A request body kept in a file (``RequestBodyStorage/files(over:in:)``): whole, and removed when the last request
/// value holding it is gone.
public final class RequestBodyFile: Sendable {
    /// The file's path.
    public let path: String
    /// The body's length in bytes.
    public let length: Int

    init(path: String, length: Int) {
        self.path = path
        self.length = length
    }

    deinit { unlink(path) }
}

/// A body on its way in, past the memory threshold: the file it goes to (the connection's thread only).
final class IncomingBodyFile {
    let path: String
    private var descriptor: Int32
    private(set) var length = 0
    /// Why the body could not be kept, once writing failed (the rest is then dropped).
    private(set) var failure: String?

    /// A new file in `directory` holding `bytes` so far; nil when none can be made there.
    init?(in directory: String, holding bytes: [UInt8]) {
        var template = Array("\(directory)/request-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else { return nil }
        // Not inherited by a process the handler starts.
        _ = fcntl(made, F_SETFD, FD_CLOEXEC)
        descriptor = made
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        bytes.withUnsafeBufferPointer { append($0) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        // Still here: the request never reached its handler (the client went away, or writing failed).
        if descriptor >= 0 || failure != nil { unlink(path) }
    }

    /// Adds bytes that arrived.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, base + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                failure = String(cString: strerror(errno))
                return
            }
            offset += count
        }
        length += bytes.count
    }

    /// The whole body, handed to the request (which removes the file when it is done with it); nil when writing
    /// failed (``failure`` says why).
    func finish() -> RequestBodyFile? {
        close(descriptor)
        descriptor = -1
        guard failure == nil else { return nil }
        return RequestBodyFile(path: path, length: length)
    }
}
