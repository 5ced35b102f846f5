import HTTPServer
import Synchronization

/// A monotonically increasing counter for stream producers.
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}

/// Re-chunks any body (bytes or stream) into pieces of a chosen size.
final class BodyProducer: Sendable {
    /// Bytes read from the body but not taken yet, and the rest of a streamed body (nil once it ended).
    private struct Pending {
        var buffer: [UInt8]
        var upstream: (@Sendable () -> HTTPServerResponse.Chunk)?
    }

    private let pending: Mutex<Pending>
    let length: Int?

    init(_ body: HTTPServerResponse.Body) {
        switch body {
        case .bytes(let bytes):
            pending = Mutex(Pending(buffer: bytes, upstream: nil))
            length = bytes.count
        case .stream(let length, let next):
            pending = Mutex(Pending(buffer: [], upstream: next))
            self.length = length
        }
    }

    func take(_ count: Int) -> [UInt8] {
        pending.withLock { pending in
            while pending.buffer.count < count, let upstream = pending.upstream {
                switch upstream() {
                case .data(let bytes): pending.buffer += bytes
                case .end, .abort: pending.upstream = nil
                }
            }
            let taken = Array(pending.buffer.prefix(count))
            pending.buffer.removeFirst(taken.count)
            return taken
        }
    }
}
