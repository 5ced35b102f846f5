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

/// Runs `process` to exit like `runToExit` and returns its standard output, collected in a temporary file (a pipe
/// read only after the exit could fill up and deadlock the child).
func runCollectingOutput(_ process: Process) async throws -> Data {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("child-out-\(UUID().uuidString)").path
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? output.close() }
    process.standardOutput = output
    try await runToExit(process)
    return FileManager.default.contents(atPath: path) ?? Data()
}
