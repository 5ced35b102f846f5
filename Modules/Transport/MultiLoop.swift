internal import CCurl
internal import CCurlShims

#if canImport(Glibc)
    internal import Glibc
#endif

/// Owns one `CURLM` and the dedicated pthread that drives it, so no transfer ever blocks the cooperative pool.
///
/// Tasks hand transfers over with `run(_:)` and suspend; the thread adds them to the multi, drives
/// `curl_multi_perform`/`curl_multi_poll`, and resumes each continuation exactly once (done, failed or
/// cancelled). Other threads only touch the queues in `queues` (and a transfer's continuation and cancel flag under
/// the same mutex) and call `curl_multi_wakeup`, which libcurl
/// documents as thread-safe. The thread keeps the loop alive until `shutdown()` lets it finish.
final class MultiLoop: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer
    /// What other threads hand the loop thread.
    private struct Queues {
        var incoming: [Transfer] = []
        var cancellations: [Transfer] = []
        var stopping = false
    }
    /// Also guards each queued transfer's `continuation` and `cancelRequested`. A pthread mutex, not
    /// `Synchronization.Mutex`, so ThreadSanitizer sees the hand-over (``PosixMutex``).
    private let queues = PosixMutex(Queues())
    // Loop thread only.
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]

    init() throws(TransportError) {
        try CurlGlobal.ensure()
        guard let multi = curl_multi_init() else {
            throw TransportError(kind: .io, detail: "curl_multi_init failed", url: nil, message: "out of memory")
        }
        self.multi = multi
        let context = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let loop = Unmanaged<MultiLoop>.fromOpaque(raw).takeRetainedValue()
                loop.runLoop()
                return nil
            }, context.toOpaque())
        guard rc == 0 else {
            context.release()
            // Never added a handle: cleanup of an empty multi cannot fail in a way we could act on.
            _ = curl_multi_cleanup(multi)
            throw TransportError(
                kind: .io, detail: String(cString: strerror(rc)), url: nil,
                message: "could not start the transfer thread")
        }
        // The thread is never joined; it exits on its own after shutdown(). pthread_detach only fails for
        // an invalid or already-detached thread.
        _ = pthread_detach(thread)
    }

    /// Runs one transfer to completion on the loop thread; cancelling the calling task removes it at once.
    func run(_ transfer: Transfer) async -> TransferOutcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let accepted = queues.withLock { queues in
                    guard !queues.stopping else { return false }
                    transfer.continuation = continuation
                    queues.incoming.append(transfer)
                    return true
                }
                if accepted {
                    wakeUp()
                } else {
                    continuation.resume(returning: transfer.cancelledOutcome())
                }
            }
        } onCancel: {
            queues.withLock { queues in
                transfer.cancelRequested = true
                queues.cancellations.append(transfer)
            }
            wakeUp()
        }
    }

    /// Asks the thread to abort every transfer (they finish as cancelled), clean up the multi and exit.
    func shutdown() {
        queues.withLock { $0.stopping = true }
        wakeUp()
    }

    private func wakeUp() {
        // Only fails for a bad handle; the loop also polls at least once a second, so a lost wakeup only delays.
        _ = curl_multi_wakeup(multi)
    }

    private func finish(_ transfer: Transfer, _ outcome: TransferOutcome) {
        let continuation = queues.withLock { _ in
            let current = transfer.continuation
            transfer.continuation = nil
            return current
        }
        continuation?.resume(returning: outcome)
    }

    private func remove(_ transfer: Transfer) {
        // Removing a handle we added cannot fail except for misuse; the handle is freed with the Transfer.
        _ = curl_multi_remove_handle(multi, transfer.easy.raw)
        transfer.easy.detachCallbacks()
        active[transfer.easy.raw] = nil
    }

    private func runLoop() {
        while true {
            let (added, cancelled, stop) = queues.withLock { queues in
                defer {
                    queues.incoming.removeAll()
                    queues.cancellations.removeAll()
                }
                return (queues.incoming, queues.cancellations, queues.stopping)
            }
            for transfer in added {
                if stop || queues.withLock({ _ in transfer.cancelRequested }) {
                    finish(transfer, transfer.cancelledOutcome())
                    continue
                }
                let rc = curl_multi_add_handle(multi, transfer.easy.raw)
                guard rc == CURLM_OK else {
                    var outcome = transfer.cancelledOutcome()
                    outcome.error = TransportError(
                        kind: .invalidRequest, detail: String(cString: curl_multi_strerror(rc)), url: transfer.url,
                        message: "libcurl refused the transfer")
                    finish(transfer, outcome)
                    continue
                }
                active[transfer.easy.raw] = transfer
            }
            for transfer in cancelled where active[transfer.easy.raw] === transfer {
                remove(transfer)
                finish(transfer, transfer.cancelledOutcome())
            }
            if stop {
                for transfer in active.values {
                    remove(transfer)
                    finish(transfer, transfer.cancelledOutcome())
                }
                break
            }
            var running: Int32 = 0
            // A failing perform (out of memory) is reported per transfer through info_read.
            _ = curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active[easy]
                else { continue }
                let code = message.pointee.data.result
                remove(transfer)
                finish(transfer, transfer.outcome(code: code))
            }
            // Waits for socket activity, libcurl's next timeout, a wakeup, or one second at most.
            if curl_multi_poll(multi, nil, 0, 1000, nil) != CURLM_OK {
                // Out of memory or a broken wakeup pipe: back off instead of spinning, then try again.
                // usleep only fails when interrupted, which just ends the pause early.
                _ = usleep(10_000)
            }
        }
        // Every handle was removed above, so the multi is empty.
        _ = curl_multi_cleanup(multi)
    }
}
