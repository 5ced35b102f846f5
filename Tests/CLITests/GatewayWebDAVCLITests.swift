import Foundation
import SPSim
import TestSupport
import Testing

/// WebDAV through `spconnect gateway` against the simulator's WebDAV, with curl as the client: a 207's absolute
/// hrefs name the gateway, not the site; MOVE's `Destination` on the gateway reaches the site's file; and a session
/// that ends before a PROPFIND (403 with `X-MSDAVEXT_Error: 917656`) is renewed once and the PROPFIND repeated.
/// Serialized: each case runs a simulator, the gateway and several curl processes.
@Suite(.serialized) struct GatewayWebDAVCLITests {
    /// The hrefs of a multistatus body.
    static func hrefs(_ xml: String) -> [String] {
        xml.components(separatedBy: "<D:href>").dropFirst().compactMap { $0.components(separatedBy: "</D:href>").first }
    }

    @Test func multistatusHrefsNameTheGatewayAndMoveReachesTheSite() async throws {
        let fixture = try await CLIFixture()
        let gateway = try await GatewayCLITests.start(fixture)
        let user = ["-u", "x:\(gateway.secret)"]
        let listing = try await GatewayCLITests.curl(
            user + ["-X", "PROPFIND", "-H", "Depth: 1", gateway.url + "/Shared%20Documents"])
        #expect(listing.status == 207, "\(listing) \(gateway.log)")
        let hrefs = Self.hrefs(listing.body)
        #expect(hrefs.contains(gateway.url + "/Shared%20Documents/Welcome.txt"), "\(hrefs)")
        #expect(hrefs.count > 2 && hrefs.allSatisfy { $0.hasPrefix(gateway.url + "/") }, "\(hrefs)")
        #expect(!listing.body.contains(fixture.sim.siteURL), "the site's origin is not handed out")

        let upload = try temporaryDirectory("upload") + "/through.txt"
        try "through the gateway".write(toFile: upload, atomically: true, encoding: .utf8)
        let put = try await GatewayCLITests.curl(
            user + ["-T", upload, gateway.url + "/Shared%20Documents/through.txt"])
        #expect(put.status == 201, "\(put)")
        let moved = try await GatewayCLITests.curl(
            user + [
                "-X", "MOVE", "-H", "Destination: \(gateway.url)/Shared%20Documents/moved.txt",
                gateway.url + "/Shared%20Documents/through.txt",
            ])
        #expect(moved.status == 201, "\(moved)")
        #expect(fixture.sim.fileLength(serverRelativeURL: "/Shared Documents/moved.txt") == 19)
        #expect(fixture.sim.fileLength(serverRelativeURL: "/Shared Documents/through.txt") == nil)
        let listed = try await fixture.run(["ls", "Shared Documents"])
        #expect(listed.stdout.contains("moved.txt"), "spconnect ls sees the file WebDAV moved: \(listed.stdout)")
        #expect(await gateway.stop() == 0, "\(gateway.log)")
    }

    @Test func aWebDAVLostSessionIsRenewedOnce() async throws {
        let fixture = try await CLIFixture()
        let gateway = try await GatewayCLITests.start(fixture, extra: ["SPCONNECT_PASSWORD": alicePassword])
        let user = ["-u", "x:\(gateway.secret)"]
        let propfind = user + ["-X", "PROPFIND", "-H", "Depth: 0", gateway.url + "/Shared%20Documents"]
        #expect(try await GatewayCLITests.curl(propfind).status == 207, "\(gateway.log)")
        fixture.sim.expireSessions()
        let signIns = fixture.sim.passwordSignIns(for: aliceEmail)
        fixture.sim.clearRequestLog()
        let again = try await GatewayCLITests.curl(propfind)
        #expect(again.status == 207, "\(again) \(gateway.log)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == signIns + 1)
        let statuses = fixture.sim.requestLog().filter { $0.method == "PROPFIND" }.map(\.status)
        #expect(statuses == [403, 207], "the refused PROPFIND is repeated once after the renewal")
        _ = await gateway.stop()
        #expect(!gateway.log.contains(alicePassword) && !gateway.log.contains(gateway.secret))
    }
}
