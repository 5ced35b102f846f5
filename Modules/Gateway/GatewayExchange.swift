import Transport

/// One request of a local tool on its way to the site: sent by a task of its own, its answer's status and headers
/// known as soon as they arrive (``head()``) and its body passed on through a ``GatewaySpool`` while it still
/// arrives, so a multi-gigabyte download reaches the client at the pace of the slower side with flat memory.
/// Dropping the exchange before the transfer ended (the client went away) cancels it.
final class GatewayExchange: Sendable {
    let spool: GatewaySpool
    private let state = PosixMutex(State())
    private let task = PosixMutex<Task<Void, Never>?>(nil)

    private struct State {
        var head: Result<HTTPResponseHead, any Error>?
        var waiters: [CheckedContinuation<Result<HTTPResponseHead, any Error>, Never>] = []
        var ended = false
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Sends `request` with `client`, its body into `spool`.
    init(_ request: HTTPRequest, client: HTTPClient, spool: GatewaySpool) {
        self.spool = spool
        var outgoing = request
        outgoing.responseBody = .sink { [spool] bytes in try spool.append(bytes) }
        outgoing.responseHead = { [weak self] head in self?.resolve(.success(head)) }
        let started = Task { [weak self, outgoing] in
            do {
                let response = try await client.execute(outgoing)
                spool.finish(complete: true)
                self?.resolve(.success(HTTPResponseHead(status: response.status, headers: response.headers)))
            } catch {
                spool.finish(complete: false)
                self?.resolve(.failure(error))
            }
            self?.end()
        }
        task.withLock { $0 = started }
    }

    deinit { task.withLock { $0?.cancel() } }

    /// The answer's status and headers, or why none came.
    func head() async -> Result<HTTPResponseHead, any Error> {
        await withCheckedContinuation { continuation in
            let known: Result<HTTPResponseHead, any Error>? = state.withLock { state in
                if let head = state.head { return head }
                state.waiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Stops the transfer and waits until it ended.
    func cancel() async {
        task.withLock { $0?.cancel() }
        await ended()
    }

    /// Whether the transfer ended with at most `limit` bytes in the spool: waits for its end, or until the spool
    /// holds more than `limit` (false; the transfer goes on).
    func ended(within limit: Int) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            spool.whenBeyond(limit) { once.resume() }
            Task { [weak self] in
                await self?.ended()
                once.resume()
            }
        }
        return state.withLock { $0.ended } && spool.size <= limit
    }

    /// Waits until the transfer ended (its whole body is in the spool, or it broke off).
    func ended() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.ended { return true }
                state.endWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// The first head (or failure) wins; later ones (the completed response's) are the same answer.
    private func resolve(_ head: Result<HTTPResponseHead, any Error>) {
        let waiters = state.withLock { state in
            guard state.head == nil else { return [CheckedContinuation<Result<HTTPResponseHead, any Error>, Never>]() }
            state.head = head
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: head) }
    }

    private func end() {
        let waiters = state.withLock { state in
            state.ended = true
            defer { state.endWaiters = [] }
            return state.endWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A continuation resumed by whichever of two events comes first.
private final class ResumeOnce: @unchecked Sendable {
    private let lock = PosixMutex<CheckedContinuation<Void, Never>?>(nil)

    init(_ continuation: CheckedContinuation<Void, Never>) { lock.withLock { $0 = continuation } }

    func resume() {
        lock.withLock { pending in
            pending?.resume()
            pending = nil
        }
    }
}
