// Fuzz target: the JSON parser (Modules/JSON).
//
// Oracles, on every input:
// - the streaming parse (`parse(bytes:streaming:)`) fails exactly when the plain parse fails, with the same offset
//   and reason, and otherwise hands over the elements the plain parse put in the streamed arrays;
// - the skipping parse (`parse(bytes:skipping:)`) accepts whatever the plain parse accepts, with the same tree
//   around the skipped arrays;
// - for a parsed value: write (compact, pretty, doubles keeping their fraction) and parse again gives the same
//   value (non-finite doubles, which JSON cannot express, read back as null, as documented), and writing that
//   value again gives the same text.
import FuzzSupport
import JSON

/// The member paths the streaming parses follow: SharePoint's two collection places and one deeper path.
let streamPaths: [[String]] = [["d", "results"], ["value"], ["a", "b", "c"]]

func fuzzJSON(_ bytes: [UInt8]) {
    let plain = Result { () throws(JSONSyntaxError) in try JSONValue.parse(bytes: bytes) }

    var handed: [[JSONValue]] = Array(repeating: [], count: streamPaths.count)
    let streaming = Result { () throws(JSONSyntaxError) in
        try JSONValue.parse(bytes: bytes, streaming: streamPaths) { path, value in handed[path].append(value) }
    }
    switch (plain, streaming) {
    case (.failure(let a), .failure(let b)):
        Fuzz.check(a == b, "plain parse failed with \(a), the streaming parse with \(b)")
    case (.success(let value), .success(let (root, streamed))):
        var expected = value
        for (index, path) in streamPaths.enumerated() {
            let found = streamedArray(in: value, path: path)
            Fuzz.check(
                streamed[index] == (found != nil), "path \(path): streamed \(streamed[index]), found \(found != nil)")
            Fuzz.check((found ?? []) == handed[index], "path \(path): the streamed elements differ from the tree's")
            if found != nil { expected = emptying(expected, path: path[...]) }
        }
        Fuzz.check(root == expected, "the streaming parse's tree differs: \(root) vs \(expected)")
    case (.success, .failure(let error)):
        Fuzz.check(false, "the plain parse succeeded, the streaming parse failed: \(error)")
    case (.failure(let error), .success):
        Fuzz.check(false, "the plain parse failed (\(error)), the streaming parse succeeded")
    }

    guard case .success(let value) = plain else { return }

    switch Result(catching: { () throws(JSONSyntaxError) in try JSONValue.parse(bytes: bytes, skipping: streamPaths) })
    {
    case .success(let (root, skipped)):
        var expected = value
        for (index, path) in streamPaths.enumerated() {
            let found = streamedArray(in: value, path: path) != nil
            Fuzz.check(skipped[index] == found, "skipping path \(path): \(skipped[index]) vs found \(found)")
            if found { expected = emptying(expected, path: path[...]) }
        }
        Fuzz.check(root == expected, "the skipping parse's tree differs: \(root) vs \(expected)")
    case .failure(let error):
        Fuzz.check(false, "the plain parse succeeded, the skipping parse failed: \(error)")
    }

    let readable = nonFiniteAsNull(value)
    let options: [JSONValue.WritingOptions] = [
        [], .prettyPrinted, .doublesKeepFraction, [.prettyPrinted, .sortedKeys],
    ]
    for option in options {
        let text = value.serialized(options: option)
        Fuzz.check(Array(text.utf8) == Array(value.encoded(options: option)), "serialized and encoded differ")
        guard let again = try? JSONValue.parse(text) else {
            Fuzz.check(false, "written JSON does not parse: \(text)")
            return
        }
        if option.contains(.sortedKeys) {
            Fuzz.check(again == sortedKeys(readable), "sorted output reads back differently: \(text)")
        } else {
            Fuzz.check(again == readable, "written JSON reads back differently: \(text)")
        }
        Fuzz.check(again.serialized(options: option) == text, "writing the read-back value changes the text: \(text)")
    }
}

/// The array at `path` as the streaming parse finds it: the first member of each name, objects only.
func streamedArray(in value: JSONValue, path: [String]) -> [JSONValue]? {
    var current = value
    for name in path {
        guard case .object = current, let next = current.member(name) else { return nil }
        current = next
    }
    return current.arrayValue
}

/// `value` with the array at `path` (first members) replaced by `[]`.
func emptying(_ value: JSONValue, path: ArraySlice<String>) -> JSONValue {
    guard let name = path.first else { return .array([]) }
    guard case .object(var members) = value, let index = members.firstIndex(where: { $0.0 == name }) else {
        return value
    }
    members[index].1 = emptying(members[index].1, path: path.dropFirst())
    return .object(members)
}

func nonFiniteAsNull(_ value: JSONValue) -> JSONValue {
    switch value {
    case .double(let d) where !d.isFinite: return .null
    case .array(let elements): return .array(elements.map(nonFiniteAsNull))
    case .object(let members): return .object(members.map { ($0.0, nonFiniteAsNull($0.1)) })
    default: return value
    }
}

func sortedKeys(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements): return .array(elements.map(sortedKeys))
    case .object(let members):
        return .object(
            members.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map {
                ($0.element.0, sortedKeys($0.element.1))
            })
    default: return value
    }
}

@main enum Main {
    static func main() { Fuzz.main(fuzzJSON) }
}
