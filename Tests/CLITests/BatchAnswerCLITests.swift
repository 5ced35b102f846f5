import Foundation
import JSON
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `add`/`update --from` and `delete LIST ID...` against a raw loopback site whose `$batch` answers are broken: cut
/// short, a part missing or one too many, the wrong boundary, no closing delimiter, not multipart, a 500. The server
/// got the batch and may have written some of it, so its rows are `unknown` (never `not sent`, which a rerun would
/// write twice), the summary says what to check, and the batch is never sent again. `not sent` is kept for batches
/// that never reached the server: refused connections, and the batches after the one that failed.
@Suite struct BatchAnswerCLITests {
    /// How the site answers a `$batch`.
    enum Shape: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case cutShort, missingPart, extraPart, wrongBoundary, unclosed, notMultipart, serverError, good

        var testDescription: String { rawValue }
    }

    /// A site with one list, `Assets` (a text field `Title`), that answers batch number `n` (from 1) with
    /// `shapes[n - 1]` (`good` past the end).
    final class Site: Sendable {
        let server: RawHTTPSite
        let state: String
        let environment: [String: String]

        init(_ shapes: [Shape], refuseAfterDigest: Bool = false) throws {
            server = try RawHTTPSite { request in
                Site.answer(request, shapes: shapes, refuseAfterDigest: refuseAfterDigest)
            }
            let (state, sessions) = try HostileServerTests.stateFolder(sessionsMode: 0o700)
            self.state = state
            let path = sessions + "/default.cookies"
            try HostileServerTests.sessionFile(site: server.baseURL, host: "127.0.0.1").write(
                toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
            environment = ["XDG_STATE_HOME": state, "HOME": state]
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(atPath: state)
        }

        /// The `$batch` requests the site got.
        var batches: [RawHTTPSite.Request] { server.requests.filter { $0.path.lowercased() == "/_api/$batch" } }

        func run(_ arguments: [String], stdin: String? = nil) async throws -> RunResult {
            try await runSpconnect(arguments, stdin: stdin, environment: environment)
        }

        static let json = "application/json;odata=nometadata;charset=utf-8"

        static func answer(_ request: RawHTTPSite.Request, shapes: [Shape], refuseAfterDigest: Bool)
            -> RawHTTPSite.Answer
        {
            let path = request.path.lowercased()
            if path.hasSuffix("/fields") {
                let field = #"{"InternalName":"Title","Title":"Title","TypeAsString":"Text","ReadOnlyField":false}"#
                return .bytes(RawHTTPSite.response(status: 200, contentType: json, body: #"{"value":[\#(field)]}"#))
            }
            if path == "/_api/contextinfo" {
                let digest = RawHTTPSite.response(
                    status: 200, contentType: json,
                    body: #"{"FormDigestValue":"0x1,01 Jan 2026","FormDigestTimeoutSeconds":1800}"#)
                return refuseAfterDigest ? .bytesThenRefuse(digest) : .bytes(digest)
            }
            guard path == "/_api/$batch" else {
                return .bytes(RawHTTPSite.response(status: 404, contentType: json, body: "{}"))
            }
            let number = batchIndex(of: request)
            return .bytes(batchAnswer(request, shape: number < shapes.count ? shapes[number] : .good))
        }

        /// Which batch this is (from 0), read from its first title: rows are titled `Row N`, 100 a batch (an update
        /// or a delete is always batch 0 here).
        static func batchIndex(of request: RawHTTPSite.Request) -> Int {
            let body = String(decoding: request.body, as: UTF8.self)
            guard let range = body.range(of: "\"Title\":\"Row ") else { return 0 }
            let digits = body[range.upperBound...].prefix { $0.isNumber }
            return ((Int(digits) ?? 1) - 1) / 100
        }

        /// The answer to a batch of the request's changes in `shape`.
        static func batchAnswer(_ request: RawHTTPSite.Request, shape: Shape) -> [UInt8] {
            let changes =
                String(decoding: request.body, as: UTF8.self).components(separatedBy: "application/http")
                .count - 1
            let count = shape == .missingPart ? changes - 1 : shape == .extraPart ? changes + 1 : changes
            let batch = "batchresponse_1b2c"
            let changeset = "changesetresponse_3d4e"
            var body = "--\(batch)\r\nContent-Type: multipart/mixed; boundary=\(changeset)\r\n\r\n"
            for index in 0..<count {
                body += "--\(changeset)\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                body += "HTTP/1.1 201 Created\r\nCONTENT-TYPE: \(json)\r\n\r\n{\"Id\":\(100 + index)}\r\n"
            }
            body += "--\(changeset)--\r\n--\(batch)--\r\n"
            let type = "multipart/mixed; boundary=\(batch)"
            switch shape {
            case .cutShort:
                let half = String(body.prefix(body.utf8.count / 2))
                return RawHTTPSite.response(
                    status: 200, contentType: type, body: half, declaredLength: body.utf8.count)
            case .wrongBoundary:
                return RawHTTPSite.response(
                    status: 200, contentType: "multipart/mixed; boundary=batchresponse_other", body: body)
            case .unclosed:
                let cut = body.range(of: "--\(changeset)--")?.lowerBound ?? body.endIndex
                return RawHTTPSite.response(status: 200, contentType: type, body: String(body[..<cut]))
            case .notMultipart:
                return RawHTTPSite.response(
                    status: 200, contentType: "text/html", body: "<html><body>Service unavailable</body></html>")
            case .serverError:
                return RawHTTPSite.response(
                    status: 500, contentType: json,
                    body: #"{"odata.error":{"code":"-2146232832, Microsoft.SharePoint.SPException","#
                        + #""message":{"lang":"en-US","value":"Unexpected error in the batch."}}}"#)
            case .missingPart, .extraPart, .good:
                return RawHTTPSite.response(status: 200, contentType: type, body: body)
            }
        }
    }

    /// The NDJSON lines of `text`, parsed.
    func objects(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    func csv(rows: ClosedRange<Int>) -> String {
        "Title\n" + rows.map { "Row \($0)\n" }.joined()
    }

    /// A broken answer to the only batch: every row `unknown` with why, the summary names the rows and the
    /// command to check them with, the batch is sent once, and the exit code is the batch failure's.
    @Test(arguments: Shape.allCases.filter { $0 != .good })
    func aBrokenBatchAnswerLeavesItsRowsUnknownWithWhatToCheck(shape: Shape) async throws {
        let site = try Site([shape])
        let result = try await site.run(["add", "Assets", "--from", "-", "--format", "csv"], stdin: csv(rows: 1...3))
        #expect(result.status == (shape == .cutShort ? 6 : 1), "\(result.stderr)")
        let results = try objects(result.stdout)
        #expect(results.map { $0["status"]?.stringValue } == ["unknown", "unknown", "unknown"], "\(result.stdout)")
        for row in results {
            #expect(row["error"]?.stringValue?.contains("may have been written") == true, "\(row)")
        }
        #expect(result.stderr.contains("3 rows: 0 written, 0 failed, 3 unknown"), "\(result.stderr)")
        #expect(
            result.stderr.contains("rows 1-3 may have been created: check 'spconnect items Assets"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("not sent"), "\(result.stderr)")
        #expect(site.batches.count == 1, "a batch the server may have written is never sent again")
    }

    /// Three batches: the first answered, the second broken, the third never started. Rows 1-100 are created,
    /// 101-200 unknown, 201-250 not sent.
    @Test func onlyTheBatchesAfterTheBrokenOneAreNotSent() async throws {
        let site = try Site([.good, .wrongBoundary])
        let result = try await site.run(
            ["add", "Assets", "--from", "-", "--format", "csv"], stdin: csv(rows: 1...250))
        #expect(result.status == 1, "\(result.stderr)")
        let statuses = try objects(result.stdout).map { $0["status"]?.stringValue ?? "" }
        #expect(statuses.count == 250)
        #expect(statuses[0..<100].allSatisfy { $0 == "created" })
        #expect(statuses[100..<200].allSatisfy { $0 == "unknown" }, "\(Set(statuses[100..<200]))")
        #expect(statuses[200...].allSatisfy { $0 == "not sent" }, "\(Set(statuses[200...]))")
        #expect(
            result.stderr.contains("250 rows: 100 written, 0 failed, 50 not sent, 100 unknown"), "\(result.stderr)")
        #expect(result.stderr.contains("rows 101-200 may have been created"), "\(result.stderr)")
        #expect(site.batches.count == 2)
    }

    /// A batch whose connection is refused never reached the server: its rows are `not sent` (exit 6), and
    /// nothing is called unknown.
    @Test func aBatchThatNeverReachedTheServerIsNotSent() async throws {
        let site = try Site([], refuseAfterDigest: true)
        let result = try await site.run(["add", "Assets", "--from", "-", "--format", "csv"], stdin: csv(rows: 1...3))
        #expect(result.status == 6, "\(result.stderr)")
        let statuses = try objects(result.stdout).map { $0["status"]?.stringValue ?? "" }
        #expect(statuses == ["not sent", "not sent", "not sent"], "\(result.stdout)")
        #expect(result.stderr.contains("3 rows: 0 written, 0 failed, 3 not sent"), "\(result.stderr)")
        #expect(!result.stderr.contains("unknown"), "\(result.stderr)")
        #expect(site.batches.isEmpty)
    }

    /// `update --from`: the summary names the items whose change is unknown.
    @Test func anUpdateWithABrokenAnswerNamesTheItemsToCheck() async throws {
        let site = try Site([.serverError])
        let result = try await site.run(
            ["update", "Assets", "--from", "-", "--format", "csv"], stdin: "Id,Title\n7,a\n9,b\n12,c\n")
        #expect(result.status == 1, "\(result.stderr)")
        let results = try objects(result.stdout)
        #expect(results.map { $0["status"]?.stringValue } == ["unknown", "unknown", "unknown"], "\(result.stdout)")
        #expect(results.map { $0["id"]?.intValue } == [7, 9, 12], "the item each row names")
        #expect(
            result.stderr.contains("rows 1-3 (items 7, 9, 12) may have been changed: check 'spconnect item Assets ID'"),
            "\(result.stderr)")
        #expect(site.batches.count == 1)
    }

    /// `delete LIST ID...`: every id of the broken batch is `unknown`, the ids after it `not tried`, the failure
    /// printed once, and the note names the ids to check.
    @Test(arguments: [Shape.serverError, .missingPart])
    func deletesWithABrokenAnswerAreUnknownNotFailedOrNotTried(shape: Shape) async throws {
        let site = try Site([shape])
        let ids = (1...101).map(String.init)
        let result = try await site.run(["delete", "Assets"] + ids + ["-o", "csv"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 102, "\(result.stdout)")
        #expect(lines.dropFirst().prefix(100) == ArraySlice((1...100).map { "\($0),unknown" }), "\(result.stdout)")
        #expect(lines.last == "101,not tried")
        #expect(result.stderr.components(separatedBy: "spconnect delete:").count == 2, "one error: \(result.stderr)")
        #expect(
            result.stderr.contains("items 1-100 may have been deleted: check 'spconnect item Assets ID'"),
            "\(result.stderr)")
        #expect(site.batches.count == 1)
    }
}
