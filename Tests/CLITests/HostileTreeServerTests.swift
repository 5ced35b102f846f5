import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `download -r` and `upload -r` against an https loopback server that plays SharePoint just far enough to break
/// them: a folder that lists itself among its children. Each run is
/// bounded by `--timeout`, so a client that loops fails the test instead of hanging it.
@Suite struct HostileTreeServerTests {
    /// The folder URL `X` of a `…/GetFolderByServerRelativeUrl('X')/…` request path, and the rest after it.
    static func folder(of path: String) -> (url: String, rest: String)? {
        guard let start = path.range(of: "GetFolderByServerRelativeUrl('"),
            let end = path.range(of: "')", range: start.upperBound..<path.endIndex)
        else { return nil }
        return (String(path[start.upperBound..<end.lowerBound]), String(path[end.upperBound...]))
    }

    static func json(_ text: String) -> HTTPServerResponse {
        HTTPServerResponse(status: 200, contentType: "application/json;odata=nometadata;charset=utf-8", text: text)
    }

    static func file(_ url: String, length: Int, id: String = UUID().uuidString) -> String {
        let name = (url as NSString).lastPathComponent
        return #"{"Name":"\#(name)","ServerRelativeUrl":"\#(url)","Length":"\#(length)","#
            + #""TimeLastModified":"2026-01-02T03:04:05Z","UniqueId":"\#(id)"}"#
    }

    static let notFound = HTTPServerResponse(
        status: 404, contentType: "application/json;odata=nometadata",
        text: #"{"odata.error":{"code":"-2147024894, System.IO.FileNotFoundException","message":{"value":"none"}}}"#)

    /// `/Loop` lists itself as its child `Self`, and a child `Again` whose own child `Again` has the same unique
    /// id at a new URL. Each folder is read once, both repeats are named, and the files of the two real folders
    /// arrive.
    @Test func aFolderThatListsItselfIsReadOnceAndNamed() async throws {
        let log = HostileServerTests.Log()
        let againId = "2b9b8a2e-0000-4000-8000-00000000a9a1"
        let site = try await HostileServerTests.SecureSite { request in
            log.add(request)
            if request.path.hasSuffix("/$value") {
                return HTTPServerResponse(status: 200, contentType: "application/octet-stream", text: "hi")
            }
            guard let (url, rest) = HostileTreeServerTests.folder(of: request.path) else {
                return HostileTreeServerTests.notFound
            }
            switch rest.lowercased() {
            case "/files":
                return HostileTreeServerTests.json(
                    #"{"value":[\#(HostileTreeServerTests.file(url + "/a.txt", length: 2))]}"#)
            case "/folders":
                var children = [
                    #"{"Name":"Again","ServerRelativeUrl":"\#(url)/Again","UniqueId":"\#(againId)"}"#
                ]
                if url == "/Loop" {
                    children.append(
                        #"{"Name":"Self","ServerRelativeUrl":"/Loop","UniqueId":"5e1f5e1f-0000-4000-8000-00000000000f"}"#
                    )
                }
                return HostileTreeServerTests.json(#"{"value":[\#(children.joined(separator: ","))]}"#)
            default:
                return HostileTreeServerTests.notFound
            }
        }
        defer { site.stop() }
        let into = try temporaryDirectory("loop")
        defer { try? FileManager.default.removeItem(atPath: into) }

        let result = try await site.run([
            "download", "-r", "/Loop", "--to", into, "-o", "ndjson", "--timeout", "30",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let rows = try TreeTransferCLITests.lines(result.stdout)
        let loops = rows.filter { $0["result"] as? String == "refused (loop)" }
        #expect(
            Set(loops.compactMap { $0["serverRelativeUrl"] as? String }) == ["/Loop", "/Loop/Again/Again"],
            "\(result.stdout)")
        #expect(rows.filter { $0["result"] as? String == "downloaded" }.count == 2, "\(result.stdout)")
        #expect(result.stderr.contains("lists this folder again below itself"), "\(result.stderr)")
        let listings = log.all.filter { ($0.target.removingPercentEncoding ?? $0.target).contains("/Folders") }
        #expect(listings.count == 2, "folder listings: \(listings.map(\.target))")
        #expect(FileManager.default.contents(atPath: into + "/Again/a.txt") == Data("hi".utf8))
    }
}
