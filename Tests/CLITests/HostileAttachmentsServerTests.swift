import Foundation
import HTTPServer
import TestSupport
import Testing

/// `attachments --download` against an https loopback server whose attachment names try to leave the folder
/// (`../escape.txt`, `sub/inner.txt`, `..`) or whose bytes break off: nothing lands outside DIR, nothing half-written
/// is left, and the other attachments still arrive.
@Suite struct HostileAttachmentsServerTests {
    static func json(_ text: String) -> HTTPServerResponse {
        HTTPServerResponse(status: 200, contentType: "application/json;odata=nometadata;charset=utf-8", text: text)
    }

    @Test func namesThatLeaveTheFolderAreRefusedAndTheOthersArrive() async throws {
        let names = ["../escape.txt", "sub/inner.txt", "..", "ok.txt", "broken.txt"]
        let site = try await HostileServerTests.SecureSite { request in
            let path = request.path
            if path.hasSuffix("/AttachmentFiles") {
                let entries = names.map { name in
                    let escaped = name.replacingOccurrences(of: "\"", with: "\\\"")
                    return #"{"FileName":"\#(escaped)","ServerRelativeUrl":"/Lists/T/Attachments/1/\#(escaped)"}"#
                }
                return Self.json(#"{"value":[\#(entries.joined(separator: ","))]}"#)
            }
            if path.contains("broken.txt") {
                // Announces more than it sends: the transfer fails short.
                return HTTPServerResponse(
                    status: 200, headers: [("Content-Type", "application/octet-stream")],
                    body: .stream(length: 100_000) { .end })
            }
            if path.hasSuffix("/$value") {
                return HTTPServerResponse(
                    status: 200, contentType: "application/octet-stream", text: "bytes of \(path)")
            }
            return HTTPServerResponse(
                status: 404, contentType: "application/json;odata=nometadata",
                text: #"{"odata.error":{"code":"-1, System.ArgumentException","message":{"value":"none"}}}"#)
        }
        defer { site.stop() }
        let scratch = try temporaryDirectory("hostile-attachments")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let into = scratch + "/inside/dir"

        let result = try await site.run([
            "attachments", "/Lists/T", "1", "--download", into, "-o", "json", "--timeout", "30",
        ])
        #expect(result.status != 0, "\(result.stdout)")
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stdout)")
        #expect(rows.map { $0["name"] as? String } == names)
        #expect(
            rows.map { $0["result"] as? String }
                == ["refused (name)", "refused (name)", "refused (name)", "downloaded", rows[4]["result"] as? String])
        #expect((rows[4]["result"] as? String)?.hasPrefix("failed") == true, "\(rows[4])")
        #expect(try FileManager.default.contentsOfDirectory(atPath: into) == ["ok.txt"], "only ok.txt, nothing partial")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/inside/escape.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/inside") == ["dir"])
    }
}
