import AuthFlow
import Foundation
import Presentation
import Synchronization
import Transport

/// What spconnect writes to standard error: one line per message, with the run's secrets removed by value and
/// control characters escaped, because messages quote servers, and a server may echo the password or a cookie
/// back, or send escape sequences that clear the screen or forge a line. With `-o json` or `ndjson` the lines are
/// JSON objects instead (``JSONErrors``).
enum ErrorOutput {
    /// The secrets this run has seen: passwords it read and the session's cookie values.
    private static let secrets = Mutex(SecretScrubber())

    /// Removes `secret` from every later message.
    static func remember(_ secret: Secret) {
        secrets.withLock { $0.add([secret.revealedValue()]) }
    }

    /// Removes the values of `cookies` (the long ones: session cookies, tokens) from every later message.
    static func remember(cookies: [Cookie]) {
        secrets.withLock { $0.add(cookies.map(\.value), minimumLength: SecretScrubber.cookieMinimumLength) }
    }

    /// Removes a session's secrets from every later message: its cookies' values and its tokens (a renewed session
    /// brings new ones).
    @Sendable static func remember(session: Session) {
        remember(cookies: session.cookies)
        guard let tokens = session.tokens else { return }
        remember(tokens.accessToken)
        if let refresh = tokens.refreshToken { remember(refresh) }
    }

    /// `message` as it may be shown: secrets removed, controls escaped, on one line.
    static func displayed(_ message: String) -> String {
        TerminalText.escapingControls(secrets.withLock { $0 }.scrub(message), keepLineBreaks: false)
    }

    /// With `-o json` or `ndjson`: the messages held until the command ends (``JSONErrors``); nil writes them at once.
    private static let held = Mutex<[String]?>(nil)

    /// From now on, standard error is JSON objects (``JSONErrors``).
    static func useJSON() {
        held.withLock { $0 = $0 ?? [] }
    }

    /// Writes `message` (made safe to show), or holds it for ``finish(_:)`` in JSON mode.
    static func write(_ message: String) {
        let line = displayed(message)
        let writeNow = held.withLock { held in
            guard held != nil else { return true }
            held?.append(line)
            return false
        }
        if writeNow { writeLine(line) }
    }

    /// Writes a `--verbose` line at once, as plain text in JSON mode too: the trace is for people reading along,
    /// and holding it until the end would hide what a slow command is doing.
    static func trace(_ line: String) {
        writeLine(displayed(line))
    }

    /// At the end of the command, in JSON mode: the held messages, the last one as the failure when `code` is one.
    static func finish(_ code: ExitCode) {
        guard let messages = held.withLock({ $0 }) else { return }
        for line in JSONErrors.lines(messages, ending: code) { writeLine(line) }
    }

    private static func writeLine(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Writes a line to standard error (see ``ErrorOutput``).
func printError(_ message: String) {
    ErrorOutput.write(message)
}
