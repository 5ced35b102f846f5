import Foundation
import TestSupport
import Testing

@testable import HTML

/// The lexicon's catalog vocabulary (`Modules/HTML/Lexicon/SignInLexicon+Catalogs.swift`) is what
/// `Tools/lexicon/build-lexicon.py` makes from the identity providers' catalogs in `../shared/corpus/idp-strings`,
/// and it gives the engine the words of many languages (issue #37).
@Suite("Lexicon from the identity providers' catalogs")
struct LexiconCatalogTests {
    static let catalogs = SharedCorpus.root.appendingPathComponent("idp-strings")
    static var haveCatalogsAndPython: Bool {
        FileManager.default.fileExists(atPath: catalogs.appendingPathComponent("SOURCES.md").path)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    }

    @Test(
        "the checked-in vocabulary is exactly what the tool makes from the catalogs",
        .enabled(
            if: haveCatalogsAndPython,
            "SKIPPED: needs ../shared/corpus/idp-strings and /usr/bin/python3 to run Tools/lexicon/build-lexicon.py"))
    func generatedFileIsTheToolsOutput() async throws {
        let scratch = try temporaryDirectory("lexicon")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let root = SharedCorpus.packageRoot.path
        let status = await spawnToExit(
            "/usr/bin/python3",
            [
                root + "/Tools/lexicon/build-lexicon.py", Self.catalogs.path, "--output", scratch + "/made.swift",
                "--sources-output", scratch + "/made-sources.tsv",
            ],
            environment: ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"],
            standardOutput: scratch + "/out", standardError: scratch + "/err", timeout: .seconds(300))
        let errors = (try? String(contentsOfFile: scratch + "/err", encoding: .utf8)) ?? ""
        try #require(status == 0, "the tool failed (\(status)): \(errors.suffix(800))")
        let made = try String(contentsOfFile: scratch + "/made.swift", encoding: .utf8)
        let checkedIn = try String(
            contentsOfFile: root + "/Modules/HTML/Lexicon/SignInLexicon+Catalogs.swift", encoding: .utf8)
        #expect(made == checkedIn, "run python3 Tools/lexicon/build-lexicon.py and commit its output")
        let madeSources = try String(contentsOfFile: scratch + "/made-sources.tsv", encoding: .utf8)
        let checkedInSources = try String(
            contentsOfFile: root + "/Tools/lexicon/catalog-sources.tsv", encoding: .utf8)
        #expect(madeSources == checkedInSources, "run python3 Tools/lexicon/build-lexicon.py and commit its output")
    }

    @Test("the vocabulary covers at least 25 languages, each entry with its source in the provenance table")
    func coverage() throws {
        let lines = SignInLexicon.catalogTable.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(lines.allSatisfy { $0.count == 4 }, "every entry: concept, kind, language, text")
        let provenance = try String(
            contentsOfFile: SharedCorpus.packageRoot.path + "/Tools/lexicon/catalog-sources.tsv", encoding: .utf8
        ).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
        #expect(
            provenance.map { $0.prefix(4).joined(separator: "\t") } == lines.map { $0.joined(separator: "\t") },
            "the provenance table lists the program's entries, in order")
        #expect(provenance.allSatisfy { $0.count == 5 && $0[4].contains(":") }, "every entry: source:messageKey")
        let languages = Set(lines.filter { $0.count == 4 && $0[1] != "key" }.map { String($0[2]) })
        #expect(languages.count >= 25, "\(languages.count) languages: \(languages.sorted())")
        let concepts = Set(lines.compactMap { $0.first.map(String.init) })
        for concept in ["wrong", "locked", "expired", "code", "approve", "choose", "staySignedIn", "enroll", "accept"] {
            #expect(concepts.contains(concept), "no entry for \(concept)")
        }
    }

    @Test(
        "a word or stem beyond ASCII never reads as ASCII text, so an ASCII word is compared with ASCII entries alone")
    func entriesBeyondASCIIStayBeyondIt() {
        let lines = SignInLexicon.catalogTable.split(separator: "\n").map { $0.split(separator: "\t") }
        let stems = lines.filter { $0.count >= 4 && $0[1] == "stem" }.map { String($0[3]) }
        let words = SignInLexicon.allWords.values.flatMap { $0 }
        for entry in stems + words where entry.utf8.contains(where: { $0 >= 0x80 }) {
            #expect(
                entry.decomposedStringWithCanonicalMapping.utf8.contains { $0 >= 0x80 },
                "\(entry) is canonically equal to ASCII text")
        }
        let openings = SignInLexicon.wordTest(for: .wrong)
        #expect(openings("invalid") && openings("falscher") && !openings("form") && !openings("xy"))
        #expect(SignInLexicon.catalog.startsWithStem("falschen", of: .wrong))
        #expect(!SignInLexicon.catalog.startsWithStem("falsche", of: .wrong), "a stem must go on past itself")
        #expect(SignInLexicon.catalog.startsWithStem("ungültigen", of: .wrong))
        #expect(!SignInLexicon.catalog.startsWithStem("falschen", of: .password))
    }

    @Test("a page's message key means what its catalog says")
    func messageKeys() {
        #expect(SignInLexicon.concepts(ofMessageKey: "5", attribute: "trmsg").first == .wrong)
        let page = try? readPage(
            #"<div class="alert alert-danger" role="alert"><span trmsg="5"></span></div><form method=post>"#
                + #"<input name=user><input type=password name=password></form>"#)
        #expect(page?.errorText?.hasPrefix("the identity provider's message 5: wrong credentials") == true)
    }
}
