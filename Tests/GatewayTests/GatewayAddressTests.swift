import Gateway
import Testing

/// The gateway lends a signed-in session: it listens on a loopback address only, whoever embeds it.
@Suite struct GatewayAddressTests {
    @Test func onlyLoopbackAddressesAreAccepted() throws {
        #expect(try GatewayAddress(parsing: "127.0.0.5:8700") == GatewayAddress(address: "127.0.0.5", port: 8700))
        #expect(try GatewayAddress(parsing: "8700") == GatewayAddress(address: "127.0.0.1", port: 8700))
        for refused in [
            "0.0.0.0:8700", "10.0.0.1:80", "127.0.0.1.example.org:80", "localhost:80", "[::]:80", "127.0.0.1",
        ] {
            #expect(throws: GatewayAddressError.self, "\(refused)") { try GatewayAddress(parsing: refused) }
        }
        #expect(throws: GatewayAddressError.self) { try GatewayAddress(address: "192.168.1.2", port: 0) }
    }
}
