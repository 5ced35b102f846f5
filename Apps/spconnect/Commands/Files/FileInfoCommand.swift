import CommandLineKit
import FileOperations
import Presentation
import SharePoint

/// `spconnect file PATH`: one file's properties.
let fileCommand = Command(
    name: "file",
    summary: "Show a file's properties: size, created and modified with who, version, check-out, unique id, ETag.",
    synopsis: "PATH [--output FORMAT]   (PATH: a file path or browser address; see docs/cli.md)",
    options: SiteContext.options,
    examples: [
        "spconnect file 'Shared Documents/report.docx'",
        "spconnect file Documents/report.docx -o json | jq -r .etag",
    ]
) { arguments in
    try await withSiteErrors("file") {
        let word = try positionals(arguments, "PATH")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let file = try await withFile(word, site: site) { path in
            try await site.fileProperties(serverRelativeURL: path)
        }
        output.renderOne(
            SharePointRecords.record(fileProperties: file), columns: SharePointRecords.filePropertyColumns)
        return .ok
    }
}

/// Runs `body` with the server-relative path of the file `word` names (``SharePoint/SharePointSite/withPath(named:container:_:)``); nothing
/// there is "not found" with the closest name beside it (``SharePoint/SharePointSite/withSuggestion(for:_:)``); a folder there is a usage
/// error saying so (and what to do about it: `folderAdvice`, by default listing it with `ls`).
func withFile<T>(
    _ word: String, site: SharePointSite, folderAdvice: String? = nil, _ body: (String) async throws -> T
) async throws -> T {
    try await site.withSuggestion(for: word) {
        try await site.withPath(named: word, container: false) { path in
            do {
                return try await body(path)
            } catch let error as SharePointError where error.isMissingPath {
                if (try? await site.folder(serverRelativeURL: path)) != nil {
                    throw UsageError(
                        description: "\(path) is a folder, not a file: "
                            + (folderAdvice ?? "list it with 'spconnect ls \(word)'"))
                }
                throw error
            }
        }
    }
}
