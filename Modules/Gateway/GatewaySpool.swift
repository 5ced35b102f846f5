import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// An answer's body on its way from the site to a client of the gateway: the transfer appends what arrives to an
/// unlinked temporary file (so memory stays flat whatever the size, and a slow client never holds up the transfer
/// thread, which serves every request), and the client's connection thread reads it as far as it has arrived,
/// waiting for more until the transfer ends. The file is gone from the folder from the start and freed with the spool.
///
/// Thread-safety: ``append(_:)`` and ``finish(complete:)`` on the transfer's thread, ``next()`` on one connection
/// thread, ``contents(limit:)`` once the transfer ended.
final class GatewaySpool: @unchecked Sendable {
    /// How the transfer ended: every byte arrived, or it broke off.
    private enum Ending { case complete, brokenOff }

    private let writer: Int32
    private let reader: Int32
    private let lock = ConditionLock()
    /// Bytes in the file (under `lock`).
    private var written = 0
    /// Set once the transfer ended (under `lock`).
    private var ending: Ending?
    /// Called once when more than its limit has arrived (under `lock`).
    private var beyond: (limit: Int, call: @Sendable () -> Void)?
    /// Bytes handed to the client so far (the reading thread's).
    private var consumed = 0

    /// A spool in `directory` (the gateway's own 0700 scratch folder).
    init(in directory: String) throws(GatewaySpoolError) {
        var template = Array("\(directory)/answer-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw GatewaySpoolError(reason: String(cString: strerror(errno))) }
        // Not inherited by a password command a renewal runs.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let reading = open(path, O_RDONLY | O_CLOEXEC)
        unlink(path)
        guard reading >= 0 else {
            close(descriptor)
            throw GatewaySpoolError(reason: String(cString: strerror(errno)))
        }
        writer = descriptor
        reader = reading
    }

    deinit {
        close(writer)
        close(reader)
    }

    /// Adds bytes that arrived; throws when the disk refuses them (the transfer then stops).
    func append(_ bytes: [UInt8]) throws(GatewaySpoolError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(writer, $0.baseAddress! + offset, bytes.count - offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw GatewaySpoolError(reason: String(cString: strerror(errno))) }
            offset += count
        }
        let crossed: (@Sendable () -> Void)? = lock.withLock {
            written += bytes.count
            guard let beyond, written > beyond.limit else { return nil }
            self.beyond = nil
            return beyond.call
        }
        lock.broadcast()
        crossed?()
    }

    /// Calls `call` once when the spool holds more than `limit` bytes (at once when it already does).
    func whenBeyond(_ limit: Int, _ call: @escaping @Sendable () -> Void) {
        let already = lock.withLock {
            if written > limit { return true }
            beyond = (limit, call)
            return false
        }
        if already { call() }
    }

    /// Bytes arrived so far.
    var size: Int { lock.withLock { written } }

    /// The transfer ended: with the whole body (`complete`), or broken off (the client's copy is then cut short).
    func finish(complete: Bool) {
        lock.withLock { ending = complete ? .complete : .brokenOff }
        lock.broadcast()
    }

    /// The next bytes for the client, waiting until some arrived or the transfer ended.
    func next() -> HTTPServerResponse.Chunk {
        var available = 0
        var ended: Ending?
        lock.waitUntil {
            available = written - consumed
            ended = ending
            return available > 0 || ended != nil
        }
        guard available > 0 else { return ended == .complete ? .end : .abort }
        var buffer = [UInt8](repeating: 0, count: min(available, 64 << 10))
        let count = buffer.withUnsafeMutableBytes { pread(reader, $0.baseAddress, $0.count, off_t(consumed)) }
        guard count > 0 else { return .abort }
        consumed += count
        return .data(count == buffer.count ? buffer : Array(buffer.prefix(count)))
    }

    /// The whole body once the transfer ended, or nil when it broke off or holds more than `limit` bytes.
    func contents(limit: Int) -> [UInt8]? {
        let (length, ended) = lock.withLock { (written, ending) }
        guard ended == .complete, length <= limit else { return nil }
        var buffer = [UInt8](repeating: 0, count: length)
        var offset = 0
        while offset < length {
            let count = buffer.withUnsafeMutableBytes {
                pread(reader, $0.baseAddress! + offset, length - offset, off_t(offset))
            }
            guard count > 0 else { return nil }
            offset += count
        }
        return buffer
    }
}

/// The gateway's scratch folder refused an answer's body.
struct GatewaySpoolError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "could not keep the answer's body in the gateway's scratch folder (\(reason))" }
}
