// Two aids for changing the page reader (`bench --pages --dump FILE`, `bench --pages --per-page`): a dump of every
// field it reads from the shared corpus, to show a speed change changes nothing, and the pages that cost the most.
import Foundation
import HTML

/// `../shared/corpus/idp`, beside the package.
let corpusDirectory = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent(
    "shared/corpus/idp")

/// The corpus pages of ``corpusDirectory`` (`.html`, `.htm`), by file name, in name order; none when it is missing.
func corpusPages() -> [(name: String, bytes: [UInt8])] {
    let corpus = corpusDirectory
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
        .filter { $0.hasSuffix(".html") || $0.hasSuffix(".htm") }.sorted()
    return names.compactMap { name in
        FileManager.default.contents(atPath: corpus.appendingPathComponent(name).path).map { (name, Array($0)) }
    }
}

/// Writes to `path` every field of every corpus page as read (Swift's `dump` of the `HTMLPage` and of its
/// classification): each page whole and cut to 1/2, 1/3 and 3/4 of its bytes, each against two URLs. Two builds that
/// read pages alike write the same file.
func writePageReadingDump(to path: String) throws {
    var out = ""
    for (name, bytes) in corpusPages() {
        for cut in [bytes.count, bytes.count / 2, bytes.count / 3, bytes.count * 3 / 4] {
            for url in ["https://login.example.test/common/login", "https://idp.example.org/a/b/login?x=1"] {
                out += "=== \(name) \(cut) bytes at \(url)\n"
                let page = try HTMLPage(bytes: Array(bytes.prefix(cut)), url: url)
                dump(page, to: &out)
                dump(page.classification, to: &out)
            }
        }
    }
    try out.write(toFile: path, atomically: true, encoding: .utf8)
}

/// The 20 corpus pages that take longest to read (best of `runs` each), with their share of the whole corpus.
func slowestPagesReport(runs: Int) throws -> [String] {
    var rows: [(seconds: Double, name: String, size: Int)] = []
    for (name, bytes) in corpusPages() {
        let seconds = try bestSeconds(runs: runs) {
            _ = try HTMLPage(bytes: bytes, url: "https://login.example.test/common/login")
        }
        rows.append((seconds, name, bytes.count))
    }
    let total = rows.reduce(0) { $0 + $1.seconds }
    var lines = ["slowest pages (best of \(runs) each; the corpus in \(fixed(total * 1000, 2)) ms):"]
    for row in rows.sorted(by: { $0.seconds > $1.seconds }).prefix(20) {
        lines.append(
            "  \(fixed(row.seconds * 1000, 3)) ms  \(fixed(row.seconds / total * 100, 1)) %  \(row.size / 1024) KiB  "
                + row.name)
    }
    return lines
}
