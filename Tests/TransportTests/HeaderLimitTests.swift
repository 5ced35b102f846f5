import Foundation
import TestSupport
import Testing

@testable import Transport

/// Giant response headers end the exchange with a message about headers (libcurl says "out of memory").
@Suite struct HeaderLimitTests {
    @Test func aGiantLocationHeaderIsReportedAsTooLargeHeaders() async throws {
        let server = try RawResponder(
            response: Array(
                ("HTTP/1.1 302 Found\r\nLocation: /" + String(repeating: "a", count: 200_000)
                    + "\r\nContent-Length: 0\r\n\r\n").utf8))
        defer { server.stop() }
        let client = try makeClient()
        let error = await transportError {
            _ = try await client.execute(HTTPRequest(url: server.baseURL + "/", redirects: .follow(max: 3)))
        }
        #expect(error?.kind == .headersTooLarge, "\(error?.description ?? "")")
        #expect(error?.description.contains("headers") == true)
        #expect(error?.description.lowercased().contains("out of memory") == false)
    }

    @Test func endlessSmallHeadersStopAtTheClientsLimit() async throws {
        let filler = (0..<400).map { "X-Filler-\($0): " + String(repeating: "b", count: 1000) + "\r\n" }.joined()
        let server = try RawResponder(
            response: Array(("HTTP/1.1 200 OK\r\n" + filler + "Content-Length: 0\r\n\r\n").utf8))
        defer { server.stop() }
        let client = try makeClient()
        let error = await transportError { _ = try await client.execute(HTTPRequest(url: server.baseURL + "/")) }
        #expect(error?.kind == .headersTooLarge, "\(error?.description ?? "")")
    }
}
