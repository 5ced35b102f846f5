import Foundation

/// The "Export" library (`/Export`, `SimulatorOptions.exportFiles` files): a folder tree of generated files for
/// `download -r` tests and the library-export benchmark. Sizes run from 1 KB to 200 KB, contents come from the
/// seed (generated while sent, never held), and the tree is ten folders of five sub-folders each, with every
/// seventeenth file at the library's root.
extension SiteContent {
    /// The library, its files and its folders (parents before children).
    static func exportLibrary(seed: UInt64, count: Int, author: Int)
        -> (list: SPList, files: [SPFile], folders: [String])
    {
        let library = library(seed: seed, title: "Export", url: "/Export")
        var files: [SPFile] = []
        var folders: [String] = []
        var made: Set<String> = []
        for index in 0..<count {
            var folder = library.url
            if index % 17 != 0 {
                let top = library.url + "/folder-\(index % 10)"
                folder = top + "/part-\(index / 10 % 5)"
                for url in [top, folder] where made.insert(url).inserted { folders.append(url) }
            }
            let length = 1024 + Int(mix(seed, index, 0xE8) % UInt64(199 * 1024))
            addFile(
                to: library, folder: folder, name: String(format: "file-%05d.bin", index),
                content: .generated(length: length, seed: mix(seed, index, 0xE9)), seed: seed, author: author,
                files: &files)
        }
        return (library, files, folders)
    }
}
