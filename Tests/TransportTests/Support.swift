import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

@testable import Transport

/// A server on `address` that records every request and answers 200 `text/plain` with `text(request)`.
func recordingServer(
    address: String = "127.0.0.1", _ text: @escaping @Sendable (HTTPServerRequest) -> String
) throws -> (server: HTTPServer, recorder: Recorder) {
    let recorder = Recorder()
    let server = try HTTPServer(address: address) { request in
        recorder.record(request)
        return HTTPServerResponse(status: 200, contentType: "text/plain", text: text(request))
    }
    return (server, recorder)
}

/// Requests a test server saw, in order (handlers run on connection threads).
final class Recorder: Sendable {
    private let stored = Mutex<[HTTPServerRequest]>([])

    func record(_ request: HTTPServerRequest) {
        stored.withLock { $0.append(request) }
    }

    var requests: [HTTPServerRequest] { stored.withLock { $0 } }

    var count: Int { requests.count }
}

/// A thread-safe list of values collected from callbacks.
final class Collected<Value: Sendable>: Sendable {
    private let stored = Mutex<[Value]>([])

    func append(_ value: Value) {
        stored.withLock { $0.append(value) }
    }

    var values: [Value] { stored.withLock { $0 } }
}

/// A flag shared with busy threads.
final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// Runs `body` and returns its error as a `TransportError`, or records an issue when it did not throw one.
func transportError(
    _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> TransportError? {
    do {
        try await body()
        Issue.record("expected a TransportError, got success", sourceLocation: sourceLocation)
    } catch let error as TransportError {
        return error
    } catch {
        Issue.record("expected a TransportError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A client that never retries unless a test asks for it, so failures show up at once.
func makeClient(_ configure: (inout HTTPClient.Configuration) -> Void = { _ in }) throws -> HTTPClient {
    var configuration = HTTPClient.Configuration(retry: .never)
    configure(&configuration)
    return try HTTPClient(configuration: configuration)
}

/// Runs a program and returns its stdout and exit status; suspends, without blocking a thread, while it runs.
func run(_ executable: String, _ arguments: [String]) async throws -> (output: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    let run = try await runCollectingOutput(process)
    return (String(decoding: run.output, as: UTF8.self), run.status)
}
