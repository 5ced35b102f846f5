import Synchronization

/// Numbers the chunks of one streamed body (0, 1, 2, …) for a producer that may run on any thread.
public final class ChunkCounter: Sendable {
    private let value = Mutex(0)

    /// Creates a counter at 0.
    public init() {}

    /// The next number.
    public func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
