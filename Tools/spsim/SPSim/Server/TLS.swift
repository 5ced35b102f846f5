import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Self-signed certificate for `--tls`, made with `/usr/bin/openssl` in a temporary directory.
enum TLSMaterial {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func selfSigned() throws -> (certificatePEM: String, keyPEM: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spsim-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path
        let cert = directory.appendingPathComponent("cert.pem").path
        let status = runQuietly(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,IP:127.0.0.2,IP:127.0.0.3",
            ])
        guard status >= 0 else { throw Failure(description: "cannot run /usr/bin/openssl") }
        guard status == 0 else { throw Failure(description: "openssl failed to make a certificate") }
        return (try String(contentsOfFile: cert, encoding: .utf8), try String(contentsOfFile: key, encoding: .utf8))
    }
}

/// Runs `executable` with `arguments`, standard input, output and error on `/dev/null`, and waits for it (blocking
/// the calling thread); its exit status, or -1 when it could not be started or was killed. posix_spawn, not
/// Foundation's `Process`, whose `run()` crashes now and then in this toolchain in a process holding many
/// descriptors (a test run with many simulators open).
func runQuietly(_ executable: String, _ arguments: [String]) -> Int32 {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Recording file actions fails only for want of memory; a failed open makes posix_spawn fail.
    _ = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    _ = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    _ = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        if errno != EINTR { return -1 }
    }
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}
