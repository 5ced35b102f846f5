import Foundation

/// Starts `process` and suspends until it exits, without holding a thread of the cooperative pool meanwhile
/// (`waitUntilExit()` would block one of its few threads and stall unrelated tests running in parallel).
func runToExit(_ process: Process) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        process.terminationHandler = { _ in continuation.resume() }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
}
