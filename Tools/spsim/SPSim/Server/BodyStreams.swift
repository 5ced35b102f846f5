import Foundation
import HTTPServer

/// A monotonically increasing counter for stream producers.
final class Counter: @unchecked Sendable {
    private let value = Locked(0)
    func next() -> Int {
        value.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}

/// Re-chunks any body (bytes or stream) into pieces of a chosen size.
final class BodyProducer: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var upstream: (@Sendable () -> HTTPServerResponse.Chunk)?
    let length: Int?

    init(_ body: HTTPServerResponse.Body) {
        switch body {
        case .bytes(let bytes):
            buffer = bytes
            length = bytes.count
        case .stream(let length, let next):
            self.length = length
            upstream = next
        }
    }

    func take(_ count: Int) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        while buffer.count < count, let upstream {
            switch upstream() {
            case .data(let bytes): buffer += bytes
            case .end, .abort: self.upstream = nil
            }
        }
        let taken = Array(buffer.prefix(count))
        buffer.removeFirst(taken.count)
        return taken
    }
}
