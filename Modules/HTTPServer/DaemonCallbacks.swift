internal import CMicroHTTPD
internal import CMicroHTTPDShims

#if canImport(Glibc)
    internal import Glibc
#endif

// libmicrohttpd's callbacks into Swift and what they share (the server and its daemon are in HTTPServer.swift):
// the access handler, request and stream state, and the thread-local mark of a running callback.

/// What the daemon's callbacks share: the handler. Retained for the daemon's lifetime.
final class ServerContext: @unchecked Sendable {
    let handler: HTTPServer.Handler
    let serverAddress: String
    let bodies: RequestBodyStorage
    let admission: HTTPServer.Admission?
    init(
        handler: @escaping HTTPServer.Handler, serverAddress: String, bodies: RequestBodyStorage,
        admission: HTTPServer.Admission?
    ) {
        self.handler = handler
        self.serverAddress = serverAddress
        self.bodies = bodies
        self.admission = admission
    }
}

/// Per-request state, created when the URI arrives and released when the request completes.
final class RequestState {
    let target: String
    var body: [UInt8] = []
    /// The body past the memory threshold (``RequestBodyStorage/files(over:in:)``).
    var bodyFile: IncomingBodyFile?
    /// No file could be made for a body past the threshold: the request is answered 507 once it arrived.
    var bodyRefused = false
    /// libmicrohttpd calls the handler once with the headers alone before any body; answer only after that.
    var headersSeen = false
    init(target: String) { self.target = target }
}

/// State of a streamed body, owned by the response and released by libmicrohttpd's free callback.
final class StreamState {
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
let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

let uriLogger: spc_mhd_uri_callback = { _, uri, _ in
    UnsafeMutableRawPointer(Unmanaged.passRetained(RequestState(target: String(cString: uri))).toOpaque())
}

let requestCompleted: MHD_RequestCompletedCallback = { serverContext, _, requestContext, _ in
    guard let serverContext, let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    CallbackThread.running(serverContext) { Unmanaged<RequestState>.fromOpaque(raw).release() }
}

let accessHandler: MHD_AccessHandlerCallback = {
    serverContext, connection, _, method, _, uploadData, uploadDataSize, requestContext in
    guard let serverContext, let connection, let method, let requestContext, let raw = requestContext.pointee
    else { return .NO }
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    let server = Unmanaged<ServerContext>.fromOpaque(serverContext).takeUnretainedValue()
    if !state.headersSeen {
        state.headersSeen = true
        // A request refused on its head alone is answered before its body is read (the body is never stored).
        if let admission = server.admission {
            let head = receivedRequest(connection, method: method, state: state, server: server, withBody: false)
            if let refusal = CallbackThread.running(serverContext, { admission(head) }) {
                return CallbackThread.running(serverContext) { queue(refusal, on: connection, server: serverContext) }
            }
        }
        return .YES
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadDataSize.pointee) { bytes in
                receiveBody(UnsafeBufferPointer(start: bytes, count: uploadDataSize.pointee), into: state, server)
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    if state.bodyRefused || state.bodyFile?.failure != nil {
        let reason = state.bodyFile?.failure ?? "no file could be made for it"
        let refusal = HTTPServerResponse(
            status: 507, contentType: "text/plain; charset=utf-8",
            text: "the server could not keep the request body (\(reason))\n")
        return CallbackThread.running(serverContext) { queue(refusal, on: connection, server: serverContext) }
    }
    let request = receivedRequest(connection, method: method, state: state, server: server, withBody: true)
    return CallbackThread.running(serverContext) {
        queue(server.handler(request), on: connection, server: serverContext)
    }
}

/// Keeps body bytes that arrived: in memory, or past the threshold in the request's body file.
private func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>, into state: RequestState, _ server: ServerContext) {
    if let file = state.bodyFile {
        file.append(bytes)
        return
    }
    guard !state.bodyRefused else { return }
    if case .files(let threshold, let directory) = server.bodies, state.body.count + bytes.count > threshold {
        guard let file = IncomingBodyFile(in: directory, holding: state.body) else {
            state.bodyRefused = true
            state.body = []
            return
        }
        file.append(bytes)
        state.bodyFile = file
        state.body = []
        return
    }
    state.body.append(contentsOf: bytes)
}

/// The request as received: its head, and its body when it has arrived (`withBody`).
private func receivedRequest(
    _ connection: OpaquePointer, method: UnsafePointer<CChar>, state: RequestState, server: ServerContext,
    withBody: Bool
) -> HTTPServerRequest {
    var headers: [(name: String, value: String)] = []
    withUnsafeMutablePointer(to: &headers) { pointer in
        // Returns how many headers it visited; the collected list is what counts.
        _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectHeader, pointer)
    }
    var addressBuffer = [CChar](repeating: 0, count: 64)
    // Returns nothing: an unknown peer leaves the buffer empty (the shim writes a NUL first).
    spc_mhd_client_address(connection, &addressBuffer, addressBuffer.count)
    return HTTPServerRequest(
        method: String(cString: method), target: state.target, headers: headers, body: withBody ? state.body : [],
        bodyFile: withBody ? state.bodyFile?.finish() : nil,
        clientAddress: String(decoding: addressBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
        serverAddress: server.serverAddress)
}

let collectHeader: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return .YES }
    let headers = context.assumingMemoryBound(to: [(name: String, value: String)].self)
    headers.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

func queue(
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

let readStream: MHD_ContentReaderCallback = { context, _, buffer, max in
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
let contentReaderEndOfStream = -1
let contentReaderEndWithError = -2

let freeStream: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<StreamState>.fromOpaque(context)
    // Releasing the producer may release what it captured, down to the last reference to this very server.
    CallbackThread.running(stream.takeUnretainedValue().server) { stream.release() }
}

/// Which server's callback the current thread is running (a thread-local mark): a stop called from inside a
/// callback must not wait for that callback to end.
enum CallbackThread {
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
func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
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
