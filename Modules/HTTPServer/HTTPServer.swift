internal import CMicroHTTPD
internal import CShims

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
/// `stop()` (or deinit) closes the listening socket and waits for running handlers to finish.
/// Thread-safety: `port`, `address` and `stop()` may be used from any thread.
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

    private var daemon: OpaquePointer?
    private let context: Unmanaged<ServerContext>
    private let lock = Mutex()

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
        let box = Unmanaged.passRetained(ServerContext(handler: handler, serverAddress: address))
        // No MHD_USE_ERROR_LOG: a library never prints; failures surface as thrown errors or short bodies.
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
        if tls != nil { flags |= MHD_USE_TLS.rawValue }
        let started: OpaquePointer? = withUnsafePointer(to: &socketAddress) { pointer in
            spc_mhd_start_daemon(
                UInt32(flags), pointer, accessHandler, box.toOpaque(), requestCompleted, nil, uriLogger,
                box.toOpaque(), connectionTimeout, tls?.certificatePEM, tls?.keyPEM)
        }
        guard let started else {
            box.release()
            throw .startFailed(address: address, port: port)
        }
        self.daemon = started
        self.context = box
        self.address = address
        self.port = spc_mhd_bound_port(started)
        self.scheme = tls == nil ? "http" : "https"
    }

    /// Stops listening and waits for handlers that are running. Calling it twice is harmless.
    public func stop() {
        let running: OpaquePointer? = lock.withLock {
            let current = daemon
            daemon = nil
            return current
        }
        guard let running else { return }
        MHD_stop_daemon(running)
        context.release()
    }

    deinit { stop() }
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
    var pending: [UInt8] = []
    var pendingOffset = 0
    var finished = false
    var aborted = false
    init(next: @escaping @Sendable () -> HTTPServerResponse.Chunk) { self.next = next }
}

private let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

private let uriLogger: spc_mhd_uri_callback = { _, uri, _ in
    UnsafeMutableRawPointer(Unmanaged.passRetained(RequestState(target: String(cString: uri))).toOpaque())
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let raw = requestContext.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(raw).release()
    requestContext.pointee = nil
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
        _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectHeader, pointer)
    }
    var addressBuffer = [CChar](repeating: 0, count: 64)
    spc_mhd_client_address(connection, &addressBuffer, addressBuffer.count)
    let request = HTTPServerRequest(
        method: String(cString: method), target: state.target, headers: headers, body: state.body,
        clientAddress: String(cString: addressBuffer), serverAddress: server.serverAddress)
    let response = server.handler(request)
    return queue(response, on: connection)
}

private let collectHeader: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return .YES }
    let headers = context.assumingMemoryBound(to: [(name: String, value: String)].self)
    headers.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

private func queue(_ response: HTTPServerResponse, on connection: OpaquePointer) -> MHD_Result {
    let mhdResponse: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        mhdResponse = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
    case .stream(let length, let next):
        let stream = Unmanaged.passRetained(StreamState(next: next))
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
        switch stream.next() {
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
    Unmanaged<StreamState>.fromOpaque(context).release()
}

/// A pthread mutex owned by one Swift object.
final class Mutex: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
