import Foundation
import HTTPServer

/// Folders of one's own inside lists and libraries: `…/Folders/add(url='Name')` (and `AddUsingPath(decodedurl=…)`)
/// on a list's root folder or any folder below it.
extension SimulatorCore {
    /// The list whose root folder holds `folder` (its built-in sub-folder, or a folder made below it).
    func listOwning(folder: String) -> SPList? {
        let wanted = folder.lowercased()
        return state.withLock { state in
            state.lists.first { list in
                let root = list.url.lowercased()
                return list.subfolderURL.lowercased() == wanted || wanted.hasPrefix(root + "/")
            }
        }
    }

    /// `…/Folders/add(url='Name')`: makes the folder `Name` in `parent` (a list's root folder or a folder below it)
    /// and answers it as `SP.Folder`; an existing folder of that name is answered as it is (as SharePoint does).
    func addFolder(in parent: String, _ segment: Segment, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let name: String
        if segment.lower == "addusingpath" {
            name = segment.parameter("decodedurl") ?? ""
        } else {
            name = try decodedURLLiteral(segment.parameter("url") ?? segment.stringArgument ?? "")
        }
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw RESTError.argument("The folder name is not valid.")
        }
        guard
            let list = listOwning(folder: parent)
                ?? state.withLock({ state in
                    state.lists.first { $0.url.lowercased() == parent.lowercased() }
                })
        else {
            throw RESTError.argument("Folders cannot be added to the root folder of this simulated web.")
        }
        let url = parent + "/" + name
        if let existing = subfolder(url) { return jsonResponse(folderEntity(existing, context, top: true), context) }
        if fileByURL(url) != nil {
            throw RESTError(
                status: 400, code: "-2130575257, Microsoft.SharePoint.SPException",
                message: "A file with the name \(url) already exists.")
        }
        let now = nowEpoch()
        state.withLock { state in
            state.createdFolders.append((url, now))
            list.lastModified = now
        }
        return jsonResponse(folderEntity(url, context, top: true), context)
    }

    /// The server-relative folder that holds `url` (`/` for a top-level one).
    static func parent(of url: String) -> String {
        guard let slash = url.lastIndex(of: "/"), slash != url.startIndex else { return "/" }
        return String(url[..<slash])
    }
}
