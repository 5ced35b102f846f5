public import Foundation
import HTTPServer

/// One form field as logged.
public struct LoggedField: Sendable, Equatable {
    public let name: String
    public let value: String
}

/// One request either server received, for tests to assert on (where did the password go?).
public struct LoggedRequest: Sendable {
    public let method: String
    /// `127.0.0.1` (SharePoint), `127.0.0.2` (identity provider) or `127.0.0.3` (federated users' ADFS, `entra`
    /// mode only).
    public let host: String
    /// Decoded path.
    public let path: String
    /// Raw (encoded) query string.
    public let query: String
    public let headerNames: [String]
    /// Form fields (names and values) for `application/x-www-form-urlencoded` bodies.
    public let formFields: [LoggedField]
    /// Cookies the client sent.
    public let cookies: [String: String]
    /// Status the simulator answered.
    public let status: Int
    /// For `POST /_api/$batch`: how many operations (`application/http` parts) the batch carried; else 0.
    public var batchOperations: Int = 0
    /// When the simulator answered it.
    public var answeredAt = Date()
}

/// The request log tests read (`Simulator.requestLog()`).
extension SimulatorCore {
    /// Most request-log entries kept (the older half is dropped when full).
    static let logLimit = 100_000

    func record(_ request: HTTPServerRequest, status: Int) {
        let contentType = request.header("Content-Type")?.lowercased() ?? ""
        let fields =
            contentType.contains("x-www-form-urlencoded")
            ? request.formFields.map { LoggedField(name: $0.name, value: $0.value) } : []
        var entry = LoggedRequest(
            method: request.method, host: request.serverAddress, path: request.path, query: request.rawQuery,
            headerNames: request.headers.map(\.name), formFields: fields, cookies: request.cookies, status: status)
        if request.path.lowercased() == "/_api/$batch" { entry.batchOperations = BatchRequest.operationCount(request) }
        state.withLock { state in
            // Keep memory bounded on long benchmark runs: the newest entries win.
            if state.log.count >= SimulatorCore.logLimit { state.log.removeFirst(state.log.count / 2) }
            state.log.append(entry)
            state.countTowardsSessionEnd()
        }
    }
}
