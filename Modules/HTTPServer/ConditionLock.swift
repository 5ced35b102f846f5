#if canImport(Glibc)
    internal import Glibc
#endif

/// A pthread mutex and condition variable owned by one Swift object (allocated, so their addresses never move):
/// what the server's stop needs to wait for its last handler, and what a handler whose stream body waits for bytes
/// still on their way (a proxy passing an answer on) waits with. Not `Synchronization.Mutex`, which has no condition
/// variable; named apart from it so neither shadows the other.
///
/// Thread-safety: every method may be called from any thread; `withLock` is not reentrant.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        // With default attributes these fail only for want of memory, which nothing here could recover from.
        let mutexResult = pthread_mutex_init(mutex, nil)
        precondition(mutexResult == 0, "pthread_mutex_init failed: \(mutexResult)")
        let conditionResult = pthread_cond_init(condition, nil)
        precondition(conditionResult == 0, "pthread_cond_init failed: \(conditionResult)")
    }

    deinit {
        // Destroying an unused, unlocked mutex and condition cannot fail; nothing could be done about it in deinit.
        _ = pthread_cond_destroy(condition)
        _ = pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits, lock held while `ready` is evaluated, until `ready` is true (wake waiters with `broadcast()`).
    public func waitUntil(_ ready: () -> Bool) {
        lock()
        defer { unlock() }
        while !ready() {
            // Returns 0, or EINVAL/EPERM only for a mutex not held by this thread, which `lock()` just took.
            _ = pthread_cond_wait(condition, mutex)
        }
    }

    /// Wakes every `waitUntil`.
    public func broadcast() {
        lock()
        defer { unlock() }
        // Cannot fail on an initialised condition.
        _ = pthread_cond_broadcast(condition)
    }

    /// A default mutex fails to lock or unlock only on a programming error (relocking, unlocking another's lock).
    private func lock() {
        let result = pthread_mutex_lock(mutex)
        assert(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    private func unlock() {
        let result = pthread_mutex_unlock(mutex)
        assert(result == 0, "pthread_mutex_unlock failed: \(result)")
    }
}
