public import CommandLineKit
import Foundation

extension DownloadTarget {
    /// `LIST ID...` groups and file words, in order: a word followed by whole numbers is a list and those are its
    /// item ids; any other word names a file.
    public static func parse(_ words: [String]) throws(UsageError) -> [DownloadTarget] {
        var targets: [DownloadTarget] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            var ids: [Int] = []
            while index < words.count, let id = Int(words[index]) {
                guard id > 0 else { throw UsageError(description: "'\(id)' is not an item id (a whole number from 1)") }
                ids.append(id)
                index += 1
            }
            if ids.isEmpty, Int(word) != nil {
                throw UsageError(description: "'\(word)' looks like an item id: give the list first (LIST ID...)")
            }
            targets.append(ids.isEmpty ? .file(word) : .items(list: word, ids: ids))
        }
        guard !targets.isEmpty else {
            throw UsageError(description: "nothing to download: give LIST ID... or a file's path or address")
        }
        return targets
    }
}

extension FileDownloads {
    /// `urls` without repeats, checked before anything is transferred: two different files that would be saved under
    /// one name in `directory` are a usage error naming both (one would silently replace the other).
    public static func distinctDestinations(_ urls: [String], in directory: String) throws(UsageError) -> [String] {
        var seen: Set<String> = []
        var byName: [String: String] = [:]
        var distinct: [String] = []
        for url in urls where seen.insert(url).inserted {
            let name = URL(fileURLWithPath: url).lastPathComponent
            if let earlier = byName[name] {
                throw UsageError(
                    description: "\(earlier) and \(url) would both be saved as '\(name)' in \(directory); nothing was "
                        + "downloaded. Download them in separate runs with different --to folders")
            }
            byName[name] = url
            distinct.append(url)
        }
        return distinct
    }
}
