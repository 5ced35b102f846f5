public import SharePoint
import Synchronization

/// Byte counts of several transfers, updated from Transport's threads.
public final class TransferTotals: Sendable {
    private let state: Mutex<[FileProgress?]>
    /// The number of transfers counted.
    public let count: Int

    /// Totals of `count` transfers, none reported yet.
    public init(count: Int) {
        self.count = count
        state = Mutex([FileProgress?](repeating: nil, count: count))
    }

    /// Transfer `index` reported `progress`.
    public func update(_ index: Int, _ progress: FileProgress) {
        state.withLock { $0[index] = progress }
    }

    /// Bytes done, and the total when every transfer has reported a known size.
    public var sum: (done: Int64, total: Int64?) {
        state.withLock { all in
            let done = all.reduce(Int64(0)) { $0 + ($1?.completedBytes ?? 0) }
            var total: Int64? = 0
            for progress in all {
                if let size = progress?.totalBytes, let sum = total { total = sum + size } else { total = nil }
            }
            return (done, total)
        }
    }
}
