public import AuthFlowCore
import Foundation
public import Transport

/// A `--trace` file: created with mode 0600, one JSON line per step of a sign-in, written as it goes. What it
/// writes holds names, never values: no password, code, cookie value, token, assertion or key.
public final class SignInTraceFile: Sendable {
    private let handle: FileHandle

    /// Creates (or empties) the file at `path`.
    public init(path: String) throws(SignInTraceFileError) {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw SignInTraceFileError(path: path) }
        self.handle = handle
    }

    /// One step of a browser-like sign-in (``SignIn/Options/trace``).
    @Sendable public func write(_ step: SignInTraceStep) {
        writeLine(step.jsonLine)
    }

    /// One exchange of a token sign-in: method, URL (query values redacted), status, the request's header names and
    /// form field names.
    @Sendable public func write(_ record: TraceRecord) {
        let line: [String: Any] = [
            "method": record.method, "url": record.url, "status": record.status ?? 0, "attempt": record.attempt,
            "requestHeaders": record.requestHeaders.map(\.name), "formFields": record.formFieldNames,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
        writeLine(String(decoding: data, as: UTF8.self))
    }

    private func writeLine(_ line: String) {
        handle.write(Data((line + "\n").utf8))
    }
}

/// A trace file that could not be created.
public struct SignInTraceFileError: Error, Sendable, CustomStringConvertible {
    /// The path asked for.
    public let path: String
    /// `cannot write the trace file PATH`.
    public var description: String { "cannot write the trace file \(path)" }
}
