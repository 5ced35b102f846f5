public import Foundation
public import HTTPServer
public import Transport

/// A gateway listening: the server on a loopback address, a scratch folder of its own (0700, removed by ``stop()``)
/// where uploads over 1 MiB and answers' bodies wait, and the ``GatewayForwarder`` that answers with `session`. A
/// request without the secret (or from the wrong Host or Origin) is refused on its head, before any of its body is
/// read. The forwarder needs the server's address, so it is set once the server listens.
public final class GatewayServer: Sendable {
    /// `http://ADDRESS:PORT`, where tools reach the gateway.
    public var baseURL: String { server.baseURL }
    private let server: HTTPServer
    private let scratch: String

    /// Listens on `listening` (a loopback address only: ``GatewayAddress``) and forwards to `upstreamOrigin` with
    /// `session`, admitting only requests that present `secret`. Throws when the scratch folder cannot be made or
    /// the address is taken.
    public init(
        listening: GatewayAddress = .anyFreePort, upstreamOrigin: String, secret: Secret, session: GatewaySession,
        connectionTimeout: UInt32 = 300
    ) throws {
        let (address, port) = (listening.address, listening.port)
        let scratch = NSTemporaryDirectory() + "spconnect-gateway-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let slot = ForwarderSlot()
        do {
            server = try HTTPServer(
                address: address, port: port, connectionTimeout: connectionTimeout,
                bodies: .files(over: 1 << 20, in: scratch), admission: { head in slot.forwarder?.refusal(head) }
            ) { request in
                slot.forwarder?.answer(request) ?? GatewayForwarder.text(503, "spconnect gateway: starting")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: scratch)
            throw error
        }
        self.scratch = scratch
        slot.forwarder = GatewayForwarder(
            gatewayOrigin: server.baseURL, upstreamOrigin: upstreamOrigin, secret: secret, session: session,
            scratch: scratch)
    }

    /// Stops listening (waiting off the cooperative pool for the requests in flight) and removes the scratch folder.
    public func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: scratch)
    }
}

/// The forwarder, set once the server knows its port (the handler is made before).
private final class ForwarderSlot: @unchecked Sendable {
    var forwarder: GatewayForwarder?
}
