import Foundation
import HTTPServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `stop()` while a keep-alive connection is open and *idle* (its last answer sent, the server's connection thread
/// waiting for the next request) or holds half a request (headers not ended). StopStressTests covers connections
/// with requests in flight; here nothing is in the handler when the stop comes, so the stop has to end a connection
/// thread that is blocked reading. Each round: the stop returns, the client sees its connection closed, and the
/// server and its handler are released. Meant for ThreadSanitizer too (`Tools/sanitize thread`).
@Suite struct KeepAliveStopStressTests {
    static let rounds = 24

    @Test func stopWithAnIdleOrHalfSentKeepAliveConnectionClosesItAndReleasesEverything() async throws {
        for round in 0..<Self.rounds {
            let live = LiveObjects()
            weak var weakServer: HTTPServer?
            var closedByServer = false
            var status: Int?
            do {
                let server = try HTTPServer { [token = live.track()] _ in
                    _ = token
                    return HTTPServerResponse(status: 200, contentType: "text/plain", text: "kept alive")
                }
                weakServer = server
                let connection = try #require(IdleConnection(port: server.port), "round \(round): no connection")
                status = connection.get("/")  // one whole exchange: the connection is kept alive, idle
                if round % 2 == 1 { connection.send("GET /half HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
                // The stop runs beside the open connection: on a thread of its own, suspending, or both at once.
                await StressServer.stop(server, round: round)
                closedByServer = connection.waitForClose()
            }
            #expect(status == 200, "round \(round): the first answer")
            #expect(closedByServer, "round \(round): the connection was still open after stop()")
            #expect(weakServer == nil, "round \(round): the server was not released")
            #expect(live.count == 0, "round \(round): the handler was not released")
        }
    }
}

/// One raw keep-alive connection (10 s send and receive timeouts), from 127.0.0.9 like StopStressTests' clients.
final class IdleConnection {
    private let socket: Int32

    init?(port: UInt16) {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = UInt32(0x7F00_0009).bigEndian
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &local) { localPointer in
            withUnsafePointer(to: &address) { remotePointer in
                localPointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { localAddress in
                    remotePointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { remoteAddress in
                        bind(descriptor, localAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                            && Glibc.connect(descriptor, remoteAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
            }
        }
        guard connected else {
            close(descriptor)
            return nil
        }
        socket = descriptor
    }

    deinit { close(socket) }

    /// Sends `text` whole; false when the connection refused it.
    @discardableResult func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard result > 0 else { return false }
            sent += result
        }
        return true
    }

    /// One keep-alive GET: the status of the answer once its `Content-Length` body arrived, nil otherwise.
    func get(_ path: String) -> Int? {
        guard send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") else { return nil }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let headerEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headerEnd.lowerBound].lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                let bodyBytes = text[headerEnd.upperBound...].utf8.count
                if let length, bodyBytes >= length {
                    return Int(text.dropFirst("HTTP/1.1 ".count).prefix(3))
                }
            }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += chunk[0..<count]
        }
    }

    /// Whether the server closes the connection (end of stream or reset) within the receive timeout; bytes that
    /// arrive first (an answer to a half-sent request, say) are read past.
    func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}
