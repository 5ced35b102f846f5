import Foundation

extension RetryPolicy {
    /// How long to wait before sending `request` again after attempt `attempt` ended in `outcome`, or nil when the
    /// outcome stands (returned or thrown). The rules are the type's: which failures and statuses, for which
    /// methods, and `Retry-After` up to ``maxRetryAfter``.
    func wait(after outcome: TransferOutcome, of request: HTTPRequest, attempt: Int, now: Date = Date()) -> Duration? {
        guard attempt < maxAttempts else { return nil }
        let repeatable = request.isIdempotent || retryNonIdempotent
        if let error = outcome.error {
            if error.kind == .connect {
                // Nothing reached the server: safe for any method the policy allows.
                guard repeatable, attempt < min(maxAttempts, maxConnectAttempts) else { return nil }
            } else if error.kind == .network || error.kind == .timeout {
                // The request may have reached the server and been carried out.
                guard request.isIdempotent else { return nil }
            } else {
                return nil
            }
            return backoff(afterAttempt: attempt)
        }
        guard
            statuses.contains(outcome.status) && repeatable
                || transientStatuses.contains(outcome.status) && request.isIdempotent
        else { return nil }
        // Throttled requests still count against the caller, so never again at once: a `Retry-After` of zero or in
        // the past waits the back-off instead.
        let backoff = backoff(afterAttempt: attempt)
        let retryAfter = outcome.headers.last { $0.name.lowercased() == "retry-after" }?.value
        let wait = max(HTTPClient.retryAfter(retryAfter, now: now) ?? backoff, backoff)
        return wait <= maxRetryAfter ? wait : nil
    }
}
