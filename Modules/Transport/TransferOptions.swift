internal import CCurl
internal import CCurlShims
import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

// The options of one transfer, set on its easy handle from the request and the client's configuration (the
// client's exchange logic is in HTTPClient.swift).
extension HTTPClient {
    /// Sets every option of one transfer; returns the body sink and the upload file. With `resumeOffset` a file
    /// destination keeps its first `resumeOffset` bytes and is written after them (``DownloadResume``).
    func configure(
        _ easy: EasyHandle, for request: HTTPRequest, resumingAt resumeOffset: Int64? = nil
    ) throws(TransportError) -> (BodySink, FileDescriptor?) {
        guard let parsed = CurlURL(request.url), let scheme = parsed.scheme, scheme == "http" || scheme == "https"
        else { throw .invalid("\(TraceRedaction.url(request.url)) is not an absolute http(s) URL", url: request.url) }
        guard !request.method.isEmpty, !request.method.contains(where: { $0 == " " || $0 == "\r" || $0 == "\n" })
        else { throw .invalid("'\(request.method)' is not a valid HTTP method", url: request.url) }
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, 0)
        try easy.set(CURLOPT_ACCEPT_ENCODING, "")
        if let agent = configuration.userAgent { try easy.set(CURLOPT_USERAGENT, agent) }

        let timeouts = request.timeouts
        if let connect = timeouts.connect { try easy.set(CURLOPT_CONNECTTIMEOUT_MS, connect.milliseconds) }
        if let total = timeouts.total { try easy.set(CURLOPT_TIMEOUT_MS, total.milliseconds) }
        if let time = timeouts.lowSpeedTime, timeouts.lowSpeedLimit > 0 {
            try easy.set(CURLOPT_LOW_SPEED_LIMIT, timeouts.lowSpeedLimit)
            try easy.set(CURLOPT_LOW_SPEED_TIME, max(1, time.milliseconds / 1000))
        }

        if configuration.insecureSkipTLSVerification {
            try easy.set(CURLOPT_SSL_VERIFYPEER, 0)
            try easy.set(CURLOPT_SSL_VERIFYHOST, 0)
        } else {
            try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
            try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        }
        if let caFile = configuration.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        if let caDirectory = configuration.caDirectory { try easy.set(CURLOPT_CAPATH, caDirectory) }
        if let certificate = request.clientCertificate {
            guard scheme == "https" else {
                throw .invalid("a client certificate is only ever presented over https", url: request.url)
            }
            try easy.set(CURLOPT_SSLCERTTYPE, "PEM")
            try easy.set(CURLOPT_SSLCERT_BLOB, blob: certificate.certificatePEM)
            try easy.set(CURLOPT_SSLKEYTYPE, "PEM")
            try easy.set(CURLOPT_SSLKEY_BLOB, blob: Array(certificate.keyPEM.revealedValue().utf8))
            if let password = certificate.keyPassword { try easy.set(CURLOPT_KEYPASSWD, password.revealedValue()) }
            // A handshake of its own (no resumed session, no pooled connection), as a browser's fresh CBA attempt.
            try easy.set(CURLOPT_FRESH_CONNECT, 1)
            try easy.set(CURLOPT_FORBID_REUSE, 1)
            try easy.set(CURLOPT_SSL_SESSIONID_CACHE, 0)
        }
        if let proxy = configuration.proxy { try easy.set(CURLOPT_PROXY, proxy) }
        try easy.set(CURLOPT_NOPROXY, noProxy)
        if !configuration.resolve.isEmpty { try easy.set(CURLOPT_RESOLVE, list: configuration.resolve) }

        switch request.auth {
        case nil: break
        case .basic(let user, let password):
            try easy.set(CURLOPT_HTTPAUTH, CurlAuth.basic)
            try easy.set(CURLOPT_USERNAME, user)
            try easy.set(CURLOPT_PASSWORD, password.revealedValue())
        case .ntlm(let user, let password):
            // NTLM authenticates a connection, which HTTP/2 does not allow (IIS answers HTTP_1_1_REQUIRED).
            try easy.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
            try easy.set(CURLOPT_HTTPAUTH, CurlAuth.ntlm)
            try easy.set(CURLOPT_USERNAME, user)
            try easy.set(CURLOPT_PASSWORD, password.revealedValue())
        case .negotiate:
            try easy.set(CURLOPT_HTTPAUTH, CurlAuth.negotiate)
            try easy.set(CURLOPT_USERNAME, "")
            try easy.set(CURLOPT_PASSWORD, "")
        case .bearer(let token):
            guard HTTPFieldValue.isValid(token.revealedValue()) else {
                throw .invalid(
                    "the bearer token holds a line break or control character and cannot be sent in a header",
                    url: request.url)
            }
            try easy.set(CURLOPT_HTTPAUTH, CurlAuth.bearer)
            try easy.set(CURLOPT_XOAUTH2_BEARER, token.revealedValue())
        }

