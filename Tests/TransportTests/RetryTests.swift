import Cryptography
import Foundation
import TestSupport
import Testing

@testable import Transport

/// What is retried and how: refused and broken connections, gateway statuses, and downloads cut short (resumed with
/// a range request when the server allows it, else started afresh), against loopback servers of the test's making.
@Suite struct RetryTests {
    /// A policy that retries quickly, so the tests do not wait out real back-offs.
    static func quick(attempts: Int) -> RetryPolicy {
        RetryPolicy(maxAttempts: attempts, baseDelay: .milliseconds(20), maxConnectAttempts: attempts)
    }

    @Test func aServerThatRefusesThreeConnectionsIsReachedOnTheFourthAttempt() async throws {
        let site = try RawHTTPSite(listening: false) { _ in
            .bytes(RawHTTPSite.response(status: 200, contentType: "text/plain", body: "up"))
        }
        defer { site.stop() }
        let records = Collected<TraceRecord>()
        // The trace of each attempt comes before the back-off: the third refusal opens the port.
        let client = try makeClient {
            $0.retry = Self.quick(attempts: 4)
            $0.trace = { record in
                records.append(record)
                if records.values.count == 3 { try? site.startListening() }
            }
        }
        let response = try await client.execute(HTTPRequest(url: site.baseURL + "/"))
        #expect(response.status == 200 && response.attempts == 4)
        #expect(String(decoding: response.body, as: UTF8.self) == "up")
        #expect(records.values.prefix(3).allSatisfy { $0.error?.contains("could not connect") == true })
        #expect(records.values.prefix(3).allSatisfy { $0.retryIn != nil }, "each retry is announced")
        #expect(records.values.last?.retryIn == nil)
    }

    @Test func aConnectionClosedWithoutAnAnswerIsRetriedForAGetButNotForAPost() async throws {
        let count = Collected<Int>()
        // The first GET, and every POST, get nothing at all: the connection closes before any answer.
        let site = try RawHTTPSite { request in
            count.append(1)
            return count.values.count == 1 || request.method == "POST"
                ? .bytes([]) : .bytes(RawHTTPSite.response(status: 200, contentType: "text/plain", body: "ok"))
        }
        defer { site.stop() }
        let client = try makeClient { $0.retry = Self.quick(attempts: 3) }
        let response = try await client.execute(HTTPRequest(url: site.baseURL + "/"))
        #expect(response.status == 200 && response.attempts == 2)
        let before = count.values.count
        let error = await transportError {
            _ = try await client.execute(HTTPRequest(method: "POST", url: site.baseURL + "/", body: .bytes([1])))
        }
        #expect(error?.kind == .network, "\(String(describing: error))")
        #expect(count.values.count == before + 1, "a POST that may have reached the server is never repeated")
    }

    @Test func gatewayStatusesAreRetriedForIdempotentMethodsOnly() async throws {
        let seen = Collected<String>()
        let site = try RawHTTPSite { request in
            seen.append(request.method)
            let first = seen.values.filter { $0 == request.method }.count == 1
            return .bytes(
                RawHTTPSite.response(
                    status: first || request.method == "POST" ? 502 : 200, contentType: "text/plain", body: "x"))
        }
        defer { site.stop() }
        let client = try makeClient { $0.retry = Self.quick(attempts: 3) }
        let get = try await client.execute(HTTPRequest(url: site.baseURL + "/"))
        #expect(get.status == 200 && get.attempts == 2)
        let post = try await client.execute(HTTPRequest(method: "POST", url: site.baseURL + "/", body: .bytes([1])))
        #expect(post.status == 502 && post.attempts == 1)
    }

    /// 6 MiB of bytes that differ from one position to the next (a cut or a doubled part shows in the hash).
    static let large: [UInt8] = {
        var state: UInt32 = 2_463_534_242
        return (0..<(6 << 20)).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }()

    /// An answer with `body` (or its first `sent` bytes, the connection then closing short of `Content-Length`).
    static func answer(status: Int = 200, headers: [String], body: ArraySlice<UInt8>, sent: Int? = nil) -> [UInt8] {
        let head =
            (["HTTP/1.1 \(status) X", "Content-Type: application/octet-stream", "Content-Length: \(body.count)"]
            + headers + ["Connection: close", "", ""]).joined(separator: "\r\n")
        return Array(head.utf8) + body.prefix(sent ?? body.count)
    }

