import Foundation

/// Numbers the chunks of one streamed body (0, 1, 2, …) for a producer that may run on any thread.
public final class ChunkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Creates a counter at 0.
    public init() {}

    /// The next number.
    public func next() -> Int {
        lock.withLock {
            defer { value += 1 }
            return value
        }
    }
}
