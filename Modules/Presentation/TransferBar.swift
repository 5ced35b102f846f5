import Synchronization

/// A progress bar drawn on a descriptor the app gives (its standard error, on a terminal), redrawn by a task ten times
/// a second.
public final class TransferBar: Sendable {
    private let task: Task<Void, Never>?
    private let box: ProgressReporterBox
    private let totals: @Sendable () -> (done: Int64, total: Int64?)
    private let started = ContinuousClock.now

    /// A bar labelled `label` showing what `totals` says (bytes done, and of how many when known), drawn on
    /// `fileDescriptor`; nothing is drawn unless `enabled` (the descriptor is a terminal and the run is not quiet).
    public init(
        label: String, totals: @escaping @Sendable () -> (done: Int64, total: Int64?), enabled: Bool,
        drawingOn fileDescriptor: Int32
    ) {
        self.totals = totals
        let box = ProgressReporterBox(
            ProgressReporter(
                sink: FileDescriptorSink(fileDescriptor: fileDescriptor, bufferCapacity: 4 * 1024),
                bar: ProgressBar(label: label), isEnabled: enabled))
        self.box = box
        guard enabled else {
            task = nil
            return
        }
        let reporterRef = box
        let startedAt = started
        task = Task {
            while !Task.isCancelled {
                let (done, total) = totals()
                reporterRef.lock.withLock { _ in
                    reporterRef.reporter.update(
                        done: done, total: total, elapsedSeconds: (ContinuousClock.now - startedAt) / .seconds(1))
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Stops redrawing and draws the final state.
    public func finish() {
        task?.cancel()
        let (done, total) = totals()
        box.lock.withLock { _ in
            box.reporter.finish(done: done, total: total, elapsedSeconds: (ContinuousClock.now - started) / .seconds(1))
        }
    }
}

/// A `ProgressReporter` (not thread-safe) used only under its lock.
private final class ProgressReporterBox: @unchecked Sendable {
    let reporter: ProgressReporter
    let lock = Mutex(())

    init(_ reporter: ProgressReporter) { self.reporter = reporter }
}
