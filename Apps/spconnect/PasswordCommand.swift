import AuthFlow
import Foundation
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// A password from a command (`--password-command CMD`, `SPCONNECT_PASSWORD_COMMAND`), as rclone and msmtp take
/// one: `pass show sp`, `systemd-creds cat sp-password`, a vault's CLI. The command runs with `/bin/sh -c` (the
/// user's own words; no secret is put into it), standard input closed, standard error passed through; its first
/// non-empty output line, trimmed, is the password. Nothing of its output is printed.
enum PasswordCommand {
    /// The most output read (a password is one short line; a runaway command is not read to its end).
    static let outputLimit = 64 << 10

    /// Runs `command` to its end; the password, or nil when it failed, printed nothing, or could not be started.
    static func run(_ command: String) -> Secret? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Recording file actions fails only for want of memory; posix_spawn then fails and says so.
        _ = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        _ = posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        _ = posix_spawn_file_actions_addclose(&actions, readEnd)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv = words.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp) == 0
        close(writeEnd)
        defer { close(readEnd) }
        guard spawned else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while output.count < outputLimit {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard (status & 0x7f) == 0, (status >> 8) & 0xff == 0 else { return nil }
        let line = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        return line.map(Secret.init)
    }
}
