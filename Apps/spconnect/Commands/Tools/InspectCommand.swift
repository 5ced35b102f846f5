import AuthFlow
import CommandLineKit
import Foundation
import HTML
import JSON

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
func inspect(file: String, url: String?, charset: String?) -> Int32 {
    if let url, URLResolver.components(of: url).scheme == nil {
        printError("spconnect inspect: --url must be an absolute URL (got \"\(url)\")")
        return 2
    }
    let data: Data?
    do {
        data =
            file == "-"
            ? try FileHandle.standardInput.readToEnd() ?? Data()
            : try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
        // The system's reason ("No such file or directory") when Foundation passes it on.
        let system = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map {
            String(cString: strerror(Int32(($0 as NSError).code)))
        }
        let reason = file == "-" ? "cannot read standard input" : "cannot read \(file): \(system ?? "\(error)")"
        printError("spconnect inspect: \(reason)")
        return 2
    }
    // A page read from a file resolves its relative links against the file's own address unless --url says.
    let pageURL = url ?? (file == "-" ? "file:///dev/stdin" : URL(fileURLWithPath: file).absoluteString)
    let page: HTMLPage
    do {
        page = try HTMLPage(bytes: Array(data ?? Data()), url: pageURL, charset: charset)
    } catch {
        printError("spconnect inspect: \(error)")
        return 2
    }
    print(PageInspection.report(page).serialized(options: [.prettyPrinted, .sortedKeys]))
    return 0
}
