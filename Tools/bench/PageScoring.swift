// `bench --pages --manifest DIR`: scores the page reader on any folder of pages with a manifest.json written to the
// shared corpus's conventions (file, kind, form_index, username_field, password_field, code_field, action, method,
// error_text). Prints per-kind accuracy as a confusion table (rows: the manifest's kind, columns: what was read)
// and the accuracy of each extracted fact. Nothing here asserts: it is for measuring on pages of one's own.
import AuthFlow
import Foundation
import HTML

/// One page's expected facts, from the manifest.
private struct Expected {
    var file: String
    var kind: String
    var facts: [String: String?]
}

/// The report lines for the pages in `directory`.
func pageScoreReport(directory: String) throws -> [String] {
    let manifestURL = URL(fileURLWithPath: directory).appendingPathComponent("manifest.json")
    guard let data = FileManager.default.contents(atPath: manifestURL.path),
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
    else { fail("no manifest.json (a JSON array of pages) in \(directory)") }
    let factKeys = ["form_index", "username_field", "password_field", "code_field", "action", "method", "error_text"]
    let expected = entries.compactMap { entry -> Expected? in
        guard let file = entry["file"] as? String, let kind = entry["kind"] as? String else { return nil }
        var facts: [String: String?] = [:]
        for key in factKeys where entry.keys.contains(key) {
            let value = entry[key]
            facts[key] = value is NSNull ? String?.none : value.map { "\($0)" }
        }
        return Expected(file: file, kind: kind, facts: facts)
    }
    var confusion: [String: [String: Int]] = [:]
    var factHits: [String: (right: Int, total: Int)] = [:]
    var misses: [String] = []
    for page in expected {
        guard let bytes = FileManager.default.contents(atPath: directory + "/" + page.file) else {
            misses.append("  \(page.file): missing")
            continue
        }
        let read = try HTMLPage(bytes: Array(bytes), url: "https://idp.example.test/signin/start?x=1")
        let classification = read.classification
        let kind = classification.kind.manifestName
        confusion[page.kind, default: [:]][kind, default: 0] += 1
        if kind != page.kind {
            misses.append("  \(page.file): \(page.kind) read as \(kind) (\(classification.reason))")
        }
        // The form the page is about: the one the reader chose, else (pages with nothing to fill) the one the
        // manifest names, so its fields are still scored.
        let named = (page.facts["form_index"] ?? nil).flatMap { Int($0) }
        let index = classification.formIndex ?? named.flatMap { read.forms.indices.contains($0) ? $0 : nil }
        let form = index.map { read.forms[$0] }
        let actual: [String: String?] = [
            "form_index": index.map(String.init), "username_field": form?.usernameField?.name,
            "password_field": form?.passwordField?.name, "code_field": form?.codeField?.name,
            "action": form?.action, "method": form?.method.rawValue, "error_text": read.errorText,
        ]
        for (key, value) in page.facts {
            let right = actual[key].flatMap { $0 } == value
            let tally = factHits[key] ?? (0, 0)
            factHits[key] = (tally.right + (right ? 1 : 0), tally.total + 1)
            if !right {
                misses.append(
                    "  \(page.file): \(key) expected \(value ?? "null"), read \(actual[key].flatMap { $0 } ?? "null")")
            }
        }
    }
    let kinds = Array(Set(confusion.keys).union(confusion.values.flatMap(\.keys))).sorted()
    let width = max(12, (kinds.map(\.count).max() ?? 0) + 1)
    func cell(_ text: String) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
    var lines = ["page scoring: \(expected.count) pages of \(directory)", "", "kind (manifest \\ read)"]
    lines.append(cell("") + kinds.map(cell).joined() + cell("accuracy"))
    var right = 0
    for kind in kinds where confusion[kind] != nil {
        let row = confusion[kind] ?? [:]
        let total = row.values.reduce(0, +)
        right += row[kind] ?? 0
        let accuracy = total == 0 ? 0 : 100 * (row[kind] ?? 0) / total
        lines.append(cell(kind) + kinds.map { cell(String(row[$0] ?? 0)) }.joined() + cell("\(accuracy)%"))
    }
    lines.append("kinds right: \(right) of \(expected.count)")
    lines.append("")
    for key in factKeys {
        guard let tally = factHits[key] else { continue }
        lines.append("  \(key): \(tally.right) of \(tally.total) right")
    }
    if !misses.isEmpty { lines += ["", "misses:"] + misses }
    return lines
}
