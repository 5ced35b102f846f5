import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pause shared by every client that names the same file, in this process or another: when one is throttled
/// (429 or 503 with the wait its ``RetryPolicy`` chose), the deadline goes into the file, and every request of every
/// client sharing it waits until the deadline has passed before it is sent. Many jobs on one account (one per site,
/// run by GNU parallel) then back off together instead of each spending its own attempts against a server that
/// already said to slow down.
///
/// The file holds the deadline as Unix milliseconds in ASCII. It is written atomically (a temporary file beside it,
/// then a rename), 0600; one that is not a regular file owned by the user, or that names a deadline further than
/// the policy's `maxRetryAfter` ahead, is ignored, so a stray file can delay a request by no more than a server could.
public struct SharedBackoff: Sendable {
    /// The file shared by the clients that back off together.
    public let path: String

    /// Clients sharing `path` back off together; its folder must exist and be the user's own.
    public init(path: String) {
        self.path = path
    }

    /// Waits until the shared deadline has passed (at most `cap`) before `url` is sent; returns at once when there
    /// is none.
    func waitIfPaused(cap: Duration, before url: String) async throws(TransportError) {
        guard let wait = wait(at: Date(), cap: cap) else { return }
        do {
            try await Task.sleep(for: wait)
        } catch {
            throw .cancelled(url)
        }
    }

    /// How long a request waits at `now`: nil when the file names no deadline, one that passed, or one further than
    /// `cap` ahead. No server asks for more than `cap`, so such a file is not to be trusted: a stray one, or one
    /// written before this machine's clock was set back (each request would wait the whole cap, a job for hours).
    func wait(at now: Date, cap: Duration) -> Duration? {
        guard let deadline = readDeadline() else { return nil }
        let remaining = Duration.milliseconds(Int64((deadline.timeIntervalSince(now) * 1000).rounded(.up)))
        guard remaining > .zero, remaining <= cap else { return nil }
        return remaining
    }

    /// Moves the shared deadline to `wait` from now, unless it is already later.
    func pause(for wait: Duration) {
        let (seconds, attoseconds) = wait.components
        let deadline = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        if let current = readDeadline(), current >= deadline { return }
        write(Int64(deadline.timeIntervalSince1970 * 1000))
    }

    /// The deadline in the file, nil when there is none or the file is not to be trusted.
    func readDeadline() -> Date? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        // Read-only: the close has nothing to report.
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let text = String(bytes: buffer.prefix(count), encoding: .ascii),
            let milliseconds = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Replaces the file with `milliseconds`; a failure leaves the old file (the pause is then this client's only).
    private func write(_ milliseconds: Int64) {
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let bytes = Array("\(milliseconds)\n".utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard close(descriptor) == 0, written == bytes.count, rename(temporary, path) == 0 else {
            _ = unlink(temporary)
            return
        }
    }
}
