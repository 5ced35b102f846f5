import Foundation
import HTTPServer
import Synchronization
import Testing

/// Large request bodies kept in files (`RequestBodyStorage.files`) and requests refused on their head (`admission`),
/// over real loopback HTTP with curl.
@Suite struct RequestBodyStorageTests {
    /// A private folder for the bodies, removed at the end.
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bodies-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return path
    }

    static func entries(_ folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    @Test func aBodyPastTheThresholdArrivesAsAFileRemovedAfterwards() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let seen = Mutex<[String]>([])
        let server = try HTTPServer(bodies: .files(over: 64 << 10, in: folder)) { request in
            let summary: String
            if let file = request.bodyFile {
                let bytes = FileManager.default.contents(atPath: file.path) ?? Data()
                let mode = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.posixPermissions] as? Int
                summary =
                    "file \(file.length) \(bytes.count) \(bytes.last ?? 0) \(String(mode ?? 0, radix: 8)) "
                    + "memory \(request.body.count)"
            } else {
                summary = "memory \(request.body.count)"
            }
            seen.withLock { $0.append(summary) }
            return HTTPServerResponse(status: 200, contentType: "text/plain", text: summary)
        }
        defer { server.stop() }
        let upload = folder + "-upload"
        defer { try? FileManager.default.removeItem(atPath: upload) }
        var bytes = [UInt8](repeating: 0x61, count: 3 << 20)
        bytes[bytes.count - 1] = 0x7A
        #expect(FileManager.default.createFile(atPath: upload, contents: Data(bytes)))

        let large = try await runCurl(["--data-binary", "@" + upload, server.baseURL + "/large"])
        #expect(large.output == "file 3145728 3145728 122 600 memory 0", "\(large)")
        let small = try await runCurl(["--data-binary", "small body", server.baseURL + "/small"])
        #expect(small.output == "memory 10")
        // The request is done with: its file is gone.
        for _ in 0..<100 where !Self.entries(folder).isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(Self.entries(folder).isEmpty, "\(Self.entries(folder))")
        #expect(seen.withLock { $0.count } == 2)
    }

    @Test func aRequestRefusedOnItsHeadIsAnsweredBeforeItsBodyIsKept() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let handled = Mutex(0)
        let admitted = Mutex<[String]>([])
        let server = try HTTPServer(
            bodies: .files(over: 1 << 10, in: folder),
            admission: { head in
                admitted.withLock { $0.append("\(head.method) \(head.path) \(head.body.count)") }
                guard head.header("Authorization") == "Bearer yes" else {
                    return HTTPServerResponse(status: 401, contentType: "text/plain", text: "no")
                }
                return nil
            }
        ) { request in
            handled.withLock { $0 += 1 }
            return HTTPServerResponse(status: 200, contentType: "text/plain", text: "\(request.bodyFile?.length ?? -1)")
        }
        defer { server.stop() }
        let upload = folder + "-upload"
        defer { try? FileManager.default.removeItem(atPath: upload) }
        #expect(FileManager.default.createFile(atPath: upload, contents: Data(repeating: 0x62, count: 8 << 20)))

        let refused = try await runCurl([
            "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@" + upload, server.baseURL + "/up",
        ])
        #expect(refused.output == "401", "\(refused)")
        #expect(handled.withLock { $0 } == 0)
        #expect(Self.entries(folder).isEmpty)
        let allowed = try await runCurl([
            "-H", "Authorization: Bearer yes", "--data-binary", "@" + upload, server.baseURL + "/up",
        ])
        #expect(allowed.output == String(8 << 20), "\(allowed)")
        #expect(handled.withLock { $0 } == 1)
        #expect(admitted.withLock { $0 } == ["POST /up 0", "POST /up 0"])
    }
}
