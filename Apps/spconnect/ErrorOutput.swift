import Foundation
import Presentation
import Synchronization
import Transport

/// What spconnect writes to standard error: one line per message, with the run's secrets removed by value and
/// control characters escaped, because messages quote servers, and a server may echo the password or a cookie
/// back, or send escape sequences that clear the screen or forge a line.
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

    /// `message` as it may be shown: secrets removed, controls escaped, on one line.
    static func displayed(_ message: String) -> String {
        TerminalText.escapingControls(secrets.withLock { $0 }.scrub(message), keepLineBreaks: false)
    }
}

/// Writes a line to standard error (see ``ErrorOutput``).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((ErrorOutput.displayed(message) + "\n").utf8))
}
