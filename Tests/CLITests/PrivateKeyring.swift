import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A session bus of the test's own (`dbus-run-session`) with gnome-keyring's Secret Service on it, unlocked with a
/// password of the test's, keeping its keyring under the given HOME: the user's real keyring is never touched.
/// Started by a shell script under `dbus-run-session`; ``stop()`` ends the keyring daemon by its PID, and the bus
/// ends with the script.
final class PrivateKeyring {
    /// The tools it needs, and whether all are installed (CI installs them: `.ci/run`'s EXTRA_PACKAGES).
    static let tools = ["/usr/bin/dbus-run-session", "/usr/bin/dbus-send", "/usr/bin/gnome-keyring-daemon"]
    static var isInstalled: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }
    static let skipReason: Comment =
        "needs dbus-run-session, dbus-send and gnome-keyring-daemon (apt-get install dbus gnome-keyring dbus-x11)"

    /// What the service on the bus is.
    enum Service {
        /// gnome-keyring, its login collection unlocked.
        case gnomeKeyring
        /// A program that the bus starts for `org.freedesktop.secrets` and that never answers (as a keyring waiting on
        /// an unlock prompt nobody sees).
        case neverAnswering
    }

    let directory: String
    /// The variables that point a client at this bus (merge them into spconnect's environment).
    let environment: [String: String]
    private let launcher: Task<Int32, Never>

    /// Starts the bus and the service, and waits until the service owns its name.
    init(home: String, service: Service = .gnomeKeyring) async throws {
        directory = try temporaryDirectory("keyring")
        let runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        let script = directory + "/launch.sh"
        switch service {
        case .gnomeKeyring:
            try Self.gnomeKeyringScript.write(toFile: script, atomically: true, encoding: .utf8)
        case .neverAnswering:
            // The runtime folder's services come first: this file wins over gnome-keyring's in /usr/share.
            let services = runtime + "/dbus-1/services"
            try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
            let silent = directory + "/silent.sh"
            try "#!/bin/sh\necho $$ > '\(directory)/service.pid'\nexec sleep 60\n".write(
                toFile: silent, atomically: true, encoding: .utf8)
            chmod(silent, 0o755)
            try "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=\(silent)\n".write(
                toFile: services + "/org.freedesktop.secrets.service", atomically: true, encoding: .utf8)
            try Self.busOnlyScript.write(toFile: script, atomically: true, encoding: .utf8)
        }
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime, "DIR": directory,
            // gnome-keyring's own unlock password (read from standard input, never argv); not a password of spconnect.
            "KEYRING_UNLOCK": "test-keyring-unlock",
        ]
        let log = directory + "/bus.log"
        launcher = Task {
            await spawnToExit(
                "/usr/bin/dbus-run-session", ["--", "/bin/sh", script], environment: environment, standardOutput: log,
                standardError: log)
        }
        let addressFile = directory + "/address"
        let started = ContinuousClock.now
        while !FileManager.default.fileExists(atPath: addressFile) {
            // A bound for a busy machine (the whole suite runs beside it): the bus starts in well under a second alone.
            guard ContinuousClock.now - started < .seconds(60) else {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw KeyringStartFailure(description: "the private session bus did not start: \(text)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let address = try String(contentsOfFile: addressFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        self.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_RUNTIME_DIR": runtime]
    }

    /// Ends the keyring (or the never-answering service), the bus and the script by their PIDs, and waits for
    /// `dbus-run-session`; removes the scratch folder. SIGKILL: children of the test process inherit its blocked
    /// SIGTERM.
    func stop() async {
        for name in ["keyring.pid", "service.pid", "bus.pid", "shell.pid"] {
            if let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
            {
                kill(pid, SIGKILL)
            }
        }
        _ = await launcher.value
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Locks the login collection, as a desktop does after a while or on the screen locking.
    func lock() async -> Int32 {
        return await dbusSend([
            "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
            "array:objpath:/org/freedesktop/secrets/collection/login",
        ])
    }

    /// The D-Bus object paths of the keyring's items that carry `user` (any schema), locked or not.
    func items(forUser user: String) async -> [String] {
        let output = directory + "/search.out"
        _ = await dbusSend(
            [
                "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
                "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:user,\(user)",
            ], output: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "object path \"") else { return nil }
            let path = line[start.upperBound...].prefix { $0 != "\"" }
            return path.hasPrefix("/org/freedesktop/secrets/collection/") ? String(path) : nil
        }
    }

    private func dbusSend(_ arguments: [String], output: String? = nil) async -> Int32 {
        await spawnToExit(
            "/usr/bin/dbus-send", ["--session", "--print-reply"] + arguments,
            environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }, standardOutput: output,
            timeout: .seconds(20))
    }

    /// The bus's PID is kept (``stop()`` ends it); gnome-keyring runs in the foreground (its PID kept), unlocked from
    /// standard input; the bus's address is written once the Secret Service owns its name, then the script waits.
    private static let gnomeKeyringScript = """
        echo $$ > "$DIR/shell.pid"
        dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
            org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.DBus \\
            | awk '/uint32/ { print $2 }' > "$DIR/bus.pid"
        printf %s "$KEYRING_UNLOCK" | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
        echo $! > "$DIR/keyring.pid"
        i=0
        until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
            org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true; do
            i=$((i + 1)); [ "$i" -gt 200 ] && break; sleep 0.1
        done
        echo "$DBUS_SESSION_BUS_ADDRESS" > "$DIR/address.new" && mv "$DIR/address.new" "$DIR/address"
        wait
        """

    /// Only the bus (the service is started on demand from the service file); waits until told to stop.
    private static let busOnlyScript = """
        echo $$ > "$DIR/shell.pid"
        dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
            org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.DBus \\
            | awk '/uint32/ { print $2 }' > "$DIR/bus.pid"
        echo "$DBUS_SESSION_BUS_ADDRESS" > "$DIR/address.new" && mv "$DIR/address.new" "$DIR/address"
        sleep 120 &
        echo $! > "$DIR/keyring.pid"
        wait
        """
}

struct KeyringStartFailure: Error, CustomStringConvertible {
    let description: String
}
