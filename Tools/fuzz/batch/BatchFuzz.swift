// Fuzz target: the `$batch` answer reader (Modules/SharePoint/BatchResponse.swift, through `@testable import`), which
// `SharePointSite.batchWrite` matches to its changes by position.
//
// Input: the answer's Content-Type up to the first LF, then its body. Oracles: an answer that reads has no more parts
// than `HTTP/` status lines and every status is from 100 to 599; its parts, written again as SharePoint writes an
// answer (a changeset in a batch), read back to the same statuses, headers and bodies; and that answer cut short
// anywhere before its closing delimiter never reads (a truncated answer is never taken for a whole one).
import Foundation
import FuzzSupport

@testable import SharePoint

func fuzzBatch(_ bytes: [UInt8]) {
    var reader = FuzzReader(bytes)
    let contentType = reader.text(upTo: 0x0A)
    let body = reader.rest()
    guard let parts = try? BatchResponse.parts(body, contentType: contentType) else { return }
    let statusLines = body.indices.filter { body[$0...].starts(with: Array("HTTP/".utf8)) }.count
    Fuzz.check(parts.count <= statusLines, "\(parts.count) parts from \(statusLines) status lines")
    for part in parts { Fuzz.check((100..<600).contains(part.status), "a part with status \(part.status)") }

    let batch = "batchresponse_f0a1", changeset = "changesetresponse_b2c3"
    // A part holding one of the boundaries would end the answer early when written again: not an answer's parts.
    let holdsBoundary = parts.contains { part in
        let text = Fuzz.text(part.body) + part.headers.map { $0.0 + $0.1 }.joined()
        return text.contains(batch) || text.contains(changeset)
    }
    guard !holdsBoundary else { return }
    let written = answer(parts, batch: batch, changeset: changeset)
    let type = "multipart/mixed; boundary=\(batch)"
    do {
        let again = try BatchResponse.parts(Array(written.utf8), contentType: type)
        Fuzz.check(again.count == parts.count, "\(again.count) parts read back from \(parts.count) written")
        for (old, new) in zip(parts, again) {
            Fuzz.check(
                old.status == new.status && old.body == new.body
                    && old.headers.map { [$0.0, $0.1] } == new.headers.map { [$0.0, $0.1] },
                "a part reads back differently:\n\(written)")
        }
    } catch {
        Fuzz.check(false, "a written answer does not read (\(error.reason)):\n\(written)")
    }
    // Cut before the end of its closing delimiter (at a place the input picks), it must not read.
    let closing = Array(written.utf8).count - "\r\n".utf8.count
    let cut = Int(bytes.first ?? 0) * 7919 % max(1, closing)
    let short = Array(Array(written.utf8)[..<cut])
    Fuzz.check(
        (try? BatchResponse.parts(short, contentType: type)) == nil,
        "an answer cut at byte \(cut) of \(closing) reads as whole")
}

/// `parts` as SharePoint writes a `$batch` answer: one changeset of `application/http` parts in the batch.
func answer(_ parts: [BatchResponse.Part], batch: String, changeset: String) -> String {
    var text = "--\(batch)\r\nContent-Type: multipart/mixed; boundary=\(changeset)\r\n\r\n"
    for part in parts {
        text += "--\(changeset)\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        text += "HTTP/1.1 \(part.status) Reason\r\n"
        for (name, value) in part.headers { text += "\(name): \(value)\r\n" }
        // CRLF line ends in the body too: the reader drops one CR before each LF, so a CR the body ends a line
        // with survives.
        let lines = Fuzz.text(part.body).unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        text += "\r\n" + lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\r\n") + "\r\n"
    }
    return text + "--\(changeset)--\r\n--\(batch)--\r\n"
}

/// An answer of three parts (a created item, a change, a failure), one with LF line ends and quoted boundary, and
/// one whose parts are not in a changeset.
let seeds = [
    "multipart/mixed; boundary=batchresponse_1\n--batchresponse_1\r\nContent-Type: multipart/mixed; "
        + "boundary=changesetresponse_2\r\n\r\n--changesetresponse_2\r\nContent-Type: application/http\r\n"
        + "Content-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 201 Created\r\nCONTENT-TYPE: application/json;"
        + "odata=nometadata\r\nETAG: \"1\"\r\n\r\n{\"Id\":3,\"Title\":\"Monitor\"}\r\n--changesetresponse_2\r\n"
        + "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 204 No Content\r\n"
        + "ETAG: \"2\"\r\n\r\n\r\n--changesetresponse_2\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 404 Not Found"
        + "\r\nCONTENT-TYPE: application/json\r\n\r\n{\"odata.error\":{\"code\":\"-2147024809, System.ArgumentException"
        + "\",\"message\":{\"lang\":\"en-US\",\"value\":\"Item does not exist.\"}}}\r\n--changesetresponse_2--\r\n"
        + "--batchresponse_1--\r\n",
    "multipart/mixed; boundary=\"b\"\n--b\nContent-Type: multipart/mixed; boundary=c\n\n--c\n"
        + "Content-Type: application/http\n\nHTTP/1.1 200 OK\n\n--c--\n--b--\n",
    "multipart/mixed;boundary=b\n--b\nContent-Type: application/http\n\nHTTP/1.1 500 Error\n\nboom\n--b  \n"
        + "Content-Type: application/http\n\nHTTP/1.0 429 Too Many\nRetry-After: 5\n\n--b--\nepilogue",
]

@main enum Main {
    static func main() { Fuzz.main(fuzzBatch, seeds: seeds) }
}
