internal import CCurl
internal import CCurlShims
import Foundation
import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// The client's cookie jar: a view of libcurl's cookie engine in the client's share.
///
/// Transfers read and update the same cookies as they run (libcurl sends and stores them); this object
/// lists, adds, removes, clears, exports and imports them through a private helper easy handle attached to
/// the share (`CURLINFO_COOKIELIST` / `CURLOPT_COOKIELIST`).
/// Thread-safety: every method may be called from any thread; calls are serialised by the mutex that owns the helper handle.
/// A `remove` is not atomic with respect to transfers running at the same moment.
public final class CookieJar: Sendable {
    /// The helper easy handle attached to the share; only used inside `withLock`.
    private let helper: Mutex<EasyHandle>

    init(share: CurlShare) throws(TransportError) {
        helper = Mutex(try EasyHandle(share: share))
    }

    /// Every cookie in the jar that has not expired, in libcurl's order.
    public func all() throws(TransportError) -> [Cookie] {
        try helper.withLock { (easy) throws(TransportError) -> [Cookie] in
            try easy.info(list: CURLINFO_COOKIELIST).compactMap(Cookie.init(netscapeLine:))
        }
    }

    /// The cookies a request to `url` would carry (RFC 6265 §5.4: domain and path match, `Secure` only over
    /// https, not expired), longest path first. libcurl makes the final choice on the wire; this mirrors it
    /// for the common cases (it does not treat loopback http as secure, as libcurl does for 127.0.0.1).
    public func cookies(for url: String) throws(TransportError) -> [Cookie] {
        guard let parsed = CurlURL(url), let host = parsed.host else {
            throw .invalid("\(TraceRedaction.url(url)) is not an absolute URL", url: url)
        }
        let path = parsed.path
        // As libcurl decides what to send: https, or plain http to the loopback names it treats as secure.
        let secure = parsed.scheme == "https" || ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
        let now = Date()
        return try all().filter { cookie in
            let domainMatches =
                cookie.hostOnly ? host == cookie.domain : host == cookie.domain || host.hasSuffix("." + cookie.domain)
            let pathMatches =
                path == cookie.path
                || (path.hasPrefix(cookie.path)
                    && (cookie.path.hasSuffix("/") || path.dropFirst(cookie.path.count).hasPrefix("/")))
            return domainMatches && pathMatches && (!cookie.secure || secure)
                && (cookie.expires.map { $0 > now } ?? true)
        }.sorted { $0.path.count > $1.path.count }
    }

    /// Adds (or replaces: same name, domain and path) one cookie. An `expires` in the past removes it.
    public func add(_ cookie: Cookie) throws(TransportError) {
        try command(cookie.netscapeLine)
    }

    /// Adds the cookie of a `Set-Cookie` header value as if `url` had answered with it.
    /// - Throws: `.invalidRequest` when the line is malformed or its `Domain` does not cover the URL's host.
    public func add(setCookie line: String, for url: String) throws(TransportError) {
        guard let cookie = Cookie(setCookie: line, url: url) else {
            throw .invalid(
                "the Set-Cookie line is malformed or its Domain does not match \(TraceRedaction.url(url))", url: url)
        }
        try add(cookie)
    }

    /// Removes the cookie with this name, domain and path (nothing happens when there is none).
    public func remove(name: String, domain: String, path: String = "/") throws(TransportError) {
        try helper.withLock { (easy) throws(TransportError) in
            let wantedDomain = domain.hasPrefix(".") ? String(domain.dropFirst()) : domain.lowercased()
            let cookies = try easy.info(list: CURLINFO_COOKIELIST).compactMap(Cookie.init(netscapeLine:))
            for var cookie in cookies where cookie.name == name && cookie.domain == wantedDomain && cookie.path == path
            {
                // Replacing a cookie with an expired copy makes libcurl drop it.
                cookie.expires = Date(timeIntervalSince1970: 1)
                try Self.send(cookie.netscapeLine, to: easy)
            }
        }
    }

    /// Removes one cookie (matched by name, domain and path).
    public func remove(_ cookie: Cookie) throws(TransportError) {
        try remove(name: cookie.name, domain: cookie.domain, path: cookie.path)
    }

    /// Empties the jar, session cookies included.
    public func removeAll() throws(TransportError) {
        try command("ALL")
    }

    /// The jar as the text of a Netscape cookie file (the format `curl -b FILE` and `curl -c FILE` use).
    public func netscapeText() throws(TransportError) -> String {
        let lines = try all().map(\.netscapeLine)
        return "# Netscape HTTP Cookie File\n# Written by SPConnect Transport; curl -b FILE reads it.\n\n"
            + lines.map { $0 + "\n" }.joined()
    }

    /// Writes the jar to `path` atomically (a temporary file in the same directory, then rename), mode 0600.
    public func export(to path: String) throws(TransportError) {
        let text = try netscapeText()
        try AtomicFile.write(Array(text.utf8), to: path, mode: 0o600)
    }

    /// Adds every cookie of a Netscape cookie-file text (comments and malformed lines are skipped).
    /// - Returns: how many cookies were added.
    @discardableResult
    public func importNetscape(_ text: String) throws(TransportError) -> Int {
        let cookies = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap {
            Cookie(netscapeLine: String($0))
        }
        for cookie in cookies { try add(cookie) }
        return cookies.count
    }

    /// Reads a Netscape cookie file (as written by `export(to:)` or `curl -c`) into the jar.
    /// - Returns: how many cookies were added.
    @discardableResult
    public func `import`(from path: String) throws(TransportError) -> Int {
        let bytes = try AtomicFile.read(path)
        return try importNetscape(String(decoding: bytes, as: UTF8.self))
    }

    private func command(_ line: String) throws(TransportError) {
        try helper.withLock { (easy) throws(TransportError) in try Self.send(line, to: easy) }
    }

    /// One `CURLOPT_COOKIELIST` command on the helper handle (called with the mutex held).
    private static func send(_ line: String, to easy: EasyHandle) throws(TransportError) {
        try easy.set(CURLOPT_COOKIELIST, line)
    }
}

/// Whole-file reads and atomic writes with POSIX calls (so the mode is set before any byte is written).
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(TransportError) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ioError("could not create a temporary file next to \(path)") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let file = FileDescriptor(fd: fd)
        do throws(TransportError) {
            guard fchmod(fd, mode) == 0 else { throw ioError("could not set the mode of \(temporary)") }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw ioError("could not write \(temporary)") }
                offset += written
            }
            guard fsync(fd) == 0 else { throw ioError("could not flush \(temporary)") }
            guard file.close() else { throw ioError("could not close \(temporary)") }
            guard rename(temporary, path) == 0 else { throw ioError("could not rename \(temporary) to \(path)") }
        } catch {
            // Best effort: the temporary file may already be gone; the original error is what matters.
            _ = unlink(temporary)
            throw error
        }
    }

    static func read(_ path: String) throws(TransportError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("could not open \(path)") }
        let file = FileDescriptor(fd: fd)
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(file.fd, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ioError("could not read \(path)") }
            if count == 0 { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return result
    }

    private static func ioError(_ message: String) -> TransportError {
        TransportError(kind: .io, detail: String(cString: strerror(errno)), url: nil, message: message)
    }
}
