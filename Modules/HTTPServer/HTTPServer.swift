internal import CMicroHTTPD
internal import CMicroHTTPDShims

#if canImport(Glibc)
    internal import Glibc
#endif

/// Errors starting the embedded server.
public enum HTTPServerError: Error, CustomStringConvertible, Equatable {
    /// The bind address is not an IPv4 address such as `127.0.0.1`.
    case invalidAddress(String)
    /// Binding to a non-loopback address was asked without `allowNonLoopback`.
    case notLoopback(String)
    /// libmicrohttpd could not start (port in use, no permission, bad TLS material).
    case startFailed(address: String, port: UInt16)

    public var description: String {
        switch self {
        case .invalidAddress(let address):
            return "'\(address)' is not an IPv4 address; use a loopback address such as 127.0.0.1."
        case .notLoopback(let address):
            return "refusing to listen on \(address): only loopback (127.0.0.0/8) is allowed unless asked explicitly."
        case .startFailed(let address, let port):
            return "could not listen on \(address):\(port) (port in use, or TLS key and certificate do not match)."
        }
    }
}

/// A small HTTP/1.1 server over libmicrohttpd, one thread per connection, bound to loopback by default.
///
/// The handler runs on the connection's thread, so it may block (to simulate latency or drip a body).
/// Stopping closes the listening socket and every connection, then waits until no handler or stream producer
/// runs any more: `stop()` blocks the calling thread meanwhile, `await stop()` suspends instead (from async code,
/// so no thread of the cooperative pool is held). Deinit stops too.
/// Thread-safety: `port`, `address` and both `stop()`s may be used from any thread, concurrently; a handler or
/// stream producer may stop its own server (or drop the last reference to it).
public final class HTTPServer: @unchecked Sendable {
    /// The handler type: one request in, one response out.
    public typealias Handler = @Sendable (HTTPServerRequest) -> HTTPServerResponse

    /// The address the server listens on.
    public let address: String
    /// The port the server listens on (the real one when 0 was asked).
    public let port: UInt16
    /// `http` or `https`.
    public let scheme: String
    /// The base URL, e.g. `http://127.0.0.1:40123`.
    public var baseURL: String { "\(scheme)://\(address):\(port)" }

    private let daemon: Daemon

    /// Starts listening.
    /// - Parameters:
    ///   - address: an IPv4 address; loopback (127.x.x.x) unless `allowNonLoopback`.
    ///   - port: 0 picks a free port.
    ///   - tls: PEM certificate and key to serve HTTPS, or nil.
    ///   - connectionTimeout: idle seconds before a connection is closed.
    public init(
        address: String = "127.0.0.1", port: UInt16 = 0, allowNonLoopback: Bool = false,
        tls: (certificatePEM: String, keyPEM: String)? = nil, connectionTimeout: UInt32 = 30,
        handler: @escaping Handler
    ) throws(HTTPServerError) {
        var inAddress = in_addr()
        guard inet_pton(AF_INET, address, &inAddress) == 1 else { throw .invalidAddress(address) }
        let isLoopback = (UInt32(bigEndian: inAddress.s_addr) >> 24) == 127
        guard isLoopback || allowNonLoopback else { throw .notLoopback(address) }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        socketAddress.sin_addr = inAddress

        ignoreSIGPIPE
        guard
            let daemon = Daemon(
                socketAddress: &socketAddress, context: ServerContext(handler: handler, serverAddress: address),
                tls: tls, connectionTimeout: connectionTimeout)
        else { throw .startFailed(address: address, port: port) }
        self.daemon = daemon
        self.address = address
        self.port = daemon.boundPort
        self.scheme = tls == nil ? "http" : "https"
    }

    /// Stops listening, closes every connection and returns once no handler or stream producer of this server runs
    /// any more. **Blocks the calling thread** until then (a handler sleeping or a body dripping finishes first):
    /// from async code use `await stop()`. Called from this server's own handler or stream producer, it starts the
    /// stop and returns at once (a thread cannot wait for itself); the stop completes when that callback returns.
    /// Any number of calls, from any threads, are harmless: each returns once the server is stopped.
    public func stop() { daemon.stop() }

    /// Stops like `stop()`, suspending instead of blocking: the waiting happens on a thread of its own, never on
    /// one of the cooperative pool. Returns once the server is stopped.
    public func stop() async { await daemon.stopWithoutBlocking() }

    /// Stops as `stop()` does, blocking the thread that let go of the last reference (unless that is one of this
    /// server's own callbacks, which only starts the stop).
    deinit { daemon.stop() }
}

