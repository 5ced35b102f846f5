import CommandLineKit
import FileOperations
import Presentation
import SharePoint

/// `spconnect mkdir FOLDER`: a new folder in a library (its parent must exist).
let mkdirCommand = Command(
    name: "mkdir", summary: "Make a folder in a library (the folder it goes in must exist).",
    synopsis: "FOLDER [--output FORMAT]   (e.g. Documents/Reports; FOLDER as for ls, see docs/cli.md)",
    options: SiteContext.options,
    examples: [
        "spconnect mkdir Documents/Reports",
        "spconnect mkdir '/sites/team/Shared Documents/2026'",
    ]
) { arguments in
    try await withSiteErrors("mkdir") {
        let word = try positionals(arguments, "FOLDER")[0]
        var trimmed = word
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex else {
            throw UsageError(
                description: "'\(word)' names no library to make it in: write LIBRARY/NAME, e.g. Documents/\(trimmed)")
        }
        let parent = String(trimmed[..<slash])
        let name = String(trimmed[trimmed.index(after: slash)...])
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let made: Folder? = try await site.withPath(named: parent, container: true) { path in
            // Reading the parent first tells a missing parent (exit 8) from a folder that is already there.
            let existing = try await site.folders(inFolder: path)
            if existing.contains(where: { $0.name.lowercased() == name.lowercased() }) { return nil }
            return try await site.createFolder(named: name, in: path)
        }
        guard let made else {
            printError("spconnect mkdir: A folder named '\(name)' already exists in \(parent); nothing was changed.")
            return .conflict
        }
        output.renderOne(SharePointRecords.record(folder: made), columns: SharePointRecords.entryColumns)
        return .ok
    }
}
