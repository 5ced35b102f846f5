import HTML
import JSON
import TestSupport
import Testing

/// Where the shared corpus lives: `../shared/corpus/idp` relative to the package root.
enum Corpus {
    static let directory = SharedCorpus.identityProviderPages.path

    static var isAvailable: Bool { SharedCorpus.isAvailable(SharedCorpus.identityProviderPages) }

    static let skipMessage = SharedCorpus.absentMessage(SharedCorpus.identityProviderPages)

    /// The manifest entries, or [] when the corpus is absent.
    static let manifest: [JSONValue] = {
        guard let bytes = readFile(directory + "/manifest.json"),
            let value = try? JSONValue.parse(bytes: bytes), let entries = value.arrayValue
        else { return [] }
        return entries
    }()

    static var fileNames: [String] { manifest.compactMap { $0["file"]?.stringValue } }

    static func entry(_ file: String) -> JSONValue? { manifest.first { $0["file"]?.stringValue == file } }

    static func page(_ file: String, url: String = "https://idp.example.test/signin/start?x=1") throws -> HTMLPage {
        let bytes = try #require(readFile(directory + "/" + file), "cannot read \(file)")
        return try HTMLPage(bytes: bytes, url: url)
    }
}

/// Reads a whole file with stdio (no Foundation needed); nil when it cannot be read.
func readFile(_ path: String) -> [UInt8]? {
    guard let handle = fopen(path, "rb") else { return nil }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, handle)
        if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
        if count < buffer.count { break }
    }
    return bytes
}

/// Parses inline HTML at a fixed URL.
func readPage(_ html: String, url: String = "https://example.test/dir/page.html?q=1") throws -> HTMLPage {
    try HTMLPage(bytes: Array(html.utf8), url: url)
}

#if canImport(Glibc)
    import Glibc
#endif
