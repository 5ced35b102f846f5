import Foundation

/// The content of one of the other site collections (`/sites/NAME`, ``SimulatorOptions/siteCollections``): small,
/// and different from site to site, so a job that exports many sites can tell their outputs apart.
extension SiteContent {
    /// A Documents library with two files and a Tasks list with three items, each naming the site; every URL below
    /// `root` (`/sites/hr/Shared Documents`, `/sites/hr/Lists/Tasks`).
    static func siteCollection(name: String, root: String, seed: UInt64, userIds: [Int]) -> (
        lists: [SPList], files: [SPFile]
    ) {
        let seed = seed ^ UInt64(truncatingIfNeeded: name.lowercased().hashValueStable)
        let author = userIds.first ?? 10
        var files: [SPFile] = []
        let documents = library(seed: seed, title: "Documents", url: root + "/Shared Documents")
        let documentFiles: [(String, String)] = [
            ("About \(name).txt", "The \(name) site of the SPSim tenant.\n"),
            ("\(name) budget.csv", "Quarter,Amount\nQ1,\(100 * name.count)\nQ2,\(110 * name.count)\n"),
        ]
        for (fileName, text) in documentFiles {
            addFile(
                to: documents, name: fileName, content: .bytes(Array(text.utf8)), seed: seed, author: author,
                files: &files)
        }

        let tasks = SPList(
            id: stableGUID(seed, "list/Tasks"), title: "Tasks", baseTemplate: 100, url: root + "/Lists/Tasks",
            fields: standardFields(seed: seed, listLabel: "Tasks")
                + [field(seed, "Tasks", "Status", "Status", "Choice", 6, choices: ["Not Started", "Completed"])],
            created: baseEpoch, description: "\(name) tasks")
        for (index, title) in ["Plan", "Review", "Close"].enumerated() {
            let id = index + 1
            let created = baseEpoch + index * 86400
            tasks.stored[id] = ListItem(
                id: id, values: ["Title": .text("\(name): \(title)"), "Status": .text("Not Started")], version: 1,
                created: created, modified: created, authorId: author, editorId: author,
                guid: stableGUID(seed, "item/Tasks/\(id)"))
        }
        tasks.nextId = 4
        return ([documents, tasks], files)
    }
}

extension String {
    /// A hash that is the same in every process (Swift's `hashValue` is seeded per process): FNV-1a of the UTF-8.
    fileprivate var hashValueStable: UInt64 {
        utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
