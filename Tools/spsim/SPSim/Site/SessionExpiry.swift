import Foundation

/// Sessions ended on purpose, at once or after a number of requests (a session that expires in the middle of a
/// client's job, at a point a test chooses).
extension SimulatorState {
    /// Forgets every FedAuth / SPOIDCRL session and access token, and revokes the Entra tokens issued so far.
    mutating func endSessions() {
        sessions.removeAll()
        accessTokens.removeAll()
        entra.revokedTokenIds.formUnion(entra.issuedTokenIds)
    }

    /// Counts one answered request towards ``Simulator/expireSessions(afterRequests:)``; ends the sessions when
    /// the count is reached.
    mutating func countTowardsSessionEnd() {
        guard let left = sessionsEndAfterRequests else { return }
        if left <= 1 {
            sessionsEndAfterRequests = nil
            endSessions()
        } else {
            sessionsEndAfterRequests = left - 1
        }
    }
}

extension Simulator {
    /// Ends every session (as ``expireSessions()``) once `count` more requests have been answered, whichever
    /// host they reached: the request that makes the count is still answered with its session, the next one
    /// with an old cookie is refused.
    public func expireSessions(afterRequests count: Int) {
        core.state.withLock { $0.sessionsEndAfterRequests = max(1, count) }
    }
}
