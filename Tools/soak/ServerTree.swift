import Foundation
import SPSim
import SharePoint

/// The ground truth on the server, read by the harness's own client.
struct ServerTree {
    /// Relative path → the file's bytes.
    var files: [String: [UInt8]] = [:]
    var folders: [String] = []

    /// Every file and folder below `top`, with each file's content as the simulator serves it.
    static func read(_ top: String, site: SharePointSite, sim: Simulator? = nil) async throws -> ServerTree {
        var tree = ServerTree()
        var pending = [(top, "")]
        while let (folder, prefix) = pending.popLast() {
            for file in try await site.files(inFolder: folder) {
                let bytes =
                    sim.flatMap { sim in
                        sim.fileBytes(serverRelativeURL: file.serverRelativeUrl, offset: 0, count: Int(file.length) + 1)
                    } ?? []
                tree.files[prefix + file.name] = bytes
            }
            for sub in try await site.folders(inFolder: folder) where sub.name != "Forms" {
                tree.folders.append(prefix + sub.name)
                pending.append((sub.serverRelativeUrl, prefix + sub.name + "/"))
            }
        }
        return tree
    }

    /// Every item's title by id.
    static func itemTitles(_ list: String, site: SharePointSite) async throws -> [Int: String] {
        var titles: [Int: String] = [:]
        for try await page in site.items(in: .title(list), query: ODataQuery(select: ["Id", "Title"])) {
            for item in page.items { titles[item.id] = item["Title"]?.stringValue ?? "" }
        }
        return titles
    }
}
