import AuthFlow
import CommandLineKit
import Foundation
import Gateway
import HTTPServer
import LocalFiles
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect gateway`: lends the profile's session to other tools (curl, rclone's WebDAV, Python) through a loopback
/// HTTP endpoint that forwards to the site with the session's credentials and renews it as commands do
/// (``GatewayForwarder``). Prints its URL as the first line of standard output and, without `--secret-file`, its
/// fresh secret as the second; serves until SIGINT or SIGTERM.
let gatewayCommand = Command(
    name: "gateway",
    summary:
        "Serve the profile's signed-in session on loopback to other tools (curl, rclone, Python), renewed as needed.",
    synopsis: "[--listen 127.0.0.1:PORT] [--secret-file FILE]",
    options: [
        .value(
            .listen, "ADDRESS:PORT", "where to listen: a loopback address and port (default 127.0.0.1:0, any free)"),
        .path(.secretFile, "FILE", "write the gateway's secret to FILE (0600) instead of printing it"),
    ] + SessionContext.options,
    examples: [
        "spconnect gateway --secret-file ~/.config/spconnect/gateway.secret",
        "printf 'user = \"x:%s\"\\n' \"$(cat ~/.config/spconnect/gateway.secret)\" | curl -K - http://127.0.0.1:PORT/_api/web",
    ]
) { arguments in
    _ = try positionals(arguments)
    var listening = GatewayAddress.anyFreePort
    if let text = arguments.value(.listen) {
        do throws(GatewayAddressError) {
            listening = try GatewayAddress(parsing: text)
        } catch {
            throw UsageError(description: "--listen \(error.description)")
        }
    }
    let context = try SessionContext.open(arguments)
    guard let components = URLComponents(string: context.session.siteURL), let scheme = components.scheme,
        let host = components.host
    else {
        throw UsageError(description: "the profile's site URL '\(context.session.siteURL)' has no origin")
    }
    let upstream = "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    let secret = Secret(randomToken())
    ErrorOutput.remember(secret)
    let session = GatewaySession(
        client: context.client, authentication: context.httpAuthentication, renewingCredentials: context.tokens,
        renew: context.renewal.reauthenticate)
    let server: GatewayServer
    do {
        server = try GatewayServer(listening: listening, upstreamOrigin: upstream, secret: secret, session: session)
    } catch {
        printError("spconnect gateway: cannot listen on \(listening.address):\(listening.port): \(error)")
        return .failure
    }
    if let path = arguments.value(.secretFile) {
        try GatewayListen.writeSecret(secret, to: path)
    }
    // Unbuffered: a script reading the first line(s) gets them at once.
    let lines = server.baseURL + "\n" + (arguments.value(.secretFile) == nil ? secret.revealedValue() + "\n" : "")
    FileHandle.standardOutput.write(Data(lines.utf8))
    printError(
        "spconnect gateway: forwarding \(server.baseURL) to \(upstream) as \(context.session.user); Ctrl-C stops")
    await GatewayListen.waitForSignal()
    await server.stop()
    return .ok
}

/// The secret file and the wait for a stop signal.
enum GatewayListen {
    /// Writes the secret to `path` (a 0600 file beside it, renamed over it: ``ReplacementFile``).
    static func writeSecret(_ secret: Secret, to path: String) throws(UsageError) {
        do throws(ReplacementFileError) {
            let file = try ReplacementFile.make(beside: path, mode: 0o600)
            do throws(ReplacementFileError) {
                try file.write(Array((secret.revealedValue() + "\n").utf8))
            } catch {
                file.discard()
                throw error
            }
            try file.commit()
        } catch {
            throw UsageError(description: "--secret-file \(path): \(error.description)")
        }
    }

    /// Returns on SIGINT or SIGTERM.
    static func waitForSignal() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = SignalOnce(continuation)
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { once.fire() }
                source.resume()
                once.keep(source)
            }
        }
    }
}

private final class SignalOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

    func keep(_ source: any DispatchSourceSignal) {
        lock.lock()
        sources.append(source)
        lock.unlock()
    }

    func fire() {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume()
    }
}

/// 32 random bytes as hex.
private func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
}
