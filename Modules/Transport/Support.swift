internal import CCurl
internal import CCurlShims

#if canImport(Glibc)
    internal import Glibc
#endif

/// Process-wide libcurl setup, done exactly once (Swift globals are initialised lazily and thread-safely).
enum CurlGlobal {
    /// nil when `curl_global_init` succeeded, otherwise libcurl's text for the failure.
    static let initError: String? = {
        // NOSIGNAL=1 is set on every handle, so libcurl relies on SIGPIPE being ignored process-wide.
        _ = signal(SIGPIPE, SIG_IGN)  // returns the previous handler; SIG_ERR only for invalid signals
        let rc = curl_global_init(Int(CURL_GLOBAL_ALL))
        return rc == CURLE_OK ? nil : curlText(rc)
    }()

    /// Throws when libcurl could not be initialised.
    static func ensure() throws(TransportError) {
        if let initError {
            throw TransportError(kind: .invalidRequest, detail: initError, url: nil, message: "libcurl could not start")
        }
    }
}

/// libcurl's text for an easy-interface code.
func curlText(_ code: CURLcode) -> String {
    String(cString: curl_easy_strerror(code))
}

/// A `curl_slist` owned by one Swift object; freed in deinit. Not thread-safe, not Sendable.
final class CurlStringList {
    private(set) var pointer: UnsafeMutablePointer<curl_slist>?

    init(_ strings: [String]) throws(TransportError) {
        for string in strings {
            guard let next = curl_slist_append(pointer, string) else {
                throw TransportError(kind: .io, detail: "curl_slist_append failed", url: nil, message: "out of memory")
            }
            pointer = next
        }
    }

    deinit { curl_slist_free_all(pointer) }

    /// The strings of a list libcurl returned (not owned by this helper).
    static func strings(of list: UnsafeMutablePointer<curl_slist>?) -> [String] {
        var result: [String] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { result.append(String(cString: data)) }
            node = current.pointee.next
        }
        return result
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a tiny positive duration never becomes "no limit" (0).
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(clamping: ms)
    }
}
