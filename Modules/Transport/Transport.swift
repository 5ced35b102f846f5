// Transport: HTTP over libcurl for SPConnect.
//
// How it fits together:
// - `HTTPClient` is a session. It owns one `CurlShare` (a `CURLSH`: cookie engine, DNS cache, TLS sessions,
//   guarded by pthread mutexes through libcurl's lock callbacks), one `MultiLoop` (a `CURLM` driven by its own
//   pthread, so no transfer ever blocks the 2-thread cooperative pool) and a `CookieJar` (a helper easy handle
//   on the share, reading and writing libcurl's cookie list).
// - `execute(_:)` builds a fresh `EasyHandle` per transfer, wraps it in a `Transfer` (the state its C
//   callbacks fill in), hands it to the loop and suspends on a continuation the loop resumes exactly once.
//   Cancelling the task asks the loop to remove the handle at once.
// - Redirects (`.follow`) and retries are plain Swift loops above single transfers; libcurl never follows.
// - Every C resource has one owning final class that frees it in deinit; easy handles retain the share, so
//   they are always cleaned up before it.
// - Nothing is printed. A trace sink in the configuration receives redacted `TraceRecord`s.
internal import CCurl

/// Facts about the libcurl this process runs on.
public enum LibraryInfo {
    /// libcurl's version string, e.g. `7.88.1`.
    public static var curlVersion: String {
        guard let info = curl_version_info(CURLVERSION_TENTH) else { return "unknown" }
        return String(cString: info.pointee.version)
    }
}
