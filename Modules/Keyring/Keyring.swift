internal import CSecretShims
import Foundation
package import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Passwords in the desktop's Secret Service keyring (gnome-keyring, KeePassXC, KWallet) through libsecret, under
/// SPConnect's own schema, so entries of other applications never match. Each call runs libsecret's synchronous
/// API on a thread of its own (never the cooperative pool) and is cancelled after ``timeout``: a locked keyring may
/// put up an unlock prompt, and on a machine with no one at the screen nothing would ever answer it.
///
/// A plain value: safe to share across threads; calls may run at once.
package struct Keyring: Sendable {
    /// How long one call may take, an unlock prompt included, before it is cancelled.
    package var timeout: Duration
    /// Whether the service may be asked to unlock a locked keyring, which puts up a prompt on the screen. When false,
    /// a locked keyring is ``KeyringError/locked(detail:)`` at once.
    package var allowsUnlockPrompt: Bool

    /// A keyring client whose calls end after `timeout`; by default it lets the service prompt to unlock only when
    /// there is a screen to prompt on (`DISPLAY` or `WAYLAND_DISPLAY` set).
    package init(timeout: Duration = .seconds(60), allowsUnlockPrompt: Bool = Keyring.hasDisplay()) {
        self.timeout = timeout
        self.allowsUnlockPrompt = allowsUnlockPrompt
    }

    /// A keyring client whose calls end after `SPCONNECT_KEYRING_TIMEOUT` seconds in `environment` (default 60: time
    /// to answer an unlock prompt on a desktop; a prompt nobody can answer is cancelled then), for both apps.
    package init(environment: [String: String]) {
        let seconds = environment["SPCONNECT_KEYRING_TIMEOUT"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        self.init(timeout: .milliseconds(Int((seconds ?? 60) * 1000)))
    }

    /// Whether this process has a graphical session to show a prompt in (`DISPLAY` or `WAYLAND_DISPLAY`).
    package static func hasDisplay() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// Whether a session bus is configured at all: `DBUS_SESSION_BUS_ADDRESS`, or the per-user bus socket in
    /// `XDG_RUNTIME_DIR` that GLib also finds by itself. Without one no call is made (GLib would otherwise try to
    /// start a bus of its own through X11).
    package static func hasSessionBus() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var status = stat()
        return stat(runtime + "/bus", &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Succeeds when a Secret Service answers on the session bus (a session is opened with it; nothing is stored).
    package func checkAvailable() async throws(KeyringError) {
        try await call(for: nil) { _, timeout, message in spc_keyring_probe(timeout, &message) }
    }

    /// Stores `password` for `entry` in the default collection, replacing the entry's earlier password.
    package func store(_ password: Secret, for entry: KeyringEntry) async throws(KeyringError) {
        try await call(for: entry) { prompt, timeout, message in
            spc_keyring_store(
                entry.origin, entry.user, entry.label, password.revealedValue(), prompt, timeout, &message)
        }
    }

    /// The password stored for `entry`; ``KeyringError/notFound(_:)`` when there is none.
    package func password(for entry: KeyringEntry) async throws(KeyringError) -> Secret {
        let box = PasswordBox()
        try await call(for: entry) { prompt, timeout, message in
            Self.lookup(entry, prompt, timeout, &message, into: box)
        }
        guard let password = box.value else { throw .notFound(entry) }
        return password
    }

    /// Removes the password stored for `entry`; false when there was none.
    @discardableResult
    package func remove(_ entry: KeyringEntry) async throws(KeyringError) -> Bool {
        do {
            try await call(for: entry) { prompt, timeout, message in
                spc_keyring_clear(entry.origin, entry.user, prompt, timeout, &message)
            }
            return true
        } catch .notFound {
            return false
        }
    }

    /// The password stored for `entry`, looked up on the calling thread, which waits up to ``timeout``: for
    /// synchronous callers that are not on the cooperative pool's threads. Async code uses ``password(for:)``.
    package func blockingPassword(for entry: KeyringEntry) throws(KeyringError) -> Secret {
        let box = PasswordBox()
        try performBounded(for: entry) { prompt, timeout, message in
            Self.lookup(entry, prompt, timeout, &message, into: box)
        }
        guard let password = box.value else { throw .notFound(entry) }
        return password
    }

    private static func lookup(
        _ entry: KeyringEntry, _ prompt: Int32, _ timeout: Int32, _ message: inout UnsafeMutablePointer<CChar>?,
        into box: PasswordBox
    ) -> spc_keyring_status {
        var found: UnsafeMutablePointer<CChar>? = nil
        let status = spc_keyring_lookup(entry.origin, entry.user, prompt, timeout, &found, &message)
        if let found {
            box.value = Secret(String(cString: found))
            spc_keyring_free_password(found)
        }
        return status
    }

    /// Runs ``performBounded(for:_:)`` on a thread of its own, so the cooperative pool never waits on libsecret.
    private func call(
        for entry: KeyringEntry?,
        _ body: @escaping @Sendable (Int32, Int32, inout UnsafeMutablePointer<CChar>?) -> spc_keyring_status
    ) async throws(KeyringError) {
        let result: Result<Void, KeyringError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                do throws(KeyringError) {
                    try performBounded(for: entry, body)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    /// Runs ``perform(for:_:)`` on a thread of its own and waits for it at most ``timeout`` and a little more. The
    /// shim cancels the call at ``timeout``, but libsecret 0.20 does not always finish a call cancelled during a
    /// prompt (`g_task_return_error: assertion 'error != NULL' failed`, and its loop waits for ever): such a call
    /// is left behind on its thread, and this answers ``KeyringError/timedOut(seconds:)``.
    private func performBounded(
        for entry: KeyringEntry?,
        _ body: @escaping @Sendable (Int32, Int32, inout UnsafeMutablePointer<CChar>?) -> spc_keyring_status
    ) throws(KeyringError) {
        let slot = CallSlot()
        Thread.detachNewThread {
            do throws(KeyringError) {
                try perform(for: entry, body)
                slot.finish(.success(()))
            } catch {
                slot.finish(.failure(error))
            }
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        guard let result = slot.wait(until: Date(timeIntervalSinceNow: seconds + 2)) else {
            throw .timedOut(seconds: max(1, Int(seconds.rounded())))
        }
        try result.get()
    }

    /// Runs one libsecret call on this thread, after the session-bus check, and maps its status (a missing `entry`
    /// is ``KeyringError/notFound(_:)``).
    private func perform(
        for entry: KeyringEntry?, _ body: (Int32, Int32, inout UnsafeMutablePointer<CChar>?) -> spc_keyring_status
    ) throws(KeyringError) {
        guard Self.hasSessionBus() else {
            throw .noService(detail: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set")
        }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        var message: UnsafeMutablePointer<CChar>? = nil
        let status = body(allowsUnlockPrompt ? 1 : 0, milliseconds, &message)
        let detail = message.map { String(cString: $0) }
        spc_keyring_free_message(message)
        switch status {
        case SPC_KEYRING_OK: return
        case SPC_KEYRING_UNAVAILABLE: throw .noService(detail: detail)
        case SPC_KEYRING_LOCKED: throw .locked(detail: detail)
        case SPC_KEYRING_NOT_FOUND:
            guard let entry else { throw .failed(detail: detail ?? "the Secret Service found no such object") }
            throw .notFound(entry)
        case SPC_KEYRING_DENIED: throw .denied(detail: detail)
        case SPC_KEYRING_TIMED_OUT: throw .timedOut(seconds: Int(max(1, seconds)))
        default: throw .failed(detail: detail ?? "libsecret gave no reason")
        }
    }
}

/// Carries the looked-up password out of the call's thread (written there once, read after the call returned; the
/// ``CallSlot``'s lock orders the two).
private final class PasswordBox: @unchecked Sendable {
    var value: Secret?
}

/// One call's result, handed from its thread to the one waiting with a deadline.
private final class CallSlot: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Void, KeyringError>?

    func finish(_ result: Result<Void, KeyringError>) {
        condition.lock()
        self.result = result
        condition.broadcast()
        condition.unlock()
    }

    /// The result, or nil when `deadline` passed first.
    func wait(until deadline: Date) -> Result<Void, KeyringError>? {
        condition.lock()
        defer { condition.unlock() }
        while result == nil {
            if !condition.wait(until: deadline) { break }
        }
        return result
    }
}
