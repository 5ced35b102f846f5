import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP/1.1 server whose handler chooses each answer's raw bytes: for answers a well-behaved server
/// library will not send (a body shorter than its `Content-Length`, a multipart body with the wrong boundary).
///
/// Connections are served one at a time on one thread: the request is read whole (headers, then
/// `Content-Length` bytes of body), the handler's bytes are written and the connection is closed (send
/// `Connection: close`, as ``response(status:contentType:body:declaredLength:)`` does). ``stop()`` (or the last
/// reference going) closes the listening socket and joins the thread.
public final class RawHTTPSite: @unchecked Sendable {
    /// One request as the server read it.
    public struct Request: Sendable {
        /// `GET`, `POST`, …
        public let method: String
        /// The request target as sent (path and query).
        public let target: String
        /// The header lines, names as sent.
        public let headers: [(name: String, value: String)]
        /// The body (`Content-Length` bytes).
        public let body: [UInt8]

        /// The target's path, without the query.
        public var path: String { String(target.prefix { $0 != "?" }) }

        /// The first value of header `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// What to do with one request.
    public enum Answer: Sendable {
        /// Write these bytes, then close the connection.
        case bytes([UInt8])
        /// Write these bytes, close the connection, then stop listening: the next connection is refused.
        case bytesThenRefuse([UInt8])
    }

    /// The port on 127.0.0.1.
    public let port: UInt16
    private let descriptor: Int32
    private let thread: Thread
    private let done = DispatchSemaphore(value: 0)
    private let state = State()

    /// What the serving thread and the caller share.
    private final class State: Sendable {
        let isStopped = Mutex(false)
        let isListening = Mutex(false)
        let log = Mutex<[Request]>([])
    }

    /// Listens on a fresh port of 127.0.0.1 and answers each request with `handler`'s choice. With `listening`
    /// false the port is bound but refuses every connection (as ``RefusingPort`` does) until ``startListening()``.
    public init(listening: Bool = true, handler: @escaping @Sendable (Request) -> Answer) throws {
        let (descriptor, port) = try LoopbackSocket.bound()
        self.descriptor = descriptor
        self.port = port
        let done = self.done
        let state = self.state
        thread = Thread {
            defer { done.signal() }
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                guard let request = Self.read(connection) else {
                    close(connection)
                    continue
                }
                state.log.withLock { $0.append(request) }
                switch handler(request) {
                case .bytes(let bytes):
                    Self.write(bytes, to: connection)
                case .bytesThenRefuse(let bytes):
                    Self.write(bytes, to: connection)
                    state.isStopped.withLock { $0 = true }
                    shutdown(descriptor, Int32(SHUT_RDWR))
                    close(descriptor)
                    return
                }
            }
        }
        // On a failure the descriptor is closed by `deinit` (``stop()``).
        if listening { try startListening() }
    }

    /// Starts accepting connections (once; later calls do nothing).
    public func startListening() throws {
        try state.isListening.withLock { isListening in
            guard !isListening else { return }
            guard listen(descriptor, 16) == 0 else { throw RefusingPortError(call: "listen", code: errno) }
            isListening = true
            thread.start()
        }
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request read so far, in order.
    public var requests: [Request] { state.log.withLock { $0 } }

    /// Stops listening and waits for the thread to end.
    public func stop() {
        let first = state.isStopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first {
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
        // A site that never listened has no thread to wait for.
        guard state.isListening.withLock({ $0 }) else { return }
        done.wait()
        done.signal()  // a second stop (or deinit after stop) does not wait again
    }

    deinit { stop() }

    /// A whole HTTP/1.1 answer with `Connection: close`; `declaredLength` (default the body's length) is the
    /// `Content-Length` sent, so a larger one makes the body end short.
    public static func response(status: Int, contentType: String, body: String, declaredLength: Int? = nil)
        -> [UInt8]
    {
        let bytes = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) \(status < 300 ? "OK" : "Error")\r\nContent-Type: \(contentType)\r\n"
            + "Content-Length: \(declaredLength ?? bytes.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + bytes
    }

    private static func read(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var length = 0
        while bytes.count < 64 << 20 {
            if let end = headEnd, bytes.count >= end + length { break }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            bytes += buffer[..<count]
            if headEnd == nil, let end = endOfHead(bytes) {
                headEnd = end
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let end = headEnd else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
        let first = lines.first?.split(separator: " ") ?? []
        guard first.count >= 2 else { return nil }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        return Request(
            method: String(first[0]), target: String(first[1]), headers: headers,
            body: Array(bytes[end..<min(bytes.count, end + length)]))
    }

    /// The index just after the blank line that ends the head, when it has arrived.
    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private static func write(_ bytes: [UInt8], to connection: Int32) {
        defer { close(connection) }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return }
            sent += count
        }
    }
}
