#if canImport(Glibc)
    internal import Glibc
#endif

/// A pthread mutex holding the state it guards, for state shared with the curl-multi thread.
///
/// Everywhere else the package uses `Synchronization.Mutex` (decision 0009). On Linux that mutex waits with raw
/// `futex` calls, which ThreadSanitizer does not intercept: it then sees the guarded accesses of two threads as a
/// race and CI's sanitizer run fails. This one uses `pthread_mutex_*`, which ThreadSanitizer understands, and is
/// kept to the hand-over between tasks and the transfer thread (``MultiLoop``) and what that thread's callbacks
/// append to. Heap-allocated, so the mutex never moves; not reentrant.
package final class PosixMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A mutex guarding `value`.
    package init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // With default attributes pthread_mutex_init only fails for want of memory (EAGAIN, ENOMEM).
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        // Destroying an unlocked default mutex cannot fail; a deinit has nobody to tell.
        _ = pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the guarded value, the mutex held.
    package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        // Locking a valid default mutex only fails on EDEADLK-style misuse, which this type never does.
        _ = pthread_mutex_lock(mutex)
        defer { _ = pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
