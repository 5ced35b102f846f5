import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

/// Transport refuses any header that would break its line, whoever built the request.
@Suite struct HeaderInjectionTests {
    @Test("a header value or bearer token with CR/LF never reaches the server")
    func injectedHeaders() async throws {
        let seen = Mutex<[HTTPServerRequest]>([])
        let server = try HTTPServer { request in
            seen.withLock { $0.append(request) }
            return HTTPServerResponse(status: 200)
        }
        let client = try HTTPClient()
        let url = server.baseURL + "/x"
        let requests = [
            HTTPRequest(method: "GET", url: url, headers: ["X-A": "1\r\nX-Injected: 2"]),
            HTTPRequest(method: "GET", url: url, headers: ["X-A\r\nX-Injected": "2"]),
            HTTPRequest(method: "GET", url: url, auth: .bearer(Secret("t\r\n\r\nGET /smuggled HTTP/1.1"))),
        ]
        for request in requests {
            await #expect {
                try await client.execute(request)
            } throws: { error in
                guard let error = error as? TransportError else { return false }
                return error.kind == .invalidRequest && !"\(error)".contains("Injected")
                    && !"\(error)".contains("smuggled")
            }
        }
        #expect(seen.withLock { $0.isEmpty })
        await server.stop()
    }
}
