import Foundation
import JSON
import SharePoint

/// What people do to the site during one day: files added, edited (Office files too), deleted, renamed and moved in
/// the mirrored folder, a folder renamed now and then, and items added, edited and deleted in the exported list.
struct ServerChanges {
    let world: SoakWorld

    /// Applies one day's changes; returns how many of each were made.
    func applyDay(_ night: Int, random: inout SoakRandom) async throws -> [String: Int] {
        var made: [String: Int] = [:]
        let tree = try await ServerTree.read(world.mirroredFolder, site: world.site)
        let folders = [""] + tree.folders
        for index in 0..<random.below(4) {
            let folder = random.pick(folders)
            let office = random.chance(25)
            let name = "n\(night)-\(index)" + (office ? random.pick([".docx", ".xlsx", ".pptx"]) : ".txt")
            try await put(folder, name, content(&random, office: office))
            made["added", default: 0] += 1
        }
        var files = tree.files.keys.sorted()
        for _ in 0..<random.below(3) where !files.isEmpty {
            let path = random.pick(files)
            let parts = split(path)
            try await put(parts.folder, parts.name, content(&random, office: isOffice(path)))
            made["edited", default: 0] += 1
        }
        if random.chance(40), let path = files.isEmpty ? nil : random.pick(files) {
            _ = try await world.site.recycleFile(serverRelativeURL: url(path))
            files.removeAll { $0 == path }
            made["deleted", default: 0] += 1
        }
        if random.chance(30), let path = files.isEmpty ? nil : random.pick(files) {
            let parts = split(path)
            let renamed = join(parts.folder, "renamed-\(night)-" + parts.name)
            try await world.site.moveFile(serverRelativeURL: url(path), to: url(renamed), overwrite: false)
            files.removeAll { $0 == path }
            made["renamed", default: 0] += 1
        }
        if random.chance(30), let path = files.isEmpty ? nil : random.pick(files) {
            let parts = split(path)
            let target = random.pick(folders.filter { $0 != parts.folder } + ["Moved"])
            try await ensureFolder(target)
            try await world.site.moveFile(
                serverRelativeURL: url(path), to: url(join(target, "moved-\(night)-" + parts.name)), overwrite: false)
            made["moved", default: 0] += 1
        }
        if random.chance(8), let folder = tree.folders.filter({ !$0.contains("/") }).first {
            try await world.site.moveFolder(serverRelativeURL: url(folder), to: url("\(folder)-r\(night)"))
            made["folder renamed", default: 0] += 1
        } else if random.chance(15) {
            try await ensureFolder(random.pick(["Reports", "Reports/2026", "Archive", "Team/Plans"]))
        }
        try await changeItems(night, &random, &made)
        return made
    }

    private func changeItems(_ night: Int, _ random: inout SoakRandom, _ made: inout [String: Int]) async throws {
        let list = ListPath.title(world.list)
        for index in 0..<random.below(3) {
            _ = try await world.site.addItem(to: list, fields: [("Title", .string("night \(night) item \(index)"))])
            made["items added", default: 0] += 1
        }
        let ids = try await ServerTree.itemTitles(world.list, site: world.site).keys.sorted()
        for _ in 0..<random.below(3) where !ids.isEmpty {
            let id = random.pick(ids)
            try await world.site.updateItem(
                in: list, id: id, fields: [("Title", .string("edited night \(night) #\(random.below(1000))"))])
            made["items edited", default: 0] += 1
        }
        if random.chance(30), !ids.isEmpty {
            try await world.site.deleteItem(in: list, id: random.pick(ids))
            made["items deleted", default: 0] += 1
        }
    }

    private func put(_ folder: String, _ name: String, _ bytes: [UInt8]) async throws {
        try await ensureFolder(folder)
        let scratch = world.work + "/scratch-" + name
        try Data(bytes).write(to: URL(fileURLWithPath: scratch))
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        _ = try await world.site.upload(file: scratch, toFolder: url(folder), as: name, overwrite: true)
    }

    private func ensureFolder(_ relative: String) async throws {
        var current = ""
        for part in relative.split(separator: "/").map(String.init) {
            let next = join(current, part)
            if (try? await world.site.folder(serverRelativeURL: url(next))) == nil {
                _ = try await world.site.createFolder(named: part, in: url(current))
            }
            current = next
        }
    }

    /// Text of a few bytes to 40 KiB, or a zip-like Office body (`PK` and binary).
    private func content(_ random: inout SoakRandom, office: Bool) -> [UInt8] {
        let size = random.pick([0, 17, 512, 4096, 40_000])
        var bytes: [UInt8] = office ? [0x50, 0x4B, 0x03, 0x04] : []
        while bytes.count < size { bytes.append(office ? UInt8(random.below(256)) : UInt8(0x61 + random.below(26))) }
        return bytes
    }

    private func isOffice(_ path: String) -> Bool {
        [".docx", ".xlsx", ".pptx"].contains { path.hasSuffix($0) }
    }

    private func url(_ relative: String) -> String {
        relative.isEmpty ? world.mirroredFolder : world.mirroredFolder + "/" + relative
    }
}

/// `folder/name` without a leading slash for the top.
func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

/// A relative path's folder and name.
func split(_ path: String) -> (folder: String, name: String) {
    let name = (path as NSString).lastPathComponent
    return (path.count > name.count ? String(path.dropLast(name.count + 1)) : "", name)
}
