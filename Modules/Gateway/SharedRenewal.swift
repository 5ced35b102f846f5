import Transport

/// The one renewal of a gateway's session, shared by every request that finds the session ended: the first starts
/// it, the others in flight at the same time wait for it, and a request refused with a session that was renewed
/// since it was sent is sent again without another sign-in. Safe to call from any task.
final class SharedRenewal: Sendable {
    private struct State {
        /// Successful renewals so far.
        var generation = 0
        var running: Task<Bool, Never>?
    }

    private let state = PosixMutex(State())
    private let renew: @Sendable () async throws -> Bool

    init(_ renew: @escaping @Sendable () async throws -> Bool) { self.renew = renew }

    /// The number of successful renewals so far: read before sending a request, handed to ``renewed(since:)``.
    var generation: Int { state.withLock { $0.generation } }

    /// Whether the session works again for a request sent at `generation`: true at once when it was renewed since,
    /// else the outcome of the renewal running now or of a new one.
    func renewed(since generation: Int) async -> Bool {
        let renewal: Task<Bool, Never>? = state.withLock { state in
            if state.generation != generation { return nil }
            if let running = state.running { return running }
            let started = Task { [renew] in (try? await renew()) == true }
            state.running = started
            return started
        }
        guard let renewal else { return true }
        let worked = await renewal.value
        state.withLock { state in
            // The first waiter back records the outcome once.
            guard state.running == renewal else { return }
            state.running = nil
            if worked { state.generation += 1 }
        }
        return worked
    }
}
