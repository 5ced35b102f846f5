import AuthFlow
import CommandLineKit
import HTML
import JSON

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect inspect FILE [--url URL] [--charset C]`: reads a saved page offline and prints what the
/// sign-in engine sees, as JSON. `FILE` may be `-` for standard input. Password values and `$Config` token
/// values are never printed.
let inspectCommand = Command(
    name: "inspect", summary: "Show what the sign-in engine sees in a saved page (kind, forms, $Config, errors).",
    synopsis: "FILE|- [--url URL] [--charset CHARSET]",
    options: [
        .value(.url, "URL", "the address the page was served from (resolves relative actions)"),
        .value(.charset, "CHARSET", "the charset of the HTTP Content-Type, when known"),
    ],
    examples: [
        "spconnect inspect login-page.html --url https://login.example.com/",
        "curl -s https://idp.example/login | spconnect inspect -",
    ], positionals: .path
) { arguments in
    guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
        throw UsageError(description: "give exactly one FILE (or - for standard input)")
    }
    return ExitCode(
        rawValue: inspect(file: file, url: arguments.value(.url), charset: arguments.value(.charset))) ?? .failure
}

/// Reads and reports one page; returns 0, or 2 on an unreadable file or a bad `--url`.
func inspect(
    file: String, url: String?, charset: String?,
    readStandardInput: () -> [UInt8]? = { readAll(fileDescriptor: 0) },
    output: (String) -> Void = { print($0) },
    errorOutput: (String) -> Void = { writeStandardError($0) }
) -> Int32 {
    if let url, URLResolver.components(of: url).scheme == nil {
        errorOutput("spconnect inspect: --url must be an absolute URL (got \"\(url)\")")
        return 2
    }
    let bytes: [UInt8]?
    if file == "-" {
        bytes = readStandardInput()
    } else {
        let descriptor = open(file, O_RDONLY)
        bytes = descriptor < 0 ? nil : readAll(fileDescriptor: descriptor)
        if descriptor >= 0 { close(descriptor) }
    }
    guard let bytes else {
        let reason =
            file == "-" ? "cannot read standard input" : "cannot read \(file): \(String(cString: strerror(errno)))"
        errorOutput("spconnect inspect: \(reason)")
        return 2
    }
    let pageURL = url ?? fileURL(for: file)
    let page: HTMLPage
    do {
        page = try HTMLPage(bytes: bytes, url: pageURL, charset: charset)
    } catch {
        errorOutput("spconnect inspect: \(error)")
        return 2
    }
    output(PageInspection.report(page).serialized(options: [.prettyPrinted, .sortedKeys]))
    return 0
}

/// `file://` URL for a path (made absolute against the working directory).
private func fileURL(for path: String) -> String {
    if path == "-" { return "file:///dev/stdin" }
    var absolute = path
    if !path.hasPrefix("/") {
        var buffer = [CChar](repeating: 0, count: 4096)
        if getcwd(&buffer, buffer.count) != nil {
            absolute =
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
        }
    }
    return "file://"
        + absolute.split(separator: "/", omittingEmptySubsequences: false)
        .map { FormEncoding.percentEncode(String($0)).replacingPlus() }.joined(separator: "/")
}

/// Reads a file descriptor to its end; nil on a read error.
func readAll(fileDescriptor: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(fileDescriptor, &buffer, buffer.count)
        if count < 0 { return nil }
        if count == 0 { return bytes }
        bytes.append(contentsOf: buffer[0..<count])
    }
}

/// Writes a line to standard error.
func writeStandardError(_ text: String) {
    let line = Array((text + "\n").utf8)
    line.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

extension String {
    /// `+` (a form-encoded space) back to `%20` for use in a URL path.
    fileprivate func replacingPlus() -> String {
        var result = ""
        for character in self { result += character == "+" ? "%20" : String(character) }
        return result
    }
}
