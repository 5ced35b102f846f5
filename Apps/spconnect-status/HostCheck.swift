import Synchronization

/// The DNS-rebinding defence of an app on loopback: a request's `Host` header must name exactly one of the app's
/// own names and the port it listens on (`127.0.0.1:8123`, `localhost:8123`), compared case-insensitively and
/// nothing more (`127.0.0.1:8123.evil.example`, a missing port or another one are refused). A page of another site
/// whose DNS name was rebound to 127.0.0.1 sends its own name, so it cannot read the app.
///
/// The port is known once the server is listening (``listening(on:)``); until then every request is refused.
/// Thread-safety: `Sendable`; checks run on the server's connection threads.
final class HostCheck: Sendable {
    /// The host names (lower-case, no port) the app answers to.
    let names: Set<String>
    private let port = Atomic<UInt16>(0)

    /// A check for `names` (an address or a name, without port), the port still unknown.
    init(names: Set<String>) {
        self.names = Set(names.map { $0.lowercased() })
    }

    /// Sets the port the app listens on.
    func listening(on port: UInt16) {
        self.port.store(port, ordering: .releasing)
    }

    /// The `Host` values accepted, sorted (`127.0.0.1:8123`, `localhost:8123`); empty before the port is known.
    var accepted: [String] {
        let port = self.port.load(ordering: .acquiring)
        guard port != 0 else { return [] }
        return names.sorted().map { "\($0):\(port)" }
    }

    /// Whether `host` (a `Host` header's value) names exactly one of the app's names and its port.
    func accepts(_ host: String) -> Bool {
        accepted.contains(host.lowercased())
    }
}
