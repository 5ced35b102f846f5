internal import CCurl
internal import CCurlShims

#if canImport(Glibc)
    internal import Glibc
#endif

// One owning final class per C resource; each frees its resource in deinit.

/// Owns one `CURLSH`: cookies, DNS cache and TLS sessions shared by every easy handle of one client,
/// guarded by one pthread mutex per `curl_lock_data` (libcurl calls the lock callbacks).
///
/// Thread-safety: libcurl serialises access through the lock callbacks, so easy handles on any thread may use
/// it at once. Every easy handle attached to it holds a strong reference, so they are always cleaned up
/// before the share (`curl_share_cleanup` refuses a share still in use).
final class CurlShare: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    private let mutexes: UnsafeMutablePointer<pthread_mutex_t>
    private static let lockCount = Int(CURL_LOCK_DATA_LAST.rawValue) + 1

    init() throws(TransportError) {
        try CurlGlobal.ensure()
        guard let share = curl_share_init() else {
            throw TransportError(kind: .io, detail: "curl_share_init failed", url: nil, message: "out of memory")
        }
        raw = share
        mutexes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: Self.lockCount)
        for index in 0..<Self.lockCount {
            (mutexes + index).initialize(to: pthread_mutex_t())
            // Default mutex attributes: pthread_mutex_init cannot fail on Linux.
            _ = pthread_mutex_init(mutexes + index, nil)
        }
        let steps: [(String, () -> CURLSHcode)] = [
            (
                "USERDATA",
                { spc_share_setopt_pointer(share, CURLSHOPT_USERDATA, UnsafeMutableRawPointer(self.mutexes)) }
            ),
            ("LOCKFUNC", { spc_share_setopt_lockfunc(share, shareLock) }),
            ("UNLOCKFUNC", { spc_share_setopt_unlockfunc(share, shareUnlock) }),
            ("COOKIE", { spc_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)) }),
            ("DNS", { spc_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue)) }),
            (
                "SSL_SESSION",
                { spc_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue)) }
            ),
            ("PSL", { spc_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_PSL.rawValue)) }),
        ]
        for (name, step) in steps {
            let rc = step()
            guard rc == CURLSHE_OK else {
                throw TransportError(
                    kind: .invalidRequest, detail: String(cString: curl_share_strerror(rc)), url: nil,
                    message: "libcurl refused share option \(name)")
            }
        }
    }

    deinit {
        // Every easy handle on the share is gone (they retain us), so this returns CURLSHE_OK; nothing to do
        // in deinit if it did not.
        _ = curl_share_cleanup(raw)
        // Unlocked default mutexes: pthread_mutex_destroy cannot fail.
        for index in 0..<Self.lockCount { _ = pthread_mutex_destroy(mutexes + index) }
        mutexes.deallocate()
    }
}

private let shareLock: curl_lock_function = { _, data, _, userdata in
    guard let userdata else { return }
    let mutexes = userdata.assumingMemoryBound(to: pthread_mutex_t.self)
    // A default mutex locked by its owner thread only: failure would be a libcurl bug.
    _ = pthread_mutex_lock(mutexes + Int(data.rawValue))
}

private let shareUnlock: curl_unlock_function = { _, data, userdata in
    guard let userdata else { return }
    let mutexes = userdata.assumingMemoryBound(to: pthread_mutex_t.self)
    // Unlocking a mutex this thread locked cannot fail.
    _ = pthread_mutex_unlock(mutexes + Int(data.rawValue))
}

