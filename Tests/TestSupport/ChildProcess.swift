public import Foundation
public import Testing

// Helpers shared by the test targets (a test-only library: no module imports it).

/// Runs the command `process` describes (executable, arguments, environment, and its standard input, output and
/// error when they are file handles or pipes) to its end and returns its exit status, suspending without holding a
/// thread of the cooperative pool. The child is started with posix_spawn (``spawnToExit``'s way), not
/// `Process.run()`: in this toolchain `Process.run()` crashes now and then (a bad pointer in its memcpy) when the
/// test process holds many descriptors, as a full run with its simulators does. `process` itself is never run.
@discardableResult
public func runToExit(_ process: Process) async throws -> Int32 {
    guard let executable = process.executableURL?.path else {
        throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "no executable to run"])
    }
    func descriptor(_ stream: Any?, reading: Bool) -> Int32? {
        switch stream {
        case let handle as FileHandle: return handle.fileDescriptor
        case let pipe as Pipe:
            return reading ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        default: return nil
        }
    }
    return await spawnToExit(
        executable, process.arguments ?? [], environment: process.environment ?? ProcessInfo.processInfo.environment,
        descriptors: (
            descriptor(process.standardInput, reading: true), descriptor(process.standardOutput, reading: false),
            descriptor(process.standardError, reading: false)
        ))
}

/// Runs `process` to exit like `runToExit` and returns its standard output, collected in a temporary file (a pipe
/// read only after the exit could fill up and deadlock the child), and its exit status.
public func runCollectingOutput(_ process: Process) async throws -> (output: Data, status: Int32) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("child-out-\(UUID().uuidString)").path
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? output.close() }
    process.standardOutput = output
    let status = try await runToExit(process)
    return (FileManager.default.contents(atPath: path) ?? Data(), status)
}

/// A counting semaphore for tasks: waiters suspend instead of blocking a thread.
public actor AsyncGate {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(_ limit: Int) { free = limit }

    public func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    public func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// Limits how many of the tests it marks run at once; waiting holds no thread. Every use of one named limit
/// (`.childProcesses`, `.portNumbers`) shares one gate.
public struct ConcurrencyLimit: SuiteTrait, TestTrait, TestScoping {
    let gate: AsyncGate

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }  // a suite itself holds no slot
        await gate.acquire()
        do {
            try await function()
        } catch {
            await gate.release()
            throw error
        }
        await gate.release()
    }

    /// At most two at a time: each drives a simulator and a chain of curl processes. Before the helpers were async,
    /// a blocked pool thread capped these at two by accident; the cap keeps that load bounded (the 1-second cookie
    /// lifetime test needs its requests to come promptly).
    static let childProcesses = ConcurrencyLimit(gate: AsyncGate(2))

    /// One at a time: a test that listens on every address (`0.0.0.0`, port 0) may be given any free port number,
    /// including one another test has just freed and is about to bind again on purpose.
    static let portNumbers = ConcurrencyLimit(gate: AsyncGate(1))
}

extension Trait where Self == ConcurrencyLimit {
    /// See ``ConcurrencyLimit/childProcesses``.
    public static var childProcesses: Self { ConcurrencyLimit.childProcesses }

    /// See ``ConcurrencyLimit/portNumbers``.
    public static var portNumbers: Self { ConcurrencyLimit.portNumbers }
}
