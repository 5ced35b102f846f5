import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on one profile's renewals (`PROFILE.lock` beside the session file, `flock`): processes that
/// find the same session expired at once take turns, so one signs in and the others read its result. Released
/// when the value is dropped or the process ends (the kernel releases a `flock` with its descriptor).
final class RenewalLock {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        // Unlocking cannot fail on an open descriptor we hold; closing releases the lock in any case.
        _ = flock(descriptor, LOCK_UN)
        // Nothing was written through the descriptor, so its close has nothing to report.
        _ = close(descriptor)
    }

    /// Takes the lock of `profile` in `store`, waiting (without blocking a thread) up to `timeout`; nil when it
    /// could not be taken in time or the lock file cannot be used (the renewal then goes on unlocked, as before).
    static func acquire(profile: String, in store: SessionStore, timeout: Duration = .seconds(150)) async
        -> RenewalLock?
    {
        guard let session = try? store.path(for: profile), (try? store.makeDirectory()) != nil else { return nil }
        let path = String(session.dropLast(".cookies".count)) + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_uid == geteuid(), status.st_mode & S_IFMT == S_IFREG else {
            // Never locked nor written: the close has nothing to report, and the renewal goes on unlocked.
            _ = close(descriptor)
            return nil
        }
        let started = ContinuousClock.now
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now - started < timeout else {
                // Never locked nor written: the close has nothing to report, and the renewal goes on unlocked.
                _ = close(descriptor)
                return nil
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return RenewalLock(descriptor: descriptor)
    }
}
