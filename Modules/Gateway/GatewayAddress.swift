/// Where a gateway listens: a loopback address and a port, never anything else. The gateway lends a signed-in
/// session, so it is reachable from this machine only (from elsewhere, through an SSH tunnel).
public struct GatewayAddress: Sendable, Equatable {
    /// A loopback IPv4 address (`127.x.x.x`).
    public let address: String
    /// The port; 0 for any free one.
    public let port: UInt16

    /// `127.0.0.1`, any free port.
    public static let anyFreePort = GatewayAddress(checked: "127.0.0.1", port: 0)

    private init(checked address: String, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// `address:port`, refused unless `address` is a loopback IPv4 address.
    public init(address: String, port: UInt16) throws(GatewayAddressError) {
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127", parts.allSatisfy({ UInt8($0) != nil }) else {
            throw GatewayAddressError(
                description: "\(address): the gateway lends your session, so it listens on a loopback address "
                    + "(127.x.x.x) only; reach it from elsewhere through an SSH tunnel")
        }
        self.init(checked: address, port: port)
    }

    /// `ADDRESS:PORT` or `PORT` (on 127.0.0.1), as a command line gives it.
    public init(parsing text: String) throws(GatewayAddressError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let port = UInt16(parts.last ?? "") else {
            throw GatewayAddressError(description: "\(text) is not ADDRESS:PORT, e.g. 127.0.0.1:8700")
        }
        try self.init(address: parts.count == 2 ? parts[0] : "127.0.0.1", port: port)
    }
}

/// A listening address the gateway refuses.
public struct GatewayAddressError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what to do.
    public let description: String
}