/// The running libmicrohttpd daemon and the context its callbacks share. The one owner of both C-facing
/// handles: `MHD_stop_daemon` is called exactly once, and the context is released only after it returned (by then
/// libmicrohttpd has joined every connection thread and called every completed and free callback).
private final class Daemon: @unchecked Sendable {
    let boundPort: UInt16
    /// Retained from start until `MHD_stop_daemon` returned; its address also identifies this server's callbacks.
    private let context: Unmanaged<ServerContext>
    private let lock = ConditionLock()
    /// The daemon until a stop takes it (guarded by `lock`).
    private var handle: Handle?
    /// True once `MHD_stop_daemon` returned and the context was released (guarded by `lock`).
    private var stopped = false

    init?(
        socketAddress: inout sockaddr_in, context: ServerContext, tls: (certificatePEM: String, keyPEM: String)?,
        connectionTimeout: UInt32
    ) {
        let box = Unmanaged.passRetained(context)
        // No MHD_USE_ERROR_LOG: a library never prints; failures surface as thrown errors or short bodies.
        // poll(), not select(): select() cannot watch a descriptor numbered 1024 or above, and libmicrohttpd then
        // refuses to start or drops the connection (the client sees a reset) in a process with that many files open.
        var flags =
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue
        if tls != nil { flags |= MHD_USE_TLS.rawValue }
        let started: OpaquePointer? = withUnsafePointer(to: &socketAddress) { pointer in
            spc_mhd_start_daemon(
                UInt32(flags), pointer, accessHandler, box.toOpaque(), requestCompleted, box.toOpaque(), uriLogger,
                box.toOpaque(), connectionTimeout, tls?.certificatePEM, tls?.keyPEM)
        }
        guard let started else {
            box.release()
            return nil
        }
        self.context = box
        self.handle = Handle(daemon: started)
        self.boundPort = spc_mhd_bound_port(started)
    }

    var isStopped: Bool { lock.withLock { stopped } }

    /// Stops the daemon, or waits for the stop another thread began; see `HTTPServer.stop()`.
    func stop() {
        let running: Handle? = lock.withLock {
            defer { handle = nil }
            return handle
        }
        let ownCallback = CallbackThread.isRunningCallback(of: context.toOpaque())
        if let running {
            if ownCallback {
                // MHD_stop_daemon would wait for this very thread (libmicrohttpd deadlocks or aborts): stop from
                // a thread of its own, which finishes once this callback has returned.
                if detachThread({ self.finish(running) }) { return }
                // No thread to be had: leave the daemon running (rather than deadlock) for a later stop to take.
                lock.withLock { handle = running }
                return
            }
            finish(running)
        } else if !ownCallback {
            // Another call took the daemon and is stopping it: return only once it is done.
            lock.waitUntil { stopped }
        }
    }

    func stopWithoutBlocking() async {
        if isStopped { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let started = detachThread {
                self.stop()
                continuation.resume()
            }
            if !started {
                stop()
                continuation.resume()
            }
        }
    }

    /// The `MHD_Daemon`; once a stop took it, only that stop (on whichever thread it runs) touches it.
    private struct Handle: @unchecked Sendable {
        let daemon: OpaquePointer
    }

    private func finish(_ running: Handle) {
        MHD_stop_daemon(running.daemon)
        context.release()
        lock.withLock { stopped = true }
        lock.broadcast()
    }
}

// MARK: - libmicrohttpd callbacks

/// What the daemon's callbacks share: the handler. Retained for the daemon's lifetime.
private final class ServerContext: @unchecked Sendable {
    let handler: HTTPServer.Handler
    let serverAddress: String
    init(handler: @escaping HTTPServer.Handler, serverAddress: String) {
        self.handler = handler
        self.serverAddress = serverAddress
    }
}

/// Per-request state, created when the URI arrives and released when the request completes.
private final class RequestState {
    let target: String
    var body: [UInt8] = []
    /// libmicrohttpd calls the handler once with the headers alone before any body; answer only after that.
    var headersSeen = false
    init(target: String) { self.target = target }
}

/// State of a streamed body, owned by the response and released by libmicrohttpd's free callback.
private final class StreamState {
    let next: @Sendable () -> HTTPServerResponse.Chunk
    /// The server's context address, to mark the threads running this producer (never dereferenced).
    let server: UnsafeMutableRawPointer
    var pending: [UInt8] = []
    var pendingOffset = 0
    var finished = false
    var aborted = false
    init(next: @escaping @Sendable () -> HTTPServerResponse.Chunk, server: UnsafeMutableRawPointer) {
        self.next = next
        self.server = server
    }
}

// `signal` returns the previous handler (or SIG_ERR for an invalid signal number, which SIGPIPE is not).
private let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

private let uriLogger: spc_mhd_uri_callback = { _, uri, _ in
    UnsafeMutableRawPointer(Unmanaged.passRetained(RequestState(target: String(cString: uri))).toOpaque())
}

private let requestCompleted: MHD_RequestCompletedCallback = { serverContext, _, requestContext, _ in
    guard let serverContext, let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    CallbackThread.running(serverContext) { Unmanaged<RequestState>.fromOpaque(raw).release() }
}

