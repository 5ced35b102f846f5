import Foundation
import TestSupport
import Testing

/// Every repository path README.md and docs/ name exists (issue #38: docs kept pointing to folders that had moved).
/// A path is a run of `Modules/`, `Tests/`, `Tools/`, `Apps/`, `docs/` or `scripts/` and what follows it; a decision
/// named by its number (`docs/decisions/0004`) counts when its record exists, and a path under `../shared/` is looked
/// for there.
@Suite struct DocumentedPathsTests {
    static let root = SharedCorpus.packageRoot.path

    /// The Markdown files of README.md and docs/, recursively.
    static func documents() -> [String] {
        let docs = (FileManager.default.enumerator(atPath: root + "/docs")?.allObjects as? [String]) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
    }

    /// The repository paths a text names (`(../shared/)?(Modules|Tests|Tools|Apps|docs|scripts)/…`).
    static func paths(in text: String) -> [String] {
        let pattern = #"(\.\./shared/)?(Modules|Tests|Tools|Apps|docs|scripts)/[A-Za-z0-9_./+-]+"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            guard let found = Range(match.range, in: text) else { return nil }
            var path = String(text[found])
            while let last = path.last, ".,:;)".contains(last) { path.removeLast() }
            return path
        }
    }

    static func exists(_ path: String) -> Bool {
        let manager = FileManager.default
        let full = path.hasPrefix("../") ? root + "/" + path : root + "/" + path
        if manager.fileExists(atPath: full) { return true }
        // A decision record named by its number.
        if path.hasPrefix("docs/decisions/"), path.count == "docs/decisions/0000".count {
            let number = String(path.suffix(4))
            let records = (try? manager.contentsOfDirectory(atPath: root + "/docs/decisions")) ?? []
            return records.contains { $0.hasPrefix(number + "-") }
        }
        return false
    }

    @Test func everyPathTheDocsNameExists() throws {
        var checked = 0
        for document in Self.documents() {
            let text = try String(contentsOfFile: Self.root + "/" + document, encoding: .utf8)
            for path in Set(Self.paths(in: text)) where !(path.hasPrefix("../shared/") && !Self.sharedPresent) {
                checked += 1
                #expect(Self.exists(path), "\(document) names \(path), which does not exist")
            }
        }
        #expect(checked > 100, "only \(checked) paths were found: the pattern no longer reads the docs")
    }

    /// Whether ../shared is beside the checkout (its paths are checked only then).
    static var sharedPresent: Bool { FileManager.default.fileExists(atPath: root + "/../shared/docs") }

    @Test func aMovedPathIsCaught() {
        // The positive control: the pattern finds a path in prose, and a path that moved is reported missing.
        #expect(
            Self.paths(in: "see `Modules/AuthFlow/PageKinds/Rules/`, then") == ["Modules/AuthFlow/PageKinds/Rules/"])
        #expect(!Self.exists("Modules/AuthFlow/PageKinds/Rules/"))
        #expect(Self.exists("docs/decisions/0004"))
        #expect(!Self.exists("docs/decisions/0099"))
    }
}