        var headers = request.headers
        let method = request.method
        let upperMethod = method.uppercased()
        if upperMethod == "HEAD", case .none = request.body {
        } else if upperMethod == "HEAD" {
            throw .invalid("a HEAD request cannot carry a body", url: request.url)
        }
        var upload: FileDescriptor?
        func setBody(_ bytes: [UInt8]) throws(TransportError) {
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(bytes.count))
            // COPYPOSTFIELDS copies POSTFIELDSIZE bytes at once, so the array may go away afterwards (P10).
            let rc = bytes.withUnsafeBytes { buffer in
                // An empty body still needs a valid pointer: use an empty C string.
                buffer.isEmpty
                    ? spc_easy_setopt_string(easy.raw, CURLOPT_COPYPOSTFIELDS, "")
                    : spc_easy_setopt_pointer(
                        easy.raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            }
            guard rc == CURLE_OK else {
                throw TransportError(
                    kind: .invalidRequest, detail: easy.errorText(rc), url: request.url,
                    message: "libcurl refused the request body")
            }
        }
        // The method libcurl sends by itself for the options set below; any other goes in CUSTOMREQUEST.
        var curlMethod = "POST"
        switch request.body {
        case .none:
            if upperMethod == "HEAD" {
                try easy.set(CURLOPT_NOBODY, 1)
                curlMethod = "HEAD"
            } else if upperMethod == "POST" {
                try setBody([])
            } else {
                try easy.set(CURLOPT_HTTPGET, 1)
                curlMethod = "GET"
            }
        case .bytes(let bytes):
            try setBody(bytes)
            if !headers.contains("Content-Type") { headers.add("Content-Type", "application/octet-stream") }
        case .form(let fields):
            try setBody(Array(FormEncoder.encode(fields).utf8))
            if !headers.contains("Content-Type") {
                headers.add("Content-Type", "application/x-www-form-urlencoded")
            }
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw TransportError(
                    kind: .io, detail: String(cString: strerror(errno)), url: request.url,
                    message: "could not open the upload file \(path)")
            }
            let file = FileDescriptor(fd: fd)
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw TransportError(
                    kind: .io, detail: String(cString: strerror(errno)), url: request.url,
                    message: "could not read the size of \(path)")
            }
            upload = file
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(info.st_size))
            if !headers.contains("Content-Type") { headers.add("Content-Type", "application/octet-stream") }
        }
        if method != curlMethod { try easy.set(CURLOPT_CUSTOMREQUEST, method) }
        // A header that would break its line (CR, LF, NUL) or carry a name that is no token is refused, naming the
        // header, never its value.
        for field in headers where !HTTPFieldValue.isValidName(field.name) || !HTTPFieldValue.isValid(field.value) {
            throw .invalid(
                "the request header \(HTTPFieldValue.isValidName(field.name) ? field.name : "name") holds a line break "
                    + "or control character and cannot be sent",
                url: request.url)
        }
        // `Name;` is libcurl's syntax for a header with an empty value (`Name:` would remove it).
        var lines = headers.map { field in field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)" }
        if case .none = request.body {
        } else if !headers.contains("Expect") {
            // The empty `Expect:` line stops libcurl from sending `Expect: 100-continue` and waiting for it.
            lines.append("Expect:")
        }
        if !lines.isEmpty { try easy.set(CURLOPT_HTTPHEADER, list: lines) }

        let sink: BodySink
        switch request.responseBody {
        case .memory(let limit):
            sink = .memory(limit: limit ?? configuration.maxBodySize)
        case .file(let path):
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (resumeOffset == nil ? O_TRUNC : 0), 0o600)
            guard fd >= 0 else {
                throw TransportError(
                    kind: .io, detail: String(cString: strerror(errno)), url: request.url,
                    message: "could not open \(path) for the response body")
            }
            let file = FileDescriptor(fd: fd)
            let kept = off_t(resumeOffset ?? 0)
            guard kept == 0 || ftruncate(fd, kept) == 0 && lseek(fd, kept, SEEK_SET) == kept else {
                throw TransportError(
                    kind: .io, detail: String(cString: strerror(errno)), url: request.url,
                    message: "could not resume writing \(path)")
            }
            sink = .file(file, path: path)
        case .descriptor(let descriptor, let name):
            let fd = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard fd >= 0 else {
                throw TransportError(
                    kind: .io, detail: String(cString: strerror(errno)), url: request.url,
                    message: "could not use \(name) for the response body")
            }
            let file = FileDescriptor(fd: fd)
            let kept = off_t(resumeOffset ?? 0)
            guard ftruncate(fd, kept) == 0, lseek(fd, kept, SEEK_SET) == kept else {
                throw TransportError(
                    kind: .io, detail: String(cString: strerror(errno)), url: request.url,
                    message: "could not empty \(name) for the response body")
            }
            sink = .file(file, path: name)
        case .sink(let closure):
            sink = .closure(closure)
        }
        return (sink, upload)
    }

    /// Loopback addresses, which never go through a proxy: a sign-in to a local simulator or tunnel must not hand
    /// its credentials, allowed over plain http only because they stay on this machine, to a proxy.
    /// (`127.0.0.1` is named as well as the range: libcurl before 7.86 does not read CIDR ranges.)
    static let loopbackNoProxy = "localhost,127.0.0.1,127.0.0.0/8,::1"

    /// The `NOPROXY` list: the configured one, or else the environment's `no_proxy` / `NO_PROXY` (which libcurl
    /// reads only when the option is unset), always followed by ``loopbackNoProxy``.
    static func noProxyList(
        configured: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let given = configured ?? environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        let trimmed = given.trimmingCharacters(in: CharacterSet(charactersIn: ", "))
        return trimmed == "*" ? "*" : (trimmed.isEmpty ? "" : trimmed + ",") + loopbackNoProxy
    }
}

/// libcurl's `CURLAUTH_*` bits (casts in macros that Swift does not import).
enum CurlAuth {
    static let basic = 1 << 0
    static let negotiate = 1 << 2
    static let ntlm = 1 << 3
    static let bearer = 1 << 6
}
