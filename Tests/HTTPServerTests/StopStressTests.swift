import Foundation
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Stopping a server while keep-alive clients are mid-request and bodies are being dripped: the lifetimes of
/// what libmicrohttpd's callbacks hold (the handler, per-request state, stream producers) across `stop()`.
/// Worth running under `-Xswiftc -sanitize=address` and `-sanitize=thread` too (each in its own `--scratch-path`).
@Suite struct StopStressTests {
    static let clients = 8
    static let rounds = 30

    @Test func stopWhileKeepAliveClientsAreMidFlightReleasesEverything() async throws {
        var completeAnswers = 0
        for round in 0..<Self.rounds {
            let live = LiveObjects()
            let handled = Tally()
            weak var weakServer: HTTPServer?
            var reports: [ClientReport] = []
            do {
                let server = try StressServer.start(live: live, handled: handled)
                weakServer = server
                let port = server.port
                let finished = Tally()
                async let clientReports = Self.runClients(port: port, round: round, finished: finished)
                // Stop once a few requests per client went through: some answers are then mid-drip.
                let threshold = Self.clients * (1 + round % 4)
                while handled.value < threshold && finished.value < Self.clients {
                    try await Task.sleep(for: .milliseconds(1))
                }
                await StressServer.stop(server, round: round)
                reports = await clientReports
            }
            #expect(weakServer == nil, "round \(round): the server was not released")
            #expect(live.count == 0, "round \(round): \(live.count) handler or stream objects still alive")
            for report in reports {
                #expect(report.failures.isEmpty, "round \(round): \(report.failures)")
            }
            completeAnswers += reports.map(\.complete).reduce(0, +)
        }
        #expect(completeAnswers > 0, "no answer arrived whole in any round")
    }

    /// A second `stop()` while the first is still waiting for a handler returns only once that handler is done too.
    @Test func everyStopReturnsOnlyWhenNoHandlerRuns() async throws {
        let running = Tally()
        let finished = Tally()
        let server = try HTTPServer { _ in
            running.increment()
            for _ in 0..<50 { usleep(1000) }  // a slow handler: work, not a timing assumption
            finished.increment()
            return HTTPServerResponse(status: 204)
        }
        let port = server.port
        async let report = StopStressTests.runClients(port: port, round: 0, finished: Tally(), count: 1)
        while running.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let seen = Observations<Int>()
        await withTaskGroup(of: Void.self) { group in
            for way in 0..<2 {
                group.addTask {
                    await StressServer.stop(server, round: way)
                    seen.append(running.value - finished.value)
                }
            }
        }
        #expect(seen.all == [0, 0], "a stop() returned while a handler still ran")
        _ = await report
    }

    /// A handler may stop its own server, or let go of the last reference to it (deinit then runs on the
    /// connection's thread): neither deadlocks (libmicrohttpd would wait for the very thread asking) nor aborts.
    @Test func aHandlerMayStopItsOwnServerOrDropTheLastReference() async throws {
        for dropLastReference in [false, true] {
            let live = LiveObjects()
            let holder = ServerBox(nil)
            weak var weakServer: HTTPServer?
            let url: String
            do {
                let server = try HTTPServer { [token = live.track()] _ in
                    _ = token
                    if dropLastReference { holder.server = nil } else { holder.server?.stop() }
                    return HTTPServerResponse(status: 200, contentType: "text/plain", text: "stopping")
                }
                holder.server = server
                weakServer = server
                url = server.baseURL
            }
            // From here on only `holder` (and so the handler) holds the server.
            _ = try await runCurl([url + "/stop"])
            if !dropLastReference {
                await holder.server?.stop()  // waits for the stop the handler started
                holder.server = nil
            }
            // That stop completes on a thread of its own once the handler returned: poll for its effects.
            var polls = 0
            while (live.count > 0 || weakServer != nil) && polls < 10_000 {
                polls += 1
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(weakServer == nil, "dropLastReference: \(dropLastReference)")
            #expect(live.count == 0, "dropLastReference: \(dropLastReference)")
        }
    }

    /// Runs the keep-alive clients on threads of their own (they block in `recv`) and suspends until all end.
    static func runClients(port: UInt16, round: Int, finished: Tally, count: Int = clients) async
        -> [ClientReport]
    {
        await withTaskGroup(of: ClientReport.self) { group in
            for index in 0..<count {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread {
                            let report = KeepAliveClient(port: port, seed: index + round * clients).run()
                            finished.increment()
                            continuation.resume(returning: report)
                        }
                    }
                }
            }
            var reports: [ClientReport] = []
            for await report in group { reports.append(report) }
            return reports
        }
    }
}