/// Owns one `CURL` easy handle, its error buffer and the string lists it points at.
///
/// Not thread-safe: used by one thread at a time (the builder, then the multi thread).
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    /// Keeps the share alive until this handle is cleaned up.
    private let share: CurlShare?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Lists libcurl only points at (HTTPHEADER, RESOLVE): kept alive as long as the handle.
    private var lists: [CurlStringList] = []
    /// The URL, for error messages.
    var url: String?

    init(share: CurlShare?) throws(TransportError) {
        try CurlGlobal.ensure()
        guard let easy = curl_easy_init() else {
            throw TransportError(kind: .io, detail: "curl_easy_init failed", url: nil, message: "out of memory")
        }
        raw = easy
        self.share = share
        errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_NOSIGNAL, 1)
        if let share { try set(CURLOPT_SHARE, pointer: share.raw) }
        // An empty COOKIEFILE switches the cookie engine on; the share holds the cookies.
        try set(CURLOPT_COOKIEFILE, "")
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// libcurl's detailed message for the last failure, or its generic text for `code`.
    func errorText(_ code: CURLcode) -> String {
        let text = String(cString: errorBuffer)
        return text.isEmpty ? curlText(code) : text.trimmingCharacters(in: " ")
    }

    private func check(_ rc: CURLcode, _ option: CURLoption) throws(TransportError) {
        guard rc == CURLE_OK else {
            throw TransportError(
                kind: .invalidRequest, detail: errorText(rc), url: url,
                message: "libcurl refused option \(option.rawValue)")
        }
    }

    func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        try check(spc_easy_setopt_long(raw, option, value), option)
    }

    func set(_ option: CURLoption, _ value: String?) throws(TransportError) {
        try check(spc_easy_setopt_string(raw, option, value), option)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(TransportError) {
        try check(spc_easy_setopt_pointer(raw, option, pointer), option)
    }

    /// A blob option; libcurl keeps its own copy of `bytes`.
    func set(_ option: CURLoption, blob bytes: [UInt8]) throws(TransportError) {
        try check(bytes.withUnsafeBytes { spc_easy_setopt_blob(raw, option, $0.baseAddress!, $0.count) }, option)
    }

    func set(_ option: CURLoption, offset: Int64) throws(TransportError) {
        try check(spc_easy_setopt_off_t(raw, option, curl_off_t(offset)), option)
    }

    func set(_ option: CURLoption, list strings: [String]) throws(TransportError) {
        let list = try CurlStringList(strings)
        try check(spc_easy_setopt_slist(raw, option, list.pointer), option)
        lists.append(list)
    }

    func set(_ option: CURLoption, callback: spc_data_callback?) throws(TransportError) {
        try check(spc_easy_setopt_data_callback(raw, option, callback), option)
    }

    func setProgress(_ callback: curl_xferinfo_callback?) throws(TransportError) {
        try check(spc_easy_setopt_xferinfo_callback(raw, callback), CURLOPT_XFERINFOFUNCTION)
    }

    func setDebug(_ callback: curl_debug_callback?) throws(TransportError) {
        try check(spc_easy_setopt_debug_callback(raw, callback), CURLOPT_DEBUGFUNCTION)
    }

    func setSeek(_ callback: curl_seek_callback?) throws(TransportError) {
        try check(spc_easy_setopt_seek_callback(raw, callback), CURLOPT_SEEKFUNCTION)
    }

    /// Unhooks the progress and debug callbacks once the transfer is over, so nothing calls back into a
    /// transfer object while it is being torn down (`curl_easy_cleanup` may still log).
    func detachCallbacks() {
        // Resetting callbacks to NULL and switching logging off cannot fail on a valid handle.
        _ = spc_easy_setopt_long(raw, CURLOPT_VERBOSE, 0)
        _ = spc_easy_setopt_debug_callback(raw, nil)
        _ = spc_easy_setopt_long(raw, CURLOPT_NOPROGRESS, 1)
        _ = spc_easy_setopt_xferinfo_callback(raw, nil)
    }

    /// Info readers: they return zero/nil when libcurl has no value (its documented fallback).
    func info(long info: CURLINFO) -> Int {
        var value = 0
        return spc_easy_getinfo_long(raw, info, &value) == CURLE_OK ? value : 0
    }

    func info(offset info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return spc_easy_getinfo_off_t(raw, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    func info(string info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard spc_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    func info(list info: CURLINFO) throws(TransportError) -> [String] {
        var list: UnsafeMutablePointer<curl_slist>?
        let rc = spc_easy_getinfo_slist(raw, info, &list)
        guard rc == CURLE_OK else {
            throw TransportError(kind: .io, detail: curlText(rc), url: nil, message: "libcurl could not list cookies")
        }
        defer { curl_slist_free_all(list) }
        return CurlStringList.strings(of: list)
    }
}

/// Owns one POSIX file descriptor; closed in deinit or by `close()`. Not thread-safe.
final class FileDescriptor {
    private(set) var fd: Int32

    init(fd: Int32) { self.fd = fd }

    /// Closes now; returns false when `close` reported an error (data may not have reached the disk).
    @discardableResult
    func close() -> Bool {
        guard fd >= 0 else { return true }
        let rc = Glibc.close(fd)
        fd = -1
        return rc == 0
    }

    deinit {
        // Errors are reported by an explicit close(); here there is nobody left to tell.
        _ = close()
    }
}

/// Owns one `CURLU` (libcurl's URL parser), to read parts of a URL exactly as libcurl sees it.
final class CurlURL {
    private let raw: OpaquePointer

    init?(_ url: String) {
        guard let handle = curl_url() else { return nil }
        raw = handle
        guard curl_url_set(raw, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
    }

    deinit { curl_url_cleanup(raw) }

    func part(_ part: CURLUPart, flags: UInt32 = 0) -> String? {
        var out: UnsafeMutablePointer<CChar>?
        guard curl_url_get(raw, part, &out, flags) == CURLUE_OK, let out else { return nil }
        defer { curl_free(out) }
        return String(cString: out)
    }

    var scheme: String? { part(CURLUPART_SCHEME)?.lowercased() }
    var host: String? { part(CURLUPART_HOST)?.lowercased() }
    var path: String { part(CURLUPART_PATH) ?? "/" }
    /// The port, the scheme's default when none is written.
    var port: String? { part(CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)) }
    /// `scheme://host:port`, for same-origin checks.
    var origin: String { "\(scheme ?? "")://\(host ?? ""):\(port ?? "")" }
}
