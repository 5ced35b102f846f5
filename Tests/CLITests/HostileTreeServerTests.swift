import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `download -r` and `upload -r` against an https loopback server that plays SharePoint just far enough to break
/// them: a folder that lists itself among its children, a file that shrinks while its chunks go up. Each run is
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

    /// A site whose files answer "hi" and whose folder `X` lists `files(X)` and `folders(X)` (JSON objects), every
    /// request kept in `log`.
    static func treeSite(
        _ log: HostileServerTests.Log, files: @escaping @Sendable (String) -> [String],
        folders: @escaping @Sendable (String) -> [String]
    ) async throws -> HostileServerTests.SecureSite {
        try await HostileServerTests.SecureSite { request in
            log.add(request)
            if request.path.hasSuffix("/$value") {
                return HTTPServerResponse(status: 200, contentType: "application/octet-stream", text: "hi")
            }
            guard let (url, rest) = folder(of: request.path) else { return notFound }
            switch rest.lowercased() {
            case "/files": return json(#"{"value":[\#(files(url).joined(separator: ","))]}"#)
            case "/folders": return json(#"{"value":[\#(folders(url).joined(separator: ","))]}"#)
            default: return notFound
            }
        }
    }

    /// `/Loop` lists itself as its child `Self`, and a child `Again` whose own child `Again` has the same unique
    /// id at a new URL. Each folder is read once, both repeats are named, and the files of the two real folders
    /// arrive.
    @Test func aFolderThatListsItselfIsReadOnceAndNamed() async throws {
        let log = HostileServerTests.Log()
        let againId = "2b9b8a2e-0000-4000-8000-00000000a9a1"
        let site = try await Self.treeSite(
            log, files: { [HostileTreeServerTests.file($0 + "/a.txt", length: 2)] },
            folders: { url in
                var children = [#"{"Name":"Again","ServerRelativeUrl":"\#(url)/Again","UniqueId":"\#(againId)"}"#]
                if url == "/Loop" {
                    children.append(
                        #"{"Name":"Self","ServerRelativeUrl":"/Loop","UniqueId":"5e1f5e1f-0000-4000-8000-00000000000f"}"#
                    )
                }
                return children
            })
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

    /// `/Top` holds two files and lists a child `Sub`, which the server answers with the same two files (their own
    /// URLs and ids, under `/Top`) and `/Top` again as its child: each remote file is fetched once (issue #36: it
    /// was four results for two files), the repeats are named, and the cycle is not followed.
    @Test func filesListedAgainThroughACycleAreFetchedOnce() async throws {
        let log = HostileServerTests.Log()
        let site = try await Self.treeSite(
            log,
            files: { _ in
                [
                    HostileTreeServerTests.file("/Top/a.txt", length: 2, id: "0a0a0a0a-0000-4000-8000-00000000000a"),
                    HostileTreeServerTests.file("/Top/b.txt", length: 2, id: "0b0b0b0b-0000-4000-8000-00000000000b"),
                ]
            },
            folders: { url in
                url == "/Top"
                    ? [
                        #"{"Name":"Sub","ServerRelativeUrl":"/Top/Sub","UniqueId":"5b5b5b5b-0000-4000-8000-000000000005"}"#
                    ]
                    : [
                        #"{"Name":"Again","ServerRelativeUrl":"/Top","UniqueId":"70707070-0000-4000-8000-000000000007"}"#
                    ]
            })
        defer { site.stop() }
        let into = try temporaryDirectory("cycle")
        defer { try? FileManager.default.removeItem(atPath: into) }

        let result = try await site.run(["download", "-r", "/Top", "--to", into, "-o", "ndjson", "--timeout", "30"])
        let rows = try TreeTransferCLITests.lines(result.stdout)
        let downloaded = rows.filter { $0["result"] as? String == "downloaded" }
        #expect(downloaded.count == 2, "\(result.stdout)")
        let fetches = log.all.filter { $0.target.hasSuffix("/$value") }
        #expect(fetches.count == 2, "fetched: \(fetches.map(\.target))")
        #expect(result.stderr.contains("lists this file again under another folder"), "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: into + "/a.txt") == Data("hi".utf8))
        #expect(!FileManager.default.fileExists(atPath: into + "/Sub/a.txt"))
    }

    /// A 12 MiB file (chunked, 10 MiB chunks) cut to 10 MiB by the server while it takes the first chunk: the
    /// upload of that file fails as a local error naming it, after no empty chunk, and the small file arrives.
    @Test func aFileThatShrinksWhileUploadingFailsAloneWithItsReason() async throws {
        let local = try temporaryDirectory("shrink")
        defer { try? FileManager.default.removeItem(atPath: local) }
        let big = local + "/big.bin"
        #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 12 << 20)))
        #expect(FileManager.default.createFile(atPath: local + "/small.txt", contents: Data("small\n".utf8)))
        let log = HostileServerTests.Log()
        let site = try await HostileServerTests.SecureSite { request in
            log.add(request)
            let path = request.path
            if path.hasSuffix("/contextinfo") {
                return HostileTreeServerTests.json(#"{"FormDigestValue":"0x1,1 Jan","FormDigestTimeoutSeconds":1800}"#)
            }
            if path.contains("/StartUpload(") {
                truncate(big, 10 << 20)
                return HostileTreeServerTests.json(#"{"value":"\#(request.body.count)"}"#)
            }
            if let range = path.range(of: #"fileOffset=\d+"#, options: .regularExpression),
                let offset = Int(path[range].dropFirst("fileOffset=".count))
            {
                if path.contains("/FinishUpload(") {
                    return HostileTreeServerTests.json(HostileTreeServerTests.file("/Up/big.bin", length: offset))
                }
                return HostileTreeServerTests.json(#"{"value":"\#(offset + request.body.count)"}"#)
            }
            if path.contains("/CancelUpload(") { return HTTPServerResponse(status: 200) }
            if let start = path.range(of: "/Files/add(url='"),
                let end = path.range(of: "'", range: start.upperBound..<path.endIndex)
            {
                let name = path[start.upperBound..<end.lowerBound]
                return HostileTreeServerTests.json(
                    HostileTreeServerTests.file(
                        "/Up/\(name)", length: request.body.count, id: "6f0c3a51-0000-4000-8000-00000000b16b"))
            }
            if HostileTreeServerTests.folder(of: path) != nil { return HostileTreeServerTests.json(#"{"value":[]}"#) }
            return HostileTreeServerTests.notFound
        }
        defer { site.stop() }

        let result = try await site.run(["upload", "-r", local, "--to", "/Up", "-o", "ndjson", "--timeout", "30"])
        #expect(result.status == 1, "\(result.stderr)")
        let rows = try TreeTransferCLITests.lines(result.stdout)
        let bigRow = rows.first { ($0["path"] as? String)?.hasSuffix("/big.bin") == true }
        #expect(bigRow?["result"] as? String == "failed (local file)", "\(result.stdout)")
        let smallRow = rows.first { ($0["path"] as? String)?.hasSuffix("/small.txt") == true }
        #expect(smallRow?["result"] as? String == "uploaded", "\(result.stdout)")
        #expect(result.stderr.contains("big.bin changed size while uploading"), "\(result.stderr)")
        let targets = log.all.map { $0.target.removingPercentEncoding ?? $0.target }
        let chunks = targets.filter { $0.contains("/ContinueUpload(") }
        #expect(chunks.isEmpty, "\(chunks.count) ContinueUpload requests after the file shrank")
        #expect(targets.contains { $0.contains("/CancelUpload(") }, "the upload session was not cancelled")
    }
}
