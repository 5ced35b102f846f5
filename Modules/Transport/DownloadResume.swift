/// Where a GET streamed to a file picks up again after its connection broke part way: the bytes that arrived, and
/// the validator that proves they belong to the version of the file the rest will come from.
///
/// The retry asks for the rest with `Range: bytes=N-` and `If-Range: VALIDATOR` (RFC 9110 §13.1.5, §14.2). A server
/// that still has that version answers 206 with the rest, which is appended; one whose file changed, or that ignores
/// ranges, answers 200 with the whole body, which is written from the start (the file is emptied first). A
/// download is resumed only when its first answer was a 200 with `Accept-Ranges: bytes`, a strong `ETag` or a
/// `Last-Modified` date, and no content coding (the file holds decoded bytes, a range counts encoded ones);
/// otherwise the retry starts the file afresh.
struct DownloadResume: Sendable {
    /// Bytes already in the file, all of them from the answer being completed.
    let offset: Int64
    /// The strong `ETag`, else the `Last-Modified` date, of that answer: sent as `If-Range`.
    let validator: String
    /// The status of the answer being completed (200): what the caller is given when the rest arrives as a 206.
    let status: Int
    /// That answer's headers, which describe the whole body (a 206's describe only its part).
    let headers: [(name: String, value: String)]

    /// Where to resume `request` after `outcome` (a failed attempt, resumed from `previous` when that is set), or
    /// nil when the retry must start afresh.
    static func after(_ outcome: TransferOutcome, of request: HTTPRequest, previous: DownloadResume?)
        -> DownloadResume?
    {
        guard request.method.uppercased() == "GET", !request.headers.contains("Range"), outcome.fileLength > 0
        else { return nil }
        switch request.responseBody {
        case .file, .descriptor: break
        case .memory, .sink: return nil
        }
        if outcome.resumed, let previous {
            return DownloadResume(
                offset: outcome.fileLength, validator: previous.validator, status: previous.status,
                headers: previous.headers)
        }
        let headers = HTTPHeaders(outcome.headers)
        guard outcome.status == 200, !outcome.resumed,
            headers.values(for: "Accept-Ranges").contains(where: { $0.lowercased().contains("bytes") }),
            (headers["Content-Encoding"] ?? "identity").lowercased() == "identity"
        else { return nil }
        // A weak ETag (`W/"…"`) cannot guard a range (RFC 9110 §13.1.5); a date can.
        let etag = headers["ETag"].flatMap { $0.hasPrefix("W/") || $0.isEmpty ? nil : $0 }
        guard let validator = etag ?? headers["Last-Modified"].flatMap({ $0.isEmpty ? nil : $0 }),
            HTTPFieldValue.isValid(validator)
        else { return nil }
        return DownloadResume(offset: outcome.fileLength, validator: validator, status: 200, headers: outcome.headers)
    }

    /// `request` asking for the bytes from ``offset`` on, if the file is still the same version.
    func request(continuing request: HTTPRequest) -> HTTPRequest {
        var next = request
        next.headers.set("Range", "bytes=\(offset)-")
        next.headers.set("If-Range", validator)
        return next
    }

    /// The first byte a `Content-Range: bytes FIRST-LAST/TOTAL` value covers, or nil when it is not one.
    static func firstByte(ofContentRange value: String) -> Int64? {
        let text = value.trimmingCharacters(in: " ")
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let range = text.dropFirst("bytes ".count).trimmingCharacters(in: " ")
        guard let dash = range.firstIndex(of: "-") else { return nil }
        return Int64(range[..<dash])
    }
}
