internal import CCurl
internal import CCurlShims

#if canImport(Glibc)
    internal import Glibc
#endif

/// What one finished transfer produced; `error` is set when it failed (the other fields are then partial).
struct TransferOutcome: Sendable {
    var error: TransportError?
    var status = 0
    var headers: [(name: String, value: String)] = []
    var allResponseHeaders: [(name: String, value: String)] = []
    var sentHeaderLines: [String] = []
    var body: [UInt8] = []
    var effectiveURL: String
    var redirectURL: String?
    var httpVersion = "HTTP/1.1"
    var timings = HTTPResponse.Timings.zero
    var bytesSent: Int64 = 0
    var bytesReceived: Int64 = 0
    /// For a body written to a file: its length when the transfer ended (bytes kept from an earlier attempt
    /// included).
    var fileLength: Int64 = 0
    /// The answer was a 206 continuing the file where an earlier attempt stopped (``DownloadResume``).
    var resumed = false
}

/// Where a transfer writes the body it receives.
enum BodySink {
    case memory(limit: Int)
    case file(FileDescriptor, path: String)
    case closure(@Sendable ([UInt8]) throws -> Void)
}

/// One transfer: an easy handle plus the state its callbacks fill in.
///
/// Threading: built on the calling task, then touched only by the multi thread from submission until the
/// continuation is resumed (exactly once, by the multi thread). `cancelRequested` and `continuation` are
/// guarded by the owning `MultiLoop`'s lock.
final class Transfer: @unchecked Sendable {
    let easy: EasyHandle
    let url: String
    private let sink: BodySink
    private let discardRedirectBodies: Bool
    private let progress: (@Sendable (TransferProgress) -> Void)?
    /// The file being uploaded, if any.
    let upload: FileDescriptor?

    private var status = 0
    private var headers: [(name: String, value: String)] = []
    private var allResponseHeaders: [(name: String, value: String)] = []
    private var sentHeaderLines: [String] = []
    private var discarding = false
    /// Bytes of response headers received so far (all hops of this transfer), against ``maximumHeaderBytes``.
    private var headerBytes = 0
    /// The most response-header bytes one transfer accepts (libcurl itself refuses a single header line over
    /// 100 KB): a server sending endless headers is stopped with its own message.
    static let maximumHeaderBytes = 256 << 10
    private var body: [UInt8] = []
    private var failure: TransportError?
    private var lastProgress: TransferProgress?
    /// For a resumed download: the bytes already in the file, until the answer says whether it continues them
    /// (a 206 from that offset) or starts the body again (anything else empties the file).
    private var resumeOffset: Int64?
    /// Bytes in the file sink now.
    private var fileLength: Int64 = 0
    /// The answer continues the file (a 206 from ``resumeOffset``); progress then counts the earlier bytes too.
    private var resumed = false
    private var progressOffset: Int64 = 0

    /// Told of each final answer's status and headers before its body (``HTTPRequest/responseHead``).
    private var headHandler: (@Sendable (HTTPResponseHead) -> Void)?
    /// A 401 is a round of an NTLM or Negotiate handshake, not the answer.
    private var skipsHandshake401 = false

    // Guarded by MultiLoop.lock.
    var cancelRequested = false
    var continuation: CheckedContinuation<TransferOutcome, Never>?

