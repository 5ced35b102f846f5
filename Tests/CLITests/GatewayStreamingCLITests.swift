import Foundation
import SPSim
import TestSupport
import Testing

/// Bodies through `spconnect gateway` both ways, with curl as the client against the simulator: a download passed
/// on as it arrives is the site's bytes; an upload past the gateway's memory threshold (1 MiB) goes up from a file,
/// is replayed from it after a renewal, and one without the secret is refused before any of it reaches the site.
/// Serialized: each case runs a simulator, the gateway and curl.
@Suite(.serialized) struct GatewayStreamingCLITests {
    static let uploadBytes: [UInt8] = (0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 13) }

    @Test func downloadsAndLargeUploadsPassThroughWhole() async throws {
        let fixture = try await CLIFixture()
        let gateway = try await GatewayCLITests.start(fixture)
        let folder = try temporaryDirectory("gateway-bodies")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let user = ["-u", "x:\(gateway.secret)"]

        let large = "/Shared Documents/large.bin"
        let length = try #require(fixture.sim.fileLength(serverRelativeURL: large))
        let fetched = await spawnToExit(
            "/usr/bin/curl",
            ["-s", "-f", "-o", folder + "/large.bin"] + user + [gateway.url + "/Shared%20Documents/large.bin"],
            environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(60))
        #expect(fetched == 0)
        let downloaded = [UInt8](FileManager.default.contents(atPath: folder + "/large.bin") ?? Data())
        #expect(downloaded.count == length)
        #expect(downloaded == fixture.sim.fileBytes(serverRelativeURL: large, offset: 0, count: length))

        #expect(FileManager.default.createFile(atPath: folder + "/up.bin", contents: Data(Self.uploadBytes)))
        let put = try await GatewayCLITests.curl(
            user + ["-T", folder + "/up.bin", gateway.url + "/Shared%20Documents/up.bin"])
        #expect(put.status == 201, "\(put) \(gateway.log)")
        #expect(
            fixture.sim.fileBytes(serverRelativeURL: "/Shared Documents/up.bin", offset: 0, count: 6 << 20)
                == Self.uploadBytes)
        let back = try await fixture.run(["download", "Shared Documents/up.bin", "--to", folder + "/back"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect([UInt8](FileManager.default.contents(atPath: folder + "/back/up.bin") ?? Data()) == Self.uploadBytes)
        #expect(await gateway.stop() == 0, "\(gateway.log)")
    }

    @Test func anUploadIsReplayedAfterARenewalAndRefusedWithoutTheSecret() async throws {
        let fixture = try await CLIFixture()
        let gateway = try await GatewayCLITests.start(fixture, extra: ["SPCONNECT_PASSWORD": alicePassword])
        let folder = try temporaryDirectory("gateway-replay")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/up.bin", contents: Data(Self.uploadBytes)))

        fixture.sim.clearRequestLog()
        let refused = try await GatewayCLITests.curl([
            "-T", folder + "/up.bin", gateway.url + "/Shared%20Documents/x.bin",
        ])
        #expect(refused.status == 401, "\(refused)")
        #expect(fixture.sim.requestLog().isEmpty, "\(fixture.sim.requestLog().map(\.path))")

        fixture.sim.expireSessions()
        let signIns = fixture.sim.passwordSignIns(for: aliceEmail)
        let put = try await GatewayCLITests.curl(
            ["-u", "x:\(gateway.secret)", "-T", folder + "/up.bin", gateway.url + "/Shared%20Documents/replayed.bin"])
        #expect(put.status == 201, "\(put) \(gateway.log)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == signIns + 1)
        #expect(
            fixture.sim.fileBytes(serverRelativeURL: "/Shared Documents/replayed.bin", offset: 0, count: 6 << 20)
                == Self.uploadBytes)
        #expect(await gateway.stop() == 0, "\(gateway.log)")
        #expect(!gateway.log.contains(alicePassword) && !gateway.log.contains(gateway.secret))
    }
}
