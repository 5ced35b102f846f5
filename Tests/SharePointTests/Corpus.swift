import Foundation
import JSON
import SharePoint
import TestSupport
import Testing

/// The shared capture corpus (`../shared/corpus/sp-rest` beside the package root). Read in place, never copied.
enum Corpus {
    static let directory = SharedCorpus.restResponses

    static var manifestURL: URL { directory.appendingPathComponent("manifest.json") }

    static var available: Bool { SharedCorpus.isAvailable(directory) }

    static let absentMessage = SharedCorpus.absentMessage(directory)

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }

    /// The manifest's `files` entries (empty when the corpus is absent or unreadable).
    static let entries: [JSONValue] = {
        guard let data = try? Data(contentsOf: manifestURL), let manifest = try? JSONValue.parse(data) else {
            return []
        }
        return manifest["files"]?.arrayValue ?? []
    }()

    static func entry(_ file: String) -> JSONValue? {
        entries.first { $0["file"]?.stringValue == file }
    }

    /// Every fact of every JSON file in the manifest.
    static let jsonFacts: [CorpusFact] = entries.filter { $0["format"]?.stringValue == "json" }.flatMap { entry in
        (entry["facts"]?.arrayValue ?? []).map { fact in
            CorpusFact(
                file: entry["file"]?.stringValue ?? "?", path: fact["path"]?.stringValue ?? "?",
                fact: fact["fact"]?.stringValue ?? "?", expected: fact["value"] ?? .null,
                status: entry["http_status"]?.intValue ?? 0,
                recordedHeaders: (entry["recorded_response_headers"]?.objectValue ?? []).compactMap { name, value in
                    value.stringValue.map { (name, $0) }
                })
        }
    }
}

/// One fact from the manifest: in `file`, `path` must hold `expected`.
struct CorpusFact: Sendable, CustomTestStringConvertible {
    let file: String
    let path: String
    let fact: String
    let expected: JSONValue
    let status: Int
    let recordedHeaders: [(String, String)]

    var testDescription: String { "\(file): \(path) (\(fact))" }
}

/// Evaluates a manifest path (`value[0].odata.editLink`, `len(d.results)`, `headers.x-idcrl_auth_params_v1`)
/// against parsed JSON. A key that itself contains dots is matched whole: at each object the longest member
/// name that prefixes the rest of the path wins.
enum ManifestPath {
    static func evaluate(_ path: String, in root: JSONValue) -> JSONValue? {
        if path.hasPrefix("len("), path.hasSuffix(")") {
            let inner = String(path.dropFirst(4).dropLast())
            guard let value = evaluate(inner, in: root) else { return nil }
            if let array = value.arrayValue { return .integer(Int64(array.count)) }
            if let object = value.objectValue { return .integer(Int64(object.count)) }
            return nil
        }
        var current = root
        var rest = Substring(path)
        while !rest.isEmpty {
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                    let element = current[index]
                else { return nil }
                current = element
                rest = rest[rest.index(after: close)...]
            } else {
                if rest.hasPrefix(".") { rest = rest.dropFirst() }
                guard let members = current.objectValue else { return nil }
                let match = members.map(\.0).filter { name in
                    rest == name || rest.hasPrefix(name + ".") || rest.hasPrefix(name + "[")
                }.max { $0.count < $1.count }
                guard let name = match, let value = current[name] else { return nil }
                current = value
                rest = rest.dropFirst(name.count)
            }
        }
        return current
    }
}
