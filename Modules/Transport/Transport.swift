internal import CCurl

/// Facts about the libcurl this process runs on.
public enum LibraryInfo {
    /// libcurl's version string, e.g. `7.88.1`.
    public static var curlVersion: String {
        guard let info = curl_version_info(CURLVERSION_TENTH) else { return "unknown" }
        return String(cString: info.pointee.version)
    }
}
