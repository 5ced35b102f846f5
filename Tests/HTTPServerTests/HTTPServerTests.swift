import Foundation
import HTTPServer
import TestSupport
import Testing

/// Runs the real `curl` binary and returns its stdout; the server is exercised over loopback as any client would.
/// Suspends, without blocking a thread, while curl runs.
func runCurl(_ arguments: [String]) async throws -> (output: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "--max-time", "10"] + arguments
    let run = try await runCollectingOutput(process)
    return (String(decoding: run.output, as: UTF8.self), run.status)
}

@Suite struct HTTPServerTests {
    @Test func servesRequestDetailsAndSeveralSetCookies() async throws {
        let server = try HTTPServer { request in
            let text = [
                request.method, request.path, request.rawQuery, request.queryValue("a") ?? "-",
                request.header("X-TEST") ?? "-", request.cookies["c1"] ?? "-", request.formValue("user") ?? "-",
                request.serverAddress,
            ].joined(separator: "|")
            return HTTPServerResponse(
                status: 201, contentType: "text/plain", text: text,
                headers: [("Set-Cookie", "one=1; Path=/"), ("Set-Cookie", "two=2; Path=/")])
        }
        defer { server.stop() }
        #expect(server.port != 0)
        let result = try await runCurl([
            "-i", "-H", "x-test: yes", "-b", "c1=v1; c2=v2", "--data", "user=al+ice%40x&pw=1",
            "\(server.baseURL)/_api/web/lists/getbytitle(%27Photos%27)?a=b%20c&$top=5",
        ])
        #expect(result.output.contains("HTTP/1.1 201"))
        #expect(result.output.contains("Set-Cookie: one=1; Path=/"))
        #expect(result.output.contains("Set-Cookie: two=2; Path=/"))
        #expect(
            result.output.hasSuffix(
                "POST|/_api/web/lists/getbytitle('Photos')|a=b%20c&$top=5|b c|yes|v1|al ice@x|127.0.0.1"))
    }

    @Test func secondLoopbackAddressIsASeparateHost() async throws {
        let server = try HTTPServer(address: "127.0.0.2") { request in
            HTTPServerResponse(status: 200, contentType: "text/plain", text: request.serverAddress)
        }
        defer { server.stop() }
        #expect(server.baseURL.hasPrefix("http://127.0.0.2:"))
        #expect(try await runCurl([server.baseURL + "/"]).output == "127.0.0.2")
    }

    @Test func refusesNonLoopbackUnlessAllowed() {
        #expect(throws: HTTPServerError.notLoopback("0.0.0.0")) {
            _ = try HTTPServer(address: "0.0.0.0") { _ in HTTPServerResponse(status: 200) }
        }
        #expect(throws: HTTPServerError.invalidAddress("localhost:80")) {
            _ = try HTTPServer(address: "localhost:80") { _ in HTTPServerResponse(status: 200) }
        }
    }

    @Test func streamedBodyArrivesWholeAndAbortedBodyIsShort() async throws {
        let server = try HTTPServer { request in
            let abort = request.path == "/abort"
            let counter = ChunkCounter()
            return HTTPServerResponse(
                status: 200,
                body: .stream(length: 3000) {
                    let sent = counter.next()
                    if sent == 2 { return abort ? .abort : .data(Array(repeating: 0x43, count: 1000)) }
                    return sent < 3 ? .data(Array(repeating: 0x41 + UInt8(sent), count: 1000)) : .end
                })
        }
        defer { server.stop() }
        let whole = try await runCurl([server.baseURL + "/whole"])
        #expect(whole.status == 0)
        #expect(whole.output.count == 3000)
        #expect(whole.output.hasPrefix("AAA") && whole.output.hasSuffix("CCC"))
        let short = try await runCurl([server.baseURL + "/abort"])
        #expect(short.status != 0)  // curl reports a transfer closed with bytes outstanding
        #expect(short.output.count == 2000)
    }

    /// On an address of its own: on 127.0.0.1 the freed port number could be taken at once by the client side of
    /// another test's connection (the same ephemeral range), which made the second bind fail now and then.
    /// Kept apart from the status app's test that listens on 0.0.0.0, which could be given this port number while it
    /// is free.
    ///
    /// "Freed" is read from the kernel's own table (no socket listens on the address and port any more), which no
    /// other test can disturb. Binding the port again then shows the server can take a given port; that bind is
    /// tried for up to 2 s, as it failed once in CI for a reason outside this server (the first check had passed).
    @Test(.portNumbers) func stopIsIdempotentAndFreesThePort() async throws {
        let address = "127.0.0.77"
        let server = try HTTPServer(address: address) { _ in HTTPServerResponse(status: 204) }
        let port = server.port
        #expect(try Self.isListening(address: address, port: port), "the check can see a listening socket")
        await server.stop()
        await server.stop()
        #expect(try !Self.isListening(address: address, port: port))
        var again: HTTPServer?
        for _ in 0..<40 where again == nil {
            again = try? HTTPServer(address: address, port: port) { _ in HTTPServerResponse(status: 204) }
            if again == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(again?.port == port)
        await again?.stop()
    }

    /// Whether a TCP socket listens on `address:port`, from `/proc/net/tcp` (local address in hex, state `0A`).
    static func isListening(address: String, port: UInt16) throws -> Bool {
        let octets = address.split(separator: ".").compactMap { UInt8($0) }
        let hexAddress = octets.reversed().map { String(format: "%02X", $0) }.joined()
        let local = hexAddress + ":" + String(format: "%04X", port)
        // Read to the end in chunks: a /proc file reports size 0, and reading it by its size stops early.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/net/tcp"))
        defer { try? handle.close() }
        let table = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1] == local && fields[3] == "0A"
        }
    }
}
