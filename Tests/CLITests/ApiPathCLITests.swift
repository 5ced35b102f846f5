import Foundation
import SPSim
import TestSupport
import Testing

/// `spconnect api PATH` takes a path as a browser's address bar does: a literal space (and the other bytes a URL
/// cannot hold) is sent percent-encoded, never refused as a network failure.
@Suite struct ApiPathCLITests {
    @Test func aPathWithALiteralSpaceIsSentAsABrowserWouldSendIt() async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run([
            "api", "GET", "/_api/web/GetFolderByServerRelativeUrl('/Shared Documents')", "-v",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"Name\""), "\(result.stdout)")
        #expect(result.stdout.contains("Shared Documents"), "\(result.stdout)")
        #expect(result.stderr.contains("GetFolderByServerRelativeUrl('/Shared%20Documents')"), "\(result.stderr)")
        // Already encoded stays as written: not encoded twice.
        let encoded = try await fixture.run([
            "api", "GET", "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')",
        ])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == result.stdout)
    }
}
