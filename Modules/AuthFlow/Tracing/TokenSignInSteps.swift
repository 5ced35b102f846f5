public import AuthFlowCore
import Foundation
public import Transport

/// The exchanges of a token sign-in (``AppOnlySignIn``, ``DeviceCodeSignIn``) as sign-in record steps: method,
/// host, status, what the request was for (`token`, `device code`, `tenant`, `proof`), the names of the form fields
/// sent, never a value. Fed from Transport's trace (``HTTPClient/Configuration/trace``), on its thread.
public final class TokenSignInSteps: Sendable {
    private let collected = PosixMutex<[SignInRecord.Step]>([])

    /// Creates an empty list.
    public init() {}

    /// Adds the exchange `record` describes.
    @Sendable public func add(_ record: TraceRecord) {
        let path = URLComponents(string: record.url)?.path.lowercased() ?? ""
        let purpose =
            path.hasSuffix("/oauth2/v2.0/token")
            ? "token"
            : path.hasSuffix("/devicecode") ? "device code" : path.hasSuffix("/client.svc") ? "tenant" : "proof"
        collected.withLock {
            $0.append(
                SignInRecord.Step(
                    step: $0.count, method: record.method, host: SignInRecord.Step.host(of: record.url),
                    purpose: purpose, status: record.status, fieldsSent: record.formFieldNames))
        }
    }

    /// The steps so far, in order.
    public var all: [SignInRecord.Step] { collected.withLock { $0 } }
}
