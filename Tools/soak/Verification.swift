import Foundation
import JSON

/// What a night's outputs must equal: the server's files, its list and the local folder that was uploaded.
enum Verification {
    /// Every regular file below `root` (names starting with `.`, spconnect's own files, left out): path → bytes.
    static func localTree(_ root: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            var isDirectory: ObjCBool = false
            let path = root + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
            }
        }
        return files
    }

    /// The differences between what a copy holds and what it should: files lost, extra (duplicated or never
    /// removed) and corrupted, each named.
    static func compare(copy: [String: [UInt8]], truth: [String: [UInt8]], what: String) -> [String] {
        var found: [String] = []
        for (path, bytes) in truth.sorted(by: { $0.key < $1.key }) {
            guard let held = copy[path] else {
                found.append("lost: \(what) lacks \(path)")
                continue
            }
            if held != bytes {
                found.append("corrupted: \(what) \(path) (\(held.count) bytes, \(bytes.count) expected)")
            }
        }
        for path in copy.keys.sorted() where truth[path] == nil {
            found.append("duplicated: \(what) holds \(path), which the source no longer has")
        }
        return found
    }

    /// Applies an `items --since-token --out` run to `replica`: a full run replaces it, an incremental one adds and
    /// updates its items and removes the ids reported deleted.
    static func apply(export: String, stderr: String, full: Bool, to replica: inout [Int: String]) throws {
        var items: [Int: String] = [:]
        for line in export.split(separator: "\n") where !line.isEmpty {
            let value = try JSONValue.parse(String(line))
            guard let id = value["Id"]?.intValue ?? value["ID"]?.intValue else { continue }
            items[id] = value["Title"]?.stringValue ?? ""
        }
        if full { replica = [:] }
        replica.merge(items) { $1 }
        for line in stderr.split(separator: "\n") {
            guard let range = line.range(of: "deleted: ") else { continue }
            let digits = line[range.upperBound...].prefix { $0.isNumber }
            if let id = Int(digits) { replica[id] = nil }
        }
    }
}
