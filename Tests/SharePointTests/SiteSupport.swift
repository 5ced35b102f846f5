import Foundation
import SPSim
import SharePoint
import Synchronization
import TestSupport
import Testing
import Transport

/// A simulator, a Transport session and a site client bound to it. Stop the simulator when done.
struct SiteFixture {
    let sim: Simulator
    let client: HTTPClient
    let site: SharePointSite

    /// Starts a simulator. `.basic` signs in with alice's credentials on every request; cookie modes start
    /// signed out unless `signIn` (FBA SOAP login through the client's jar).
    init(
        mode: SignInMode = .anonymous, flavor: ODataFlavor = .noMetadata, items: Int = 0,
        faults: FaultSpec = FaultSpec(), readRetry: RetryPolicy = RetryPolicy(maxAttempts: 3),
        writeRetry: RetryPolicy = RetryPolicy(maxAttempts: 3), reauthenticate: SharePointSite.Reauthentication? = nil,
        digestRefreshMargin: Duration = .seconds(60)
    ) throws {
        sim = try Simulator(SimulatorOptions(mode: mode, items: items, faults: faults))
        client = try HTTPClient()
        site = SharePointSite(
            client: client, siteURL: sim.siteURL + "/", flavor: flavor,
            authentication: mode == .basic ? .basic(user: aliceEmail, password: Secret(alicePassword)) : nil,
            reauthenticate: reauthenticate, readRetry: readRetry, writeRetry: writeRetry,
            digestRefreshMargin: digestRefreshMargin)
    }

    /// Requests whose decoded path contains `fragment` (case-insensitive), in order.
    func logged(_ fragment: String, method: String? = nil) -> [LoggedRequest] {
        sim.requestLog().filter {
            $0.path.lowercased().contains(fragment.lowercased()) && (method == nil || $0.method == method)
        }
    }

}

/// Signs in again with the FBA SOAP service (`/_vti_bin/authentication.asmx`), putting a new FedAuth into the
/// client's jar: what AuthFlow does for real, done here with Transport alone.
final class SOAPReauthenticator: Sendable {
    let client: HTTPClient
    let siteURL: String
    let password: String
    /// Answer true even when the login was refused (to test the second failure).
    let claimSuccess: Bool
    /// Throw instead of signing in.
    let fail: Bool
    private let count = Mutex(0)

    init(
        client: HTTPClient, siteURL: String, password: String = alicePassword, claimSuccess: Bool = false,
        fail: Bool = false
    ) {
        self.client = client
        self.siteURL = siteURL
        self.password = password
        self.claimSuccess = claimSuccess
        self.fail = fail
    }

    var calls: Int { count.withLock { $0 } }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "the identity provider is unreachable" }
    }

    func reauthenticate() async throws -> Bool {
        count.withLock { $0 += 1 }
        if fail { throw Refused() }
        return try await Self.login(client: client, siteURL: siteURL, password: password) || claimSuccess
    }

    /// One SOAP `Login` (``formsSignIn(client:siteURL:user:password:)``); true when it worked.
    static func login(client: HTTPClient, siteURL: String, user: String = "alice", password: String = alicePassword)
        async throws -> Bool
    {
        try await formsSignIn(client: client, siteURL: siteURL, user: user, password: password)
    }
}

/// Collects progress reports from Transport's thread.
final class ProgressLog: Sendable {
    private let values = Mutex<[FileProgress]>([])

    var all: [FileProgress] { values.withLock { $0 } }

    func record(_ value: FileProgress) { values.withLock { $0.append(value) } }

    /// Whether completed bytes never go backwards.
    var isMonotonic: Bool {
        let list = all
        return zip(list, list.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes }
    }
}

/// Reads the error thrown by `body`, failing the test when it throws something else or nothing.
func sharePointError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async
    -> SharePointError?
{
    do {
        try await body()
        Issue.record("expected a SharePointError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as SharePointError {
        return error
    } catch {
        Issue.record("expected a SharePointError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// The size of the biggest `.part` file in `folder` (a download in progress), 0 when there is none.
func partialDownloadBytes(in folder: String) -> Int64 {
    let partial = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasSuffix(".part") } ?? []
    return partial.compactMap {
        (try? FileManager.default.attributesOfItem(atPath: folder + "/" + $0))?[.size] as? Int64
    }.max() ?? 0
}

/// The offset of the first byte where the file at `path` differs from what the simulator serves for
/// `serverRelativeURL` (read back range by range from the simulator's generator, 1 MiB at a time, so neither
/// side is held whole), or nil when both are the same length and byte-identical.
func firstDifference(ofFile path: String, from sim: Simulator, serverRelativeURL: String) throws -> Int? {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let chunk = 1 << 20
    var offset = 0
    while true {
        let local = [UInt8](try handle.read(upToCount: chunk) ?? Data())
        guard let expected = sim.fileBytes(serverRelativeURL: serverRelativeURL, offset: offset, count: chunk) else {
            return offset
        }
        if local != expected {
            let mismatch = zip(local, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            return offset + (mismatch ?? min(local.count, expected.count))
        }
        if local.isEmpty { return nil }
        offset += local.count
    }
}
