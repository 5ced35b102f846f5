import Foundation
import SharePoint
import TestSupport
import Testing
import Transport

/// `batchWrite` against a raw loopback server whose `$batch` answers are broken. Each throws an error that says what
/// was wrong with the answer and that the server may have written the changes (``SharePointError/mayHaveBeenWritten``);
/// a batch that never reached the server, or that the server refused as a whole before doing anything, says not.
@Suite struct BatchAnswerTests {
    /// A site client on `server` with a digest already cached (so the batch is the only request).
    static func site(_ baseURL: String, retries: Int = 1) throws -> SharePointSite {
        let site = SharePointSite(
            client: try HTTPClient(), siteURL: baseURL + "/", readRetry: RetryPolicy(maxAttempts: 1),
            writeRetry: RetryPolicy(maxAttempts: retries))
        site.cacheDigest("0x1,01 Jan 2026 00:00:00 -0000", validFor: .seconds(3600))
        return site
    }

    static let changes = (1...3).map { BatchItemChange(id: nil, fields: [("Title", .string("Row \($0)"))]) }

    /// A well-formed answer of `parts` created items, as SharePoint writes it.
    static func answer(parts: Int, batch: String = "batchresponse_1", changeset: String = "changesetresponse_2")
        -> String
    {
        var body = "--\(batch)\r\nContent-Type: multipart/mixed; boundary=\(changeset)\r\n\r\n"
        for index in 0..<parts {
            body += "--\(changeset)\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
            body += "HTTP/1.1 201 Created\r\nCONTENT-TYPE: application/json;odata=nometadata\r\n\r\n"
            body += "{\"Id\":\(index + 1)}\r\n"
        }
        return body + "--\(changeset)--\r\n--\(batch)--\r\n"
    }

    static let multipart = "multipart/mixed; boundary=batchresponse_1"

    /// Each broken answer, and a word the error's message must hold.
    static let broken: [(name: String, response: [UInt8], reason: String)] = {
        let whole = answer(parts: 3)
        let unclosed = String(whole[..<(whole.range(of: "--changesetresponse_2--")?.lowerBound ?? whole.endIndex)])
        let garbled = whole.replacingOccurrences(of: "HTTP/1.1 201 Created\r\nCONTENT", with: "201 Created\r\nCONTENT")
        return [
            (
                "cut short",
                RawHTTPSite.response(
                    status: 200, contentType: multipart, body: String(whole.prefix(200)),
                    declaredLength: whole.utf8.count), "connection"
            ),
            (
                "missing part", RawHTTPSite.response(status: 200, contentType: multipart, body: answer(parts: 2)),
                "2 parts"
            ),
            (
                "extra part", RawHTTPSite.response(status: 200, contentType: multipart, body: answer(parts: 4)),
                "4 parts"
            ),
            (
                "wrong boundary",
                RawHTTPSite.response(status: 200, contentType: "multipart/mixed; boundary=other", body: whole),
                "no part with its boundary 'other'"
            ),
            (
                "unclosed", RawHTTPSite.response(status: 200, contentType: multipart, body: unclosed),
                "ends before its closing boundary"
            ),
            (
                "not multipart", RawHTTPSite.response(status: 200, contentType: "text/html", body: "<p>hi</p>"),
                "not multipart/mixed"
            ),
            (
                "a part that is not a response",
                RawHTTPSite.response(status: 200, contentType: multipart, body: garbled), "not an HTTP response"
            ),
            (
                "500",
                RawHTTPSite.response(
                    status: 500, contentType: "application/json;odata=nometadata",
                    body: #"{"odata.error":{"code":"-1, System.Exception","message":{"value":"Boom."}}}"#), "Boom."
            ),
        ]
    }()

    @Test(arguments: broken.indices)
    func aBrokenAnswerSaysTheBatchMayHaveBeenWritten(index: Int) async throws {
        let (name, response, reason) = Self.broken[index]
        let server = try RawHTTPSite { _ in .bytes(response) }
        defer { server.stop() }
        let site = try Self.site(server.baseURL, retries: 3)
        let error = await sharePointError { _ = try await site.batchWrite(Self.changes, in: .title("Assets")) }
        #expect(error?.mayHaveBeenWritten == true, "\(name): \(error?.description ?? "no error")")
        #expect(error?.description.contains(reason) == true, "\(name): \(error?.description ?? "")")
        if error?.kind == .unexpectedResponse {
            #expect(
                error?.description.contains("may have written some of the changes") == true,
                "\(name): \(error?.description ?? "")")
        }
        #expect(server.requests.count == 1, "\(name): sent once, never again")
    }

    @Test func aBatchThatNeverReachedTheServerOrWasRefusedAsAWholeWroteNothing() async throws {
        let refusing = try RefusingPort()
        let unreachable = await sharePointError {
            _ = try await Self.site(refusing.baseURL).batchWrite(Self.changes, in: .title("Assets"))
        }
        #expect(unreachable?.kind.transportKind == .connect, "\(unreachable?.description ?? "")")
        #expect(unreachable?.mayHaveBeenWritten == false)

        for status in [401, 429, 503] {
            let server = try RawHTTPSite { _ in
                .bytes(RawHTTPSite.response(status: status, contentType: "text/plain", body: "no"))
            }
            defer { server.stop() }
            let error = await sharePointError {
                _ = try await Self.site(server.baseURL).batchWrite(Self.changes, in: .title("Assets"))
            }
            #expect(error != nil && error?.mayHaveBeenWritten == false, "\(status): \(error?.description ?? "")")
        }
    }

    @Test func aGoodAnswerStillGivesOneOutcomePerChange() async throws {
        let server = try RawHTTPSite { _ in
            .bytes(RawHTTPSite.response(status: 200, contentType: Self.multipart, body: Self.answer(parts: 3)))
        }
        defer { server.stop() }
        let outcomes = try await Self.site(server.baseURL).batchWrite(Self.changes, in: .title("Assets"))
        #expect(outcomes.map(\.id) == [1, 2, 3])
        #expect(outcomes.map(\.status) == [201, 201, 201])
    }
}