/// The server under stress: four kinds of answers, each body the same 4096-byte pattern.
enum StressServer {
    static let bodySize = 4096
    static let chunkSize = 512

    /// Byte `offset` of every body (so a client can tell a correct prefix from garbage).
    static func patternByte(_ offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset % 251) }
    static let pattern: [UInt8] = (0..<bodySize).map(patternByte)

    static func start(live: LiveObjects, handled: Tally) throws -> HTTPServer {
        try HTTPServer { [token = live.track()] request in
            _ = token
            handled.increment()
            switch request.path {
            case "/bytes":
                return HTTPServerResponse(status: 200, body: .bytes(pattern))
            case "/drip", "/chunked", "/abort":
                let streamToken = live.track()
                let chunks = ChunkCounter()
                let abort = request.path == "/abort"
                let length: Int? = request.path == "/chunked" ? nil : bodySize
                return HTTPServerResponse(
                    status: 200,
                    body: .stream(length: length) {
                        _ = streamToken
                        let index = chunks.next()
                        if abort && index == 2 { return .abort }
                        guard index * chunkSize < bodySize else { return .end }
                        usleep(300)
                        return .data(Array(pattern[index * chunkSize..<(index + 1) * chunkSize]))
                    })
            default:
                return HTTPServerResponse(status: 404)
            }
        }
    }

    /// Stops the way `round` picks: blocking a thread of its own, suspending, or both at once.
    static func stop(_ server: HTTPServer, round: Int) async {
        switch round % 3 {
        case 0: await stopOnThread(server)
        case 1: await server.stop()
        default:
            async let blocking: Void = stopOnThread(server)
            await server.stop()
            await blocking
        }
    }

    /// The blocking `stop()`, on a thread of its own (never on one of the cooperative pool).
    static func stopOnThread(_ server: HTTPServer) async {
        let box = ServerBox(server)
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                box.server?.stop()
                box.server = nil
                continuation.resume()
            }
        }
    }
}

/// A value behind an `NSLock`. (Not `Synchronization.Mutex`: on Linux it locks with futex calls ThreadSanitizer does
/// not see, so every access under it is reported as a race.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// Counts live instances of the objects a server's callbacks hold; zero once the server let go of them all.
final class LiveObjects: Sendable {
    private let live = Locked(0)
    var count: Int { live.withLock { $0 } }
    func track() -> Tracked { Tracked(self) }
    fileprivate func add(_ delta: Int) { live.withLock { $0 += delta } }
}

final class Tracked: Sendable {
    let owner: LiveObjects
    init(_ owner: LiveObjects) {
        self.owner = owner
        owner.add(1)
    }
    deinit { owner.add(-1) }
}

/// A count shared across threads.
final class Tally: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// Holds a reference to a server that another thread may drop (so a test can tell who held the last one).
final class ServerBox: Sendable {
    private let slot: Locked<HTTPServer?>
    init(_ server: HTTPServer?) { slot = Locked(server) }
    var server: HTTPServer? {
        get { slot.withLock { $0 } }
        set {
            let previous = slot.withLock { slot in
                defer { slot = newValue }
                return slot
            }
            _ = previous  // released here, outside the lock
        }
    }
}

/// Values appended from several tasks.
final class Observations<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])
    var all: [Value] { values.withLock { $0 } }
    func append(_ value: Value) { values.withLock { $0.append(value) } }
}

/// What one client saw: whole answers, answers cut by the server going away, and anything else (failures).
struct ClientReport: Sendable {
    var complete = 0
    var cut = 0
    var hungUp = 0
    var failures: [String] = []
}

/// A raw-socket HTTP/1.1 client that keeps its connection alive and reconnects after a cut, until the server
/// refuses connections (it was stopped) or it made `limit` requests.
final class KeepAliveClient {
    let port: UInt16
    let seed: Int
    let limit = 400
    private var socket: Int32 = -1
    private var buffer: [UInt8] = []
    private var timedOut = false

    init(port: UInt16, seed: Int) {
        self.port = port
        self.seed = seed
    }

