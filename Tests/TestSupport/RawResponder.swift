import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP server that answers every connection with the same raw bytes, whatever they are: for responses
/// a well-behaved HTTP server library refuses to send (giant header lines, endless headers).
///
/// Each connection's request is read up to its blank line, then `response` is written and the connection closed.
/// ``stop()`` (or the last reference going) closes the listening socket and joins the thread.
public final class RawResponder: @unchecked Sendable {
    /// The port on 127.0.0.1.
    public let port: UInt16
    private let descriptor: Int32
    private let thread: Thread
    private let done = DispatchSemaphore(value: 0)
    private let isStopped = Mutex(false)

    /// Listens on a fresh port of 127.0.0.1 and starts answering with `response`.
    public init(response: [UInt8]) throws {
        let (descriptor, port) = try LoopbackSocket.bound()
        guard listen(descriptor, 16) == 0 else {
            let code = errno
            close(descriptor)
            throw RefusingPortError(call: "listen", code: code)
        }
        self.descriptor = descriptor
        self.port = port
        let done = self.done
        thread = Thread {
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    break
                }
                Self.answer(connection, with: response)
            }
            done.signal()
        }
        thread.start()
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops listening and waits for the thread to end.
    public func stop() {
        let first = isStopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        done.wait()
    }

    deinit { stop() }

    private static func answer(_ connection: Int32, with response: [UInt8]) {
        defer { close(connection) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = [13, 10, 13, 10]
        while request.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            request += buffer[..<count]
            if request.count >= 4, request.suffix(4).elementsEqual(end) || containsEnd(request) { break }
        }
        var sent = 0
        while sent < response.count {
            let count = response[sent...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return }
            sent += count
        }
    }

    private static func containsEnd(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return true
        }
        return false
    }
}