    init(
        easy: EasyHandle, url: String, sink: BodySink, discardRedirectBodies: Bool, upload: FileDescriptor?,
        progress: (@Sendable (TransferProgress) -> Void)?, trace: Bool, resumingAt resumeOffset: Int64? = nil
    ) throws(TransportError) {
        self.easy = easy
        self.resumeOffset = resumeOffset
        fileLength = resumeOffset ?? 0
        self.url = url
        self.sink = sink
        self.discardRedirectBodies = discardRedirectBodies
        self.upload = upload
        self.progress = progress
        let context = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_WRITEFUNCTION, callback: writeCallback)
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.set(CURLOPT_HEADERFUNCTION, callback: headerCallback)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        if upload != nil {
            try easy.set(CURLOPT_READFUNCTION, callback: readCallback)
            try easy.set(CURLOPT_READDATA, pointer: context)
            try easy.setSeek(seekCallback)
            try easy.set(CURLOPT_SEEKDATA, pointer: context)
        }
        if progress != nil {
            try easy.setProgress(progressCallback)
            try easy.set(CURLOPT_XFERINFODATA, pointer: context)
            try easy.set(CURLOPT_NOPROGRESS, 0)
        }
        if trace {
            try easy.setDebug(debugCallback)
            try easy.set(CURLOPT_DEBUGDATA, pointer: context)
            try easy.set(CURLOPT_VERBOSE, 1)
        }
    }

    /// Reports each final answer's head to `handler` (set before the transfer starts).
    func reportHead(to handler: @escaping @Sendable (HTTPResponseHead) -> Void, skippingHandshake401: Bool) {
        headHandler = handler
        skipsHandshake401 = skippingHandshake401
    }

    // MARK: Callbacks (multi thread)

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if discarding || failure != nil { return failure == nil ? bytes.count : 0 }
        switch sink {
        case .memory(let limit):
            guard body.count + bytes.count <= limit else {
                failure = tooLarge(limit: limit)
                return 0
            }
            body.append(contentsOf: bytes)
        case .file(let file, let path):
            var offset = 0
            while offset < bytes.count {
                let written = write(file.fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    failure = TransportError(
                        kind: .io, detail: String(cString: strerror(errno)), url: url,
                        message: "could not write the response body to \(path)")
                    return 0
                }
                offset += written
            }
            fileLength += Int64(bytes.count)
        case .closure(let handler):
            do {
                try handler(Array(bytes))
            } catch {
                failure = TransportError(
                    kind: .io, detail: String(describing: error), url: url,
                    message: "the response body consumer failed")
                return 0
            }
        }
        return bytes.count
    }

    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        headerBytes += bytes.count
        guard headerBytes <= Self.maximumHeaderBytes else {
            failure = headersTooLarge(detail: "more than \(Self.maximumHeaderBytes >> 10) KB of headers")
            return 0
        }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: " ")
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = []
            discarding = false
            if case .memory = sink { body.removeAll(keepingCapacity: true) }
        } else if line.isEmpty {
            // A redirect that will be followed: its body is of no use (and must not reach a file or sink).
            if discardRedirectBodies && (300..<400).contains(status)
                && headers.contains(where: { $0.name.lowercased() == "location" })
            {
                discarding = true
            }
            if case .memory(let limit) = sink, status >= 200, !discarding,
                let length = headers.last(where: { $0.name.lowercased() == "content-length" }).flatMap({
                    Int($0.value)
                })
            {
                guard length <= limit else {
                    failure = tooLarge(limit: limit)
                    return 0
                }
                // One allocation of the announced size instead of doubling copies while the body arrives (a
                // 13 MB page would otherwise pass through 8 and 16 MB buffers, both alive during the copy).
                body.reserveCapacity(length)
            }
            if status >= 200, !discarding, !decideResume() { return 0 }
            if let headHandler, status >= 200, !discarding, !(skipsHandshake401 && status == 401) {
                headHandler(HTTPResponseHead(status: status, headers: HTTPHeaders(headers)))
            }
        } else if let colon = line.firstIndex(of: ":") {
            let field = (
                name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: " ")
            )
            headers.append(field)
            allResponseHeaders.append(field)
        }
        return bytes.count
    }

    /// At the end of the first final answer's headers of a resumed download: keeps the file's bytes when the answer
    /// is a 206 continuing them, else empties the file for the whole body. False when the file cannot be emptied.
    private func decideResume() -> Bool {
        guard let offset = resumeOffset, case .file(let file, let path) = sink else { return true }
        resumeOffset = nil
        let range = headers.last { $0.name.lowercased() == "content-range" }?.value
        if status == 206, range.flatMap(DownloadResume.firstByte(ofContentRange:)) == offset {
            resumed = true
            progressOffset = offset
            return true
        }
        guard ftruncate(file.fd, 0) == 0, lseek(file.fd, 0, SEEK_SET) == 0 else {
            failure = TransportError(
                kind: .io, detail: String(cString: strerror(errno)), url: url,
                message: "could not empty \(path) for the response body")
            return false
        }
        fileLength = 0
        return true
    }

    fileprivate func readUpload(_ buffer: UnsafeMutableRawPointer, _ capacity: Int) -> Int {
        guard let upload else { return 0 }
        while true {
            let count = read(upload.fd, buffer, capacity)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            failure = TransportError(
                kind: .io, detail: String(cString: strerror(errno)), url: url, message: "could not read the upload file"
            )
            return Int(CURL_READFUNC_ABORT)
        }
    }

    fileprivate func seekUpload(_ offset: Int64, _ origin: Int32) -> Int32 {
        guard let upload else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        return lseek(upload.fd, off_t(offset), origin) < 0 ? Int32(CURL_SEEKFUNC_FAIL) : Int32(CURL_SEEKFUNC_OK)
    }

    fileprivate func reportProgress(_ reported: TransferProgress) {
        var value = reported
        if resumed {
            value.bytesReceived += progressOffset
            if value.totalBytesToReceive > 0 { value.totalBytesToReceive += progressOffset }
        }
        guard value != lastProgress else { return }
        lastProgress = value
        progress?(value)
    }

    fileprivate func recordSent(_ text: String) {
        for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            sentHeaderLines.append(String(line))
        }
    }

    private func headersTooLarge(detail: String) -> TransportError {
        Self.headersTooLarge(url: url, detail: detail)
    }

    /// The server's response headers are too large to read (one line over libcurl's 100 KB, or all of them over
    /// ``maximumHeaderBytes``).
    static func headersTooLarge(url: String, detail: String) -> TransportError {
        TransportError(
            kind: .headersTooLarge, detail: detail, url: url,
            message:
                "the response headers from \(CurlURL(url)?.host ?? TraceRedaction.url(url)) are too large to read; "
                + "the server or a proxy in between is misbehaving")
    }

    private func tooLarge(limit: Int) -> TransportError {
        TransportError(
            kind: .tooLarge, detail: "limit \(limit) bytes", url: url,
            message: "the response body from \(TraceRedaction.url(url)) is larger than \(limit) bytes")
    }

    // MARK: Completion (multi thread, after the handle left the multi)

    func outcome(code: CURLcode) -> TransferOutcome {
        var outcome = TransferOutcome(effectiveURL: easy.info(string: CURLINFO_EFFECTIVE_URL) ?? url)
        outcome.status = status != 0 ? status : easy.info(long: CURLINFO_RESPONSE_CODE)
        outcome.headers = headers
        outcome.allResponseHeaders = allResponseHeaders
        outcome.sentHeaderLines = sentHeaderLines
        outcome.redirectURL = easy.info(string: CURLINFO_REDIRECT_URL)
        outcome.httpVersion =
            switch easy.info(long: CURLINFO_HTTP_VERSION) {
            case CURL_HTTP_VERSION_1_0: "HTTP/1.0"
            case CURL_HTTP_VERSION_2_0: "HTTP/2"
            case CURL_HTTP_VERSION_3: "HTTP/3"
            default: "HTTP/1.1"
            }
        func time(_ info: CURLINFO) -> Duration { .microseconds(easy.info(offset: info)) }
        outcome.timings = HTTPResponse.Timings(
            dns: time(CURLINFO_NAMELOOKUP_TIME_T), connect: time(CURLINFO_CONNECT_TIME_T),
            tls: time(CURLINFO_APPCONNECT_TIME_T), firstByte: time(CURLINFO_STARTTRANSFER_TIME_T),
            total: time(CURLINFO_TOTAL_TIME_T))
        outcome.bytesSent = easy.info(offset: CURLINFO_SIZE_UPLOAD_T)
        outcome.bytesReceived = easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T)
        outcome.fileLength = fileLength
        outcome.resumed = resumed
        if case .file(let file, let path) = sink, !file.close(), failure == nil {
            failure = TransportError(
                kind: .io, detail: String(cString: strerror(errno)), url: url,
                message: "could not finish writing \(path)")
        }
        if let failure {
            outcome.error = failure
        } else if code != CURLE_OK {
            outcome.error = Self.error(for: code, text: easy.errorText(code), url: url)
        } else {
            outcome.body = body
        }
        return outcome
    }

    func cancelledOutcome() -> TransferOutcome {
        var outcome = TransferOutcome(effectiveURL: url)
        outcome.error = .cancelled(url)
        outcome.sentHeaderLines = sentHeaderLines
        return outcome
    }

    /// Maps a libcurl code to the module's error, with a sentence naming the host.
    static func error(for code: CURLcode, text: String, url: String) -> TransportError {
        let host = CurlURL(url)?.host ?? url
        let kind: TransportError.Kind
        let message: String
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            (kind, message) = (.dns, "could not resolve host \(host)")
        case CURLE_COULDNT_RESOLVE_PROXY:
            (kind, message) = (.dns, "could not resolve the proxy for \(host)")
        case CURLE_COULDNT_CONNECT:
            (kind, message) = (.connect, "could not connect to \(host)")
        case CURLE_OPERATION_TIMEDOUT:
            (kind, message) = (.timeout, "the request to \(host) timed out")
        case CURLE_PEER_FAILED_VERIFICATION:
            (kind, message) = (.tls, "TLS certificate for host \(host) was not trusted")
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED:
            (kind, message) = (.tls, "TLS with host \(host) failed")
        case CURLE_ABORTED_BY_CALLBACK:
            (kind, message) = (.cancelled, "the request was cancelled")
        case CURLE_OUT_OF_MEMORY:
            // What libcurl (7.x) answers to a header line over its 100 KB limit: in practice a server sending a
            // giant header, not a machine out of memory.
            return headersTooLarge(url: url, detail: "a header line over libcurl's 100 KB limit")
        case CURLE_READ_ERROR, CURLE_WRITE_ERROR, CURLE_FILE_COULDNT_READ_FILE:
            (kind, message) = (.io, "local I/O failed during the request to \(host)")
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT,
            CURLE_NOT_BUILT_IN, CURLE_UNKNOWN_OPTION:
            (kind, message) = (.invalidRequest, "the request for \(TraceRedaction.url(url)) is not valid")
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2_STREAM,
            CURLE_HTTP2:
            (kind, message) = (.network, "the connection to \(host) broke")
        default:
            (kind, message) = (.protocol, "the exchange with \(host) failed")
        }
        return TransportError(kind: kind, detail: text, url: url, message: message)
    }
}

