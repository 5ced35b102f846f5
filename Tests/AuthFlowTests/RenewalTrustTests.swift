import AuthFlow
import Foundation
import SPSim
import Synchronization
import Testing
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// A renewal saves the session it makes: when the store would refuse it (a folder others may now write), the
/// renewal refuses first, before the password is asked for or anything is sent.
@Suite struct RenewalTrustTests {
    final class Asked: Sendable {
        let count = Mutex(0)
    }

    @Test func aRenewalIntoAFolderOthersMayWriteIsRefusedBeforeThePasswordIsSent() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra))
        defer { simulator.stop() }
        guard let session = try await aliceSession(simulator) else { return }
        let directory = NSTemporaryDirectory() + "spconnect-renewal-trust-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SessionStore(directory: directory)
        try store.save(session, profile: "p")
        let client = try HTTPClient()
        let saved = try #require(try store.load(profile: "p"))
        try saved.install(into: client)
        simulator.expireSessions()
        let asked = Asked()
        let renewer = SessionReauthenticator(
            client: client, session: saved, store: store, profile: "p",
            password: {
                asked.count.withLock { $0 += 1 }
                return Secret(SimulatorSignInTests.password)
            })
        chmod(directory, 0o777)
        do {
            _ = try await renewer.reauthenticate()
            Issue.record("the renewal ran")
        } catch let error as SessionStore.StoreError {
            #expect(error.description.contains("chmod 700"), "\(error.description)")
        }
        #expect(asked.count.withLock { $0 } == 0, "the password was asked for")
        #expect(simulator.passwordSignIns(for: "alice@contoso.test") == 1, "only the first sign-in posted it")
        #expect(await renewer.renewals == 0)
    }
}
