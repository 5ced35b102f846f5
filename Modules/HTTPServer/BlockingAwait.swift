import Dispatch

/// Runs async work from a thread that is not the cooperative pool's (an HTTP server's connection thread) and waits
/// for it: the status app's pages and the gateway's requests.
///
/// The work runs at `.userInitiated`, ahead of the process's work at the default priority: a thread (and a client
/// behind it) is blocked until it ends. At the default priority it queued behind whatever the two-thread pool held
/// (under the test suite's load a gateway request waited more than 30 s); each priority has threads of its own.
package func blockingAwait<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let box = AwaitedValue<T>()
    let done = DispatchSemaphore(value: 0)
    Task(priority: .userInitiated) {
        box.value = await operation()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// The value, written by the task before it signals and read after the wait.
private final class AwaitedValue<T>: @unchecked Sendable {
    var value: T?
}
