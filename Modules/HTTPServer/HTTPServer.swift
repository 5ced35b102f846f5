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
    /// The admission check: a request's head in, a refusal out, or nil to read the body and call the handler.
    public typealias Admission = @Sendable (HTTPServerRequest) -> HTTPServerResponse?

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
    ///   - bodies: where request bodies are kept while they arrive (in memory, or large ones in files).
    ///   - admission: looks at each request's head (its body empty) before the body is read; a response it returns
    ///     is sent at once and the body is never stored. For refusing unauthorised uploads before they cost memory
    ///     or disk. Runs on the connection's thread.
    public init(
        address: String = "127.0.0.1", port: UInt16 = 0, allowNonLoopback: Bool = false,
        tls: (certificatePEM: String, keyPEM: String)? = nil, connectionTimeout: UInt32 = 30,
        bodies: RequestBodyStorage = .memory, admission: Admission? = nil, handler: @escaping Handler
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
                socketAddress: &socketAddress,
                context: ServerContext(
                    handler: handler, serverAddress: address, bodies: bodies, admission: admission),
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

    /// Stops as `stop()` does, on a thread of its own: letting go of the last reference never blocks. (Blocking
    /// there deadlocked a test run: a task of the cooperative pool released a server whose handler was waiting, in
    /// `blockingAwait`, for a task that needed that pool.) Call `await stop()` to know when it is done.
    deinit { daemon.stopInBackground() }
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

    /// Starts the stop on a thread of its own (which holds the daemon until it is done) and returns at once.
    func stopInBackground() {
        if isStopped { return }
        if !detachThread({ self.stop() }) { stop() }
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