    @Test func aDownloadCutShortIsResumedFromWhereItStopped() async throws {
        let whole = Self.large
        let half = whole.count / 2
        let site = try RawHTTPSite { request in
            let validators = [
                "Accept-Ranges: bytes", "ETag: \"{F00D},7\"", "Last-Modified: Tue, 01 Dec 2026 10:00:00 GMT",
            ]
            guard let range = request.header("Range"), request.header("If-Range") == "\"{F00D},7\"",
                let first = Int(range.dropFirst("bytes=".count).dropLast())
            else { return .bytes(Self.answer(headers: validators, body: whole[...], sent: half)) }
            return .bytes(
                Self.answer(
                    status: 206,
                    headers: validators + ["Content-Range: bytes \(first)-\(whole.count - 1)/\(whole.count)"],
                    body: whole[first...]))
        }
        defer { site.stop() }
        let folder = URL(fileURLWithPath: try temporaryDirectory("transport"))
        defer { try? FileManager.default.removeItem(at: folder) }
        // The way SharePoint's downloads write: through a descriptor the caller holds open.
        let path = folder.appendingPathComponent("big.bin").path
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        let progress = Collected<Int64>()
        let client = try makeClient { $0.retry = Self.quick(attempts: 3) }
        let response = try await client.execute(
            HTTPRequest(
                url: site.baseURL + "/big.bin", responseBody: .descriptor(fd, name: path),
                progress: { progress.append($0.bytesReceived) }))
        #expect(response.status == 200 && response.attempts == 2, "the answer completed, as the caller asked for it")
        #expect(response.headers["Content-Length"] == "\(whole.count)")
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.count == whole.count)
        #expect(MessageDigest.hash(.sha256, written) == MessageDigest.hash(.sha256, whole), "the file is intact")
        let requests = site.requests
        #expect(requests.count == 2)
        #expect(requests.first?.header("Range") == nil)
        #expect(requests.last?.header("Range") == "bytes=\(half)-", "only the missing half was asked for")
        #expect(progress.values.last == Int64(whole.count), "progress counts the kept bytes too")
    }

    @Test func aDownloadWithNothingToCheckTheRestAgainstStartsAfresh() async throws {
        let whole = Self.large
        let count = Collected<Int>()
        let site = try RawHTTPSite { _ in
            count.append(1)
            // Ranges, but neither an ETag nor a date to tell whether the file changed in between.
            return .bytes(
                Self.answer(
                    headers: ["Accept-Ranges: bytes"], body: whole[...],
                    sent: count.values.count == 1 ? whole.count / 3 : nil))
        }
        defer { site.stop() }
        let folder = URL(fileURLWithPath: try temporaryDirectory("transport"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.bin").path
        let client = try makeClient { $0.retry = Self.quick(attempts: 3) }
        let response = try await client.execute(HTTPRequest(url: site.baseURL + "/", responseBody: .file(path: path)))
        #expect(response.status == 200 && response.attempts == 2)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(MessageDigest.hash(.sha256, written) == MessageDigest.hash(.sha256, whole), "not the part twice")
        #expect(site.requests.allSatisfy { $0.header("Range") == nil })
    }

    @Test func aFileThatChangedMeanwhileArrivesWholeInItsNewVersion() async throws {
        let old = Self.large
        let new = Array(old.reversed().prefix(old.count - 1000))
        let count = Collected<Int>()
        let site = try RawHTTPSite { _ in
            count.append(1)
            // The second answer ignores the range: its ETag is not the one `If-Range` names.
            return count.values.count == 1
                ? .bytes(Self.answer(headers: ["Accept-Ranges: bytes", "ETag: \"v1\""], body: old[...], sent: 4096))
                : .bytes(Self.answer(headers: ["Accept-Ranges: bytes", "ETag: \"v2\""], body: new[...]))
        }
        defer { site.stop() }
        let folder = URL(fileURLWithPath: try temporaryDirectory("transport"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.bin").path
        let client = try makeClient { $0.retry = Self.quick(attempts: 3) }
        let response = try await client.execute(HTTPRequest(url: site.baseURL + "/", responseBody: .file(path: path)))
        #expect(response.status == 200 && response.headers["ETag"] == "\"v2\"")
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == new, "the old version's first bytes are gone")
        #expect(site.requests.last?.header("If-Range") == "\"v1\"")
    }
}
