// The page-reading benchmark (`bench --pages`): how the HTML module's cost grows with a page's size.
//
// A synthetic Azure AD-style page (a `$Config` script with a long string and many `location` references, then many
// form controls) is read at scale 1 and at scale 8 by `HTMLPage(bytes:url:)`, in this process, best of R runs each.
// The baseline is the scale-1 page of the same run: a reader that is linear in the page's size shows a ratio near 8,
// a quadratic scan one near 64. Then every page of `../shared/corpus/idp` is read, as pages per second.
// Nothing here asserts a speed: the figures go to docs/performance.md by hand.
import AuthFlow
import Foundation
import HTML

/// The synthetic page at `scale` (1 is about 100 KB).
func syntheticSignInPage(scale: Int) -> [UInt8] {
    var script = "$Config={\"pgid\":\"ConvergedSignIn\",\"urlPost\":\"/p\",\"big\":\""
    script += String(repeating: "abcdefghij", count: 5_000 * scale) + "\"};\n"
    for index in 0..<(500 * scale) {
        script += "var x\(index) = window.foo.location; function f\(index)(a) { return a.location; }\n"
    }
    let controls = String(
        repeating: "<div class=x><span>t</span><input type=hidden name=h value=v></div>", count: 500 * scale)
    return Array(("<script>" + script + "</script>" + controls).utf8)
}

/// A page of `count` small forms (a text input and a submit each), as a hostile or generated page might be.
func manyFormsPage(count: Int) -> [UInt8] {
    let form = "<form action=/search method=get><input name=q><input type=submit value=Go></form>\n"
    return Array(("<html><body>" + String(repeating: form, count: count) + "</body></html>").utf8)
}

/// The best wall time, in seconds, of `runs` calls of `body`.
func bestSeconds(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        best = min(best, (ContinuousClock.now - start) / .seconds(1))
    }
    return best
}

/// Measures the synthetic page at scales 1 and 8 and the corpus pages (only those with `corpusOnly`), and returns the
/// report lines to print.
func pageReadingReport(runs: Int, corpusOnly: Bool = false) throws -> [String] {
    let url = "https://login.example.test/common/login"
    // The corpus first, before the large synthetic pages leave the allocator's heap grown, and at least 30 times: a
    // pass takes about 20 ms, and the best of a few is at the mercy of the machine's noise.
    let corpusRuns = max(runs, 30)
    var lines = ["page reading (HTMLPage, in-process; the corpus best of \(corpusRuns), the rest best of \(runs)):"]
    lines += try corpusReport(runs: corpusRuns, url: url)
    if !corpusOnly { lines += try scalingReport(runs: runs, url: url) }
    return lines
}

/// The synthetic page at scales 1 and 8 and the many-forms pages: how the cost grows with a page's size.
func scalingReport(runs: Int, url: String) throws -> [String] {
    var lines: [String] = []
    var seconds: [Int: Double] = [:]
    for scale in [1, 8] {
        let bytes = syntheticSignInPage(scale: scale)
        seconds[scale] = try bestSeconds(runs: runs) {
            let page = try HTMLPage(bytes: bytes, url: url)
            guard page.classification.kind == .aadConfig else { fail("the synthetic page was not read as $Config") }
        }
        lines.append(
            "  synthetic page x\(scale): \(bytes.count / 1024) KiB in \(fixed((seconds[scale] ?? 0) * 1000, 2)) ms")
    }
    if let small = seconds[1], let large = seconds[8], small > 0 {
        lines.append("  x8 / x1 time ratio: \(fixed(large / small)) (8 is linear, 64 quadratic)")
    }

    var formSeconds: [Int: Double] = [:]
    for count in [4_000, 32_000, 128_000] {
        let bytes = manyFormsPage(count: count)
        formSeconds[count] = try bestSeconds(runs: runs) {
            let page = try HTMLPage(bytes: bytes, url: url)
            guard page.forms.count == count else { fail("the many-forms page did not give \(count) forms") }
        }
        lines.append(
            "  \(count) forms: \(bytes.count / 1024) KiB in \(fixed((formSeconds[count] ?? 0) * 1000, 2)) ms")
    }
    if let small = formSeconds[4_000], let large = formSeconds[32_000], small > 0 {
        lines.append("  32,000 / 4,000 forms time ratio: \(fixed(large / small)) (8 is linear, 64 quadratic)")
    }
    // Past the processor's caches the cost per form is flat: the slope of the reader itself.
    if let small = formSeconds[32_000], let large = formSeconds[128_000], small > 0 {
        lines.append("  128,000 / 32,000 forms time ratio: \(fixed(large / small)) (4 is linear, 16 quadratic)")
    }
    return lines
}

/// Every page of `../shared/corpus/idp`, read in turn: pages per second, best of `runs` passes.
func corpusReport(runs: Int, url: String) throws -> [String] {
    var lines: [String] = []

    let pages = corpusPages().map(\.bytes)
    guard !pages.isEmpty else {
        lines.append("  corpus: none found at \(corpusDirectory.path)")
        return lines
    }
    let total = pages.reduce(0) { $0 + $1.count }
    let corpusSeconds = try bestSeconds(runs: runs) {
        for page in pages { _ = try HTMLPage(bytes: page, url: url) }
    }
    lines.append(
        "  corpus: \(pages.count) pages, \(total / 1024) KiB in \(fixed(corpusSeconds * 1000, 2)) ms, "
            + "\(Int(Double(pages.count) / corpusSeconds)) pages/s")
    return lines
}
