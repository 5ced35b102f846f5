/// SharePoint's rewriting of Office documents on upload. Observed (rclone #2599 and #8090, onedrive #3522): a
/// `.docx`, `.xlsx` or `.pptx` uploaded to a library comes back with another size and hash, because the server
/// writes its own properties into the package (the content type, a document id). How it changes the package is
/// inferred here: the simulator writes the properties into the ZIP's end-of-central-directory comment, so the file
/// stays a valid package, its size and hash change, and the same upload always gives the same bytes. A file with
/// one of these extensions that is no ZIP is kept as sent.
enum OfficeDocuments {
    static let extensions: Set<String> = ["docx", "xlsx", "pptx"]

    /// The bytes SharePoint keeps for `bytes` uploaded as `name` into the file with `uniqueId`.
    static func stored(_ bytes: [UInt8], named name: String, uniqueId: String) -> [UInt8] {
        let fileExtension = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard extensions.contains(fileExtension), let end = endOfCentralDirectory(bytes) else { return bytes }
        let properties = Array(
            "SharePoint properties: ContentTypeId=0x0101; _dlc_DocIdItemGuid=\(uniqueId); _ip_UnifiedCompliancePolicyProperties="
                .utf8)
        var stored = Array(bytes[..<(end + 20)])
        stored += [UInt8(properties.count & 0xFF), UInt8(properties.count >> 8)]
        return stored + properties
    }

    /// Where a ZIP's end-of-central-directory record starts (`PK\u{5}\u{6}`, 22 bytes and a comment that ends the
    /// file), nil when `bytes` has none.
    static func endOfCentralDirectory(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 22 else { return nil }
        var start = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        while start >= lowest {
            if bytes[start] == 0x50, bytes[start + 1] == 0x4B, bytes[start + 2] == 5, bytes[start + 3] == 6,
                start + 22 + Int(bytes[start + 20]) + Int(bytes[start + 21]) << 8 == bytes.count
            {
                return start
            }
            start -= 1
        }
        return nil
    }
}
