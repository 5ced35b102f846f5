import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A server's request budget, spent at the pace it allows by every client that names the same file, in this
/// process or another: the `--parallel` workers of one job and the jobs of one profile.
///
/// Until the server states its budget (``RateLimitHeaders``) requests go at once. From the first answer that states
/// it, each request reserves its cost (``HTTPClient/Configuration/requestCost``) in the shared ledger and waits for
/// its slot, so the units left in a window are spread over the time left in it (``RateBudgetLedger``). A job then
/// receives no 429 once the server has named its budget, and spends the budget at the rate the server allows.
///
/// The file holds one line of ASCII (``RateBudgetLedger/line``), changed under an exclusive `flock` by one client
/// at a time. It is 0600; one that is not a regular file owned by the user, a symbolic link, a line that does not
/// parse (a write cut short) or a ledger older than a day is ignored, so a stray file can only make requests wait
/// as long as one window. Only requests to the origin that stated the budget are paced.
public final class SharedRateBudget: Sendable {
    /// The file shared by the clients that pace together.
    public let path: String
    /// Units this process has sent and not yet had answered (the server may not have counted them yet).
    private let unitsInFlight = Atomic<Int>(0)

    /// Clients sharing `path` pace together; its folder must exist and be the user's own.
    public init(path: String) {
        self.path = path
    }

    /// Waits for the slot of a request of `units` to `url`, and returns the units reserved (0 when the request is
    /// not paced: no budget known for its origin). Give them back with ``answered(units:headers:url:)``.
    func waitForSlot(units: Int, url: String) async throws(TransportError) -> Int {
        let reserved = max(1, units)
        unitsInFlight.add(reserved, ordering: .relaxed)
        guard let origin = CurlURL(url)?.origin else { return reserved }
        // A process kept from running past its window's end (a loaded machine) would send in the next window, which
        // the ledger has promised whole to others: it reserves again there (the units it held stay spent).
        while let (sendAt, windowEnd) = reserve(reserved, origin: origin, now: Self.now()) {
            let wait = sendAt - Self.now()
            if wait > 0 {
                do {
                    try await Task.sleep(for: .milliseconds(wait))
                } catch {
                    unitsInFlight.subtract(reserved, ordering: .relaxed)
                    throw .cancelled(url)
                }
            }
            if Self.now() < windowEnd { break }
        }
        return reserved
    }

    /// Takes in an answer to a request that reserved `units`: its `RateLimit` headers, when it has them, correct or
    /// start the shared ledger.
    func answered(units: Int, headers: HTTPHeaders, url: String) {
        let inFlight = unitsInFlight.subtract(units, ordering: .relaxed).newValue
        guard let stated = RateLimitHeaders(headers), let origin = CurlURL(url)?.origin else { return }
        let now = Self.now()
        update(creating: true) { ledger in
            if var known = ledger, known.origin == origin, known.isCurrent(at: now) {
                known.observe(stated, at: now, unitsInFlight: inFlight)
                ledger = known
            } else {
                ledger = RateBudgetLedger(origin: origin, first: stated, at: now, unitsInFlight: inFlight)
            }
        }
    }

    /// When a request of `units` to `origin` may go, reserved in the ledger, and the last moment it may still go in
    /// the window it was reserved in; nil when the ledger does not pace it.
    func reserve(_ units: Int, origin: String, now: Int64) -> (slot: Int64, windowEnd: Int64)? {
        var reserved: (slot: Int64, windowEnd: Int64)?
        update(creating: false) { ledger in
            guard var known = ledger, known.origin == origin, known.isCurrent(at: now) else { return }
            let slot = known.reserve(units, now: now)
            reserved = (slot, known.sendingEnd)
            ledger = known
        }
        return reserved
    }

    /// The ledger in the file now (nil when there is none or it is not to be trusted), for tests and reports.
    public func currentLedgerLine() -> String? {
        var line: String?
        update(creating: false) { line = $0?.line }
        return line
    }

    /// Runs `change` on the file's ledger under the file's lock and writes the result back when it changed.
    private func update(creating: Bool, _ change: (inout RateBudgetLedger?) -> Void) {
        let flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | (creating ? O_CREAT : 0)
        let descriptor = open(path, flags, 0o600)
        guard descriptor >= 0 else { return }
        // Closing releases the lock; a close error after a write is a ledger the next reader rejects or repeats.
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
            status.st_mode & 0o077 == 0, flock(descriptor, LOCK_EX) == 0
        else { return }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        let before =
            count > 0
            ? String(bytes: buffer.prefix(count), encoding: .ascii).flatMap(RateBudgetLedger.init(line:)) : nil
        var after = before
        change(&after)
        guard let after, after != before else { return }
        let bytes = Array(after.line.utf8)
        guard ftruncate(descriptor, 0) == 0 else { return }
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Wall-clock time in Unix milliseconds (the file is shared between processes, so no process's own clock).
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
