package import Transport

/// A password from a command (`--password-command CMD`, `SPCONNECT_PASSWORD_COMMAND`), as rclone and msmtp take
/// one: `pass show sp`, `systemd-creds cat sp-password`, a vault's CLI. The command runs as a ``HelperCommand``
/// (`/bin/sh -c`, the user's own words, no secret put into it; standard input closed, standard error passed through;
/// at most 64 KiB of output and `SPCONNECT_COMMAND_TIMEOUT` seconds, default 60); its first non-empty output line,
/// trimmed, is the password. Nothing of its output is printed.
package enum PasswordCommand {
    /// Runs `command` to its end; the password, or why there is none.
    package static func run(_ command: String) -> Result<Secret, HelperCommand.Failure> {
        do throws(HelperCommand.Failure) {
            return .success(try HelperCommand.firstLine(of: command))
        } catch {
            return .failure(error)
        }
    }
}
