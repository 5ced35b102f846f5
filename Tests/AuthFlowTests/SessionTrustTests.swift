import AuthFlow
import Foundation
import Testing
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Sessions are read only from a folder no one else may write and from regular files of the user's own with mode
/// 0600: another local user who could plant a session naming their server would receive the password at the next
/// renewal.
@Suite struct SessionTrustTests {
    let directory = NSTemporaryDirectory() + "spconnect-trust-\(UUID().uuidString)/sessions"

    func session() -> Session {
        Session(
            siteURL: "https://contoso.test", user: "alice@contoso.test", displayName: nil, flow: "entra",
            provedAt: Date(), cookies: [Cookie(name: "FedAuth", value: "cookie-value", domain: "contoso.test")])
    }

    func expectUntrusted(
        _ store: SessionStore, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try store.load(profile: "default")
            Issue.record("the session was read", sourceLocation: sourceLocation)
        } catch {
            guard case .untrusted = error else {
                Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(error.description.contains(fragment), "\(error.description)", sourceLocation: sourceLocation)
        }
    }

    @Test func theFolderIsCreated0700AndAWorldWritableOneIsRefusedWithTheFix() throws {
        let store = SessionStore(directory: directory)
        try store.save(session(), profile: "default")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        chmod(directory, 0o777)
        expectUntrusted(store, containing: "chmod 700")
        #expect(throws: SessionStore.StoreError.self) { try store.save(session(), profile: "default") }
        chmod(directory, 0o700)
        #expect(try store.load(profile: "default")?.user == "alice@contoso.test")
    }

    @Test func aFileOthersMayReadIsRefused() throws {
        let store = SessionStore(directory: directory)
        try store.save(session(), profile: "default")
        chmod(try store.path(for: "default"), 0o644)
        expectUntrusted(store, containing: "0644")
    }

    @Test func aSymbolicLinkIsNeverFollowed() throws {
        let store = SessionStore(directory: directory)
        try store.save(session(), profile: "elsewhere")
        try FileManager.default.createSymbolicLink(
            atPath: try store.path(for: "default"), withDestinationPath: try store.path(for: "elsewhere"))
        expectUntrusted(store, containing: "symbolic link")
        // The sign-in record beside it follows the same rules.
        let record = try store.lastSignInPath(for: "default")
        try FileManager.default.createSymbolicLink(atPath: record, withDestinationPath: "/etc/hostname")
        #expect(throws: SessionStore.StoreError.self) { _ = try store.lastSignIn(profile: "default") }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func aFileOfAnotherUserIsRefused() throws {
        let store = SessionStore(directory: directory)
        try store.save(session(), profile: "default")
        chown(try store.path(for: "default"), 65534, 65534)
        expectUntrusted(store, containing: "uid 65534")
    }

    /// A save removes what an interrupted save of the same file left (a temporary file older than a minute), and
    /// keeps a fresh one, which may belong to a save running beside it.
    @Test func staleTemporaryFilesOfOursAreCleanedOnTheNextSave() throws {
        let store = SessionStore(directory: directory)
        try store.save(session(), profile: "default")
        let path = try store.path(for: "default")
        let stale = path + ".tmp-AbC123"
        let fresh = path + ".tmp-XyZ789"
        for name in [stale, fresh] {
            #expect(FileManager.default.createFile(atPath: name, contents: Data("FedAuth\tcookie".utf8)))
        }
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, stale, &times, 0) == 0)
        try store.save(session(), profile: "default")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }
}