// MARK: - C callbacks (capture nothing; find the transfer through the user-data pointer)

private func transfer(_ pointer: UnsafeMutableRawPointer?) -> Transfer? {
    pointer.map { Unmanaged<Transfer>.fromOpaque($0).takeUnretainedValue() }
}

private let writeCallback: spc_data_callback = { buffer, size, count, context in
    guard let transfer = transfer(context), let buffer else { return 0 }
    return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let headerCallback: spc_data_callback = { buffer, size, count, context in
    guard let transfer = transfer(context), let buffer else { return 0 }
    return transfer.receiveHeader(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let readCallback: spc_data_callback = { buffer, size, count, context in
    guard let transfer = transfer(context), let buffer else { return Int(CURL_READFUNC_ABORT) }
    return transfer.readUpload(UnsafeMutableRawPointer(buffer), size * count)
}

private let seekCallback: curl_seek_callback = { context, offset, origin in
    guard let transfer = transfer(context) else { return Int32(CURL_SEEKFUNC_FAIL) }
    return transfer.seekUpload(Int64(offset), origin)
}

private let progressCallback: curl_xferinfo_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
    transfer(context)?.reportProgress(
        TransferProgress(
            bytesSent: Int64(uploaded), totalBytesToSend: Int64(uploadTotal), bytesReceived: Int64(downloaded),
            totalBytesToReceive: Int64(downloadTotal)))
    return 0
}

private let debugCallback: curl_debug_callback = { _, type, data, size, context in
    guard type == CURLINFO_HEADER_OUT, let transfer = transfer(context), let data else { return 0 }
    transfer.recordSent(String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self))
    return 0
}