    deinit { disconnect() }

    func run() -> ClientReport {
        var report = ClientReport()
        let paths = ["/drip", "/bytes", "/chunked", "/drip", "/abort"]
        for iteration in 0..<limit {
            if socket < 0 && !connectToServer() { break }  // refused: the server is gone
            let path = paths[(seed + iteration) % paths.count]
            let hangUpEarly = (seed + iteration) % 7 == 3 && path == "/drip"
            switch exchange(path, hangUpEarly: hangUpEarly) {
            case .complete:
                report.complete += 1
                if path == "/abort" { report.failures.append("\(path): an aborted body arrived whole") }
            case .cut:
                report.cut += 1
                disconnect()
            case .hungUp:
                report.hungUp += 1
                disconnect()
            case .failure(let text):
                report.failures.append("\(path): \(text)")
                disconnect()
            }
            if !report.failures.isEmpty { break }
        }
        return report
    }

    enum Outcome {
        case complete
        /// The connection ended (EOF or reset) before the answer was whole, and what arrived was correct.
        case cut
        /// This client closed the connection mid-body on purpose.
        case hungUp
        case failure(String)
    }

    private func connectToServer() -> Bool {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        // Connect from 127.0.0.9: the many short-lived local ports these clients take (and leave in TIME_WAIT) then
        // never collide with a port a server of a test running beside this one binds on 127.0.0.1.
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = UInt32(0x7F00_0009).bigEndian
        let bound = withUnsafePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            return false
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            return false
        }
        socket = descriptor
        buffer = []
        return true
    }

    private func disconnect() {
        if socket >= 0 { close(socket) }
        socket = -1
        buffer = []
    }

    private func exchange(_ path: String, hangUpEarly: Bool) -> Outcome {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return ended() }
        guard let statusLine = readLine() else { return ended() }
        guard statusLine.hasPrefix("HTTP/1.1 200") else { return .failure("status line '\(statusLine)'") }
        var length: Int?
        var chunked = false
        var closeAfter = false
        while true {
            guard let line = readLine() else { return ended() }
            if line.isEmpty { break }
            let parts = line.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard parts.count == 2 else { return .failure("header line '\(line)'") }
            switch parts[0] {
            case "content-length": length = Int(parts[1])
            case "transfer-encoding": chunked = parts[1] == "chunked"
            case "connection": closeAfter = parts[1] == "close"
            default: break
            }
        }
        var body: [UInt8] = []
        if chunked {
            while true {
                guard let sizeLine = readLine() else { return cut(body) }
                guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
                    return .failure("chunk size line '\(sizeLine)'")
                }
                if size == 0 {
                    while let trailer = readLine(), !trailer.isEmpty {}
                    break
                }
                guard let data = take(size) else { return cut(body + buffer) }
                body += data
                guard let end = readLine() else { return cut(body) }
                guard end.isEmpty else { return .failure("chunk not ended by CRLF") }
            }
        } else {
            guard let length else { return .failure("no Content-Length and not chunked") }
            if hangUpEarly {
                _ = take(min(length, StressServer.chunkSize))
                return .hungUp
            }
            guard let data = take(length) else { return cut(buffer) }
            body = data
        }
        guard body == StressServer.pattern else { return .failure("body of \(body.count) bytes is not the pattern") }
        if closeAfter { disconnect() }
        return .complete
    }

    /// The connection ended before an answer started or while its head arrived.
    private func ended() -> Outcome { timedOut ? .failure("timed out") : .cut }

    /// The connection ended mid-body: a cut when what arrived is a correct prefix.
    private func cut(_ partial: [UInt8]) -> Outcome {
        if timedOut { return .failure("timed out mid-body") }
        guard partial.count <= StressServer.bodySize, partial.elementsEqual(StressServer.pattern.prefix(partial.count))
        else { return .failure("a cut body of \(partial.count) bytes is not a prefix of the pattern") }
        return .cut
    }

    /// Reads more bytes into `buffer`; false at end of stream, on a reset or on a timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer += chunk[0..<count]
            return true
        }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { timedOut = true }
        return false
    }

    private func readLine() -> String? {
        while true {
            if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return line
            }
            guard fill() else { return nil }
        }
    }

    private func take(_ count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        let taken = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        return taken
    }
}
