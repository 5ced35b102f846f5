import AuthFlow
import Foundation
import HTTPServer
import Synchronization
import Testing
import Transport

/// A sign-in has an overall deadline: a server that trickles its page (fast enough to pass a stall check, far too
/// slow to finish) cannot hold it open.
@Suite struct SignInDeadlineTests {
    /// A page sent two bytes at a time, every 200 ms, for about a minute.
    static func tricklingServer() throws -> HTTPServer {
        try HTTPServer { _ in
            let page = Array(("<html><body>" + String(repeating: "slow ", count: 60) + "</body></html>").utf8)
            let position = ChunkPosition()
            return HTTPServerResponse(
                status: 200, headers: [("Content-Type", "text/html")],
                body: .stream(length: page.count) {
                    let start = position.advance(by: 2)
                    guard start < page.count else { return .end }
                    Thread.sleep(forTimeInterval: 0.2)
                    return .data(Array(page[start..<min(start + 2, page.count)]))
                })
        }
    }

    final class ChunkPosition: Sendable {
        private let next = Mutex(0)
        func advance(by count: Int) -> Int {
            next.withLock { next in
                defer { next += count }
                return next
            }
        }
    }

    @Test func aTrickledPageEndsAtTheDeadlineAsATimeout() async throws {
        let server = try Self.tricklingServer()
        defer { server.stop() }
        let outcome = await SignIn(
            client: try HTTPClient(),
            configuration: SignInConfiguration(
                siteURL: server.baseURL, username: "alice", password: Secret("Hunter2-Pa55!"),
                policy: SignInPolicy(allowHTTPLoopback: true)),
            options: SignIn.Options(deadline: .seconds(1))
        ).run()
        guard case .transport(let error) = outcome else {
            Issue.record("expected a timeout, got \(outcome.message)")
            return
        }
        #expect(error.kind == .timeout, "\(error)")
    }

    @Test func theDefaultsBoundEveryExchange() {
        let defaults = HTTPTimeouts()
        #expect(defaults.connect == .seconds(15))
        #expect(defaults.lowSpeedTime == .seconds(30) && defaults.lowSpeedLimit >= 16)
        #expect(SignIn.Options().deadline == .seconds(120))
    }
}
