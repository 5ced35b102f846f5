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
    let (address, port) = try GatewayListen.parse(arguments.value(.listen))
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
        server = try GatewayServer(
            address: address, port: port, upstreamOrigin: upstream, secret: secret, session: session)
    } catch {
        printError("spconnect gateway: cannot listen on \(address):\(port): \(error)")
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

/// `--listen`, the secret file and the wait for a stop signal.
enum GatewayListen {
    /// `ADDRESS:PORT` (or `PORT`) on a loopback address; anything else is a usage error.
    static func parse(_ value: String?) throws(UsageError) -> (String, UInt16) {
        guard let value else { return ("127.0.0.1", 0) }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let address = parts.count == 2 ? parts[0] : "127.0.0.1"
        guard let port = UInt16(parts.last ?? "") else {
            throw UsageError(description: "--listen takes ADDRESS:PORT, e.g. 127.0.0.1:8700, not '\(value)'")
        }
        guard address.hasPrefix("127."), address.split(separator: ".").count == 4 else {
            throw UsageError(
                description: "--listen \(value): the gateway lends your session, so it listens on a loopback address "
                    + "(127.x.x.x) only; reach it from elsewhere through an SSH tunnel")
        }
        return (address, port)
    }

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
