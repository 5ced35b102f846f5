import Foundation
import HTTPServer
import Testing

@testable import Transport

/// `HTTPRequest.responseHead`: the answer's status and headers reach the caller while its body is still on the way
/// (what a proxy needs to pass a multi-gigabyte answer on as it arrives), once per answer, and not for a redirect
/// that is followed. Over real loopback HTTP against the package's server.
@Suite struct ResponseHeadTests {
    @Test func theHeadArrivesBeforeTheBodyEnds() async throws {
        let release = Flag()
        defer { release.set() }
        let server = try HTTPServer(address: "127.0.0.1") { request in
            if request.path == "/moved" {
                return HTTPServerResponse(status: 302, headers: [("Location", "/stream")])
            }
            let sent = Flag()
            var response = HTTPServerResponse(
                status: 200,
                body: .stream(length: nil) {
                    guard sent.isSet else {
                        sent.set()
                        return .data(Array("first part;".utf8))
                    }
                    // The rest only once the test has seen the head.
                    stall(until: release)
                    return .end
                })
            response.headers.append(("X-Answer", "streamed"))
            return response
        }
        defer { server.stop() }
        let client = try makeClient()
        let heads = Collected<HTTPResponseHead>()
        let chunks = Collected<[UInt8]>()
        var request = HTTPRequest(
            url: server.baseURL + "/moved", redirects: .follow(max: 3), responseBody: .sink { chunks.append($0) })
        request.responseHead = { heads.append($0) }
        let exchange = Task { try await client.execute(request) }

        for _ in 0..<500 where heads.values.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let head = try #require(heads.values.first, "no head while the body was still being sent")
        #expect(head.status == 200)
        #expect(head.headers["X-Answer"] == "streamed")
        release.set()
        let response = try await exchange.value
        #expect(response.status == 200)
        #expect(String(decoding: chunks.values.flatMap { $0 }, as: UTF8.self) == "first part;")
        // One head: the followed redirect's is not reported.
        #expect(heads.values.count == 1)
    }

    @Test func aRedirectReturnedAsItIsHasItsOwnHead() async throws {
        let server = try HTTPServer(address: "127.0.0.1") { _ in
            HTTPServerResponse(status: 302, headers: [("Location", "/elsewhere")])
        }
        defer { server.stop() }
        let client = try makeClient()
        let heads = Collected<HTTPResponseHead>()
        var request = HTTPRequest(url: server.baseURL + "/", responseBody: .sink { _ in })
        request.responseHead = { heads.append($0) }
        let response = try await client.execute(request)
        #expect(response.status == 302)
        #expect(heads.values.map(\.status) == [302])
        #expect(heads.values.first?.headers["Location"] == "/elsewhere")
    }
}