private let accessHandler: MHD_AccessHandlerCallback = {
    serverContext, connection, _, method, _, uploadData, uploadDataSize, requestContext in
    guard let serverContext, let connection, let method, let requestContext, let raw = requestContext.pointee
    else { return .NO }
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    if !state.headersSeen {
        state.headersSeen = true
        return .YES
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadDataSize.pointee) { bytes in
                state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: uploadDataSize.pointee))
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    let server = Unmanaged<ServerContext>.fromOpaque(serverContext).takeUnretainedValue()
    var headers: [(name: String, value: String)] = []
    withUnsafeMutablePointer(to: &headers) { pointer in
        // Returns how many headers it visited; the collected list is what counts.
        _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectHeader, pointer)
    }
    var addressBuffer = [CChar](repeating: 0, count: 64)
    // Returns nothing: an unknown peer leaves the buffer empty (the shim writes a NUL first).
    spc_mhd_client_address(connection, &addressBuffer, addressBuffer.count)
    let request = HTTPServerRequest(
        method: String(cString: method), target: state.target, headers: headers, body: state.body,
        clientAddress: String(decoding: addressBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
        serverAddress: server.serverAddress)
    return CallbackThread.running(serverContext) {
        queue(server.handler(request), on: connection, server: serverContext)
    }
}

private let collectHeader: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return .YES }
    let headers = context.assumingMemoryBound(to: [(name: String, value: String)].self)
    headers.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

private func queue(
    _ response: HTTPServerResponse, on connection: OpaquePointer, server: UnsafeMutableRawPointer
) -> MHD_Result {
    let mhdResponse: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        mhdResponse = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
    case .stream(let length, let next):
        let stream = Unmanaged.passRetained(StreamState(next: next, server: server))
        let size = length.map { UInt64($0) } ?? UInt64.max
        mhdResponse = MHD_create_response_from_callback(size, 16 * 1024, readStream, stream.toOpaque(), freeStream)
        if mhdResponse == nil { stream.release() }
    }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for header in response.headers {
        // Header names and values containing CR/LF are refused by libmicrohttpd; skip them rather than fail.
        _ = MHD_add_response_header(mhdResponse, header.name, header.value)
    }
    return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
}

private let readStream: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return contentReaderEndWithError }
    let stream = Unmanaged<StreamState>.fromOpaque(context).takeUnretainedValue()
    while stream.pendingOffset >= stream.pending.count {
        if stream.aborted { return contentReaderEndWithError }
        if stream.finished { return contentReaderEndOfStream }
        switch CallbackThread.running(stream.server, stream.next) {
        case .data(let bytes):
            stream.pending = bytes
            stream.pendingOffset = 0
        case .end: stream.finished = true
        case .abort: stream.aborted = true
        }
    }
    let count = min(max, stream.pending.count - stream.pendingOffset)
    stream.pending.withUnsafeBytes { source in
        UnsafeMutableRawPointer(buffer).copyMemory(
            from: source.baseAddress! + stream.pendingOffset, byteCount: count)
    }
    stream.pendingOffset += count
    return Int(count)
}

/// libmicrohttpd's `MHD_CONTENT_READER_END_*` values (macros Swift does not import).
private let contentReaderEndOfStream = -1
private let contentReaderEndWithError = -2

private let freeStream: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<StreamState>.fromOpaque(context)
    // Releasing the producer may release what it captured, down to the last reference to this very server.
    CallbackThread.running(stream.takeUnretainedValue().server) { stream.release() }
}

/// Which server's callback the current thread is running (a thread-local mark): a stop called from inside a
/// callback must not wait for that callback to end.
private enum CallbackThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // Only fails when the process is out of keys; the mark then never matches and stop() behaves as before.
        _ = pthread_key_create(&key, nil)
        return key
    }()

    static func running<T>(_ server: UnsafeMutableRawPointer, _ body: () -> T) -> T {
        let previous = pthread_getspecific(key)
        // Fails only with an invalid key (then the mark never matches, as above) or for want of memory.
        _ = pthread_setspecific(key, server)
        defer { _ = pthread_setspecific(key, previous) }
        return body()
    }

    static func isRunningCallback(of server: UnsafeMutableRawPointer) -> Bool {
        pthread_getspecific(key) == server
    }
}

/// Runs `body` on a new detached thread; false (and `body` not run) when no thread could be started.
private func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let job = Unmanaged.passRetained(Job(body))
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { raw in
            guard let raw else { return nil }
            Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, job.toOpaque())
    guard rc == 0 else {
        job.release()
        return false
    }
    // Detaching a thread just created by this function cannot fail (it is joinable and not yet detached).
    _ = pthread_detach(thread)
    return true
}
