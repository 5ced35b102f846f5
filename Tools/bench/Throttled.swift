// The throttled benchmark (`bench --throttled`): spsim in-process with SharePoint Online's resource-unit budgets on
// (`SimulatorOptions.resourceBudgets`, a small tenant's 1,250 units a minute unless `--budget U`), and, each against
// a fresh simulator so each starts with a whole budget:
//   (a) `spconnect download -r Export --to DIR --parallel 8` of the "Export" library (`--files N`, default 10,000);
//   (b) `spconnect items Big --all` of a 100,000-item list (`--items N`);
//   (c) `rclone copy sp:Export DIR` through `spconnect gateway` with rclone's defaults (Debian's rclone; skipped
//       with a note when it is not installed);
//   (d) the same rclone straight to the site's WebDAV, the session's cookies in a `--header`: what a user of rclone
//       alone gets from a throttled tenant (its own `User-Agent`, undecorated, its own pacing and retries).
// Each row gives the wall time against the budget's floor (the units the answered requests cost, divided by the
// rate), the 429s and 503s, and those received after the first answer that carried RateLimit headers.
import Foundation
import SPSim

/// Measures the three runs and returns the report lines to print.
@MainActor func throttledReport(spconnectPath: String, files: Int, items: Int, budget: Int) throws -> [String] {
    var model = ResourceBudgetModel()
    model.appPerMinute = budget
    var rows: [[String]] = []

    func simulator(files: Int = 0, items: Int = 0) throws -> Simulator {
        var options = SimulatorOptions(mode: .entra, items: items)
        options.exportFiles = files
        options.resourceBudgets = model
        return try Simulator(options)
    }
    func row(_ what: String, _ seconds: Double, _ report: ResourceBudgetReport) -> [String] {
        let floor = Double(report.unitsAnswered) / Double(budget) * 60
        return [
            what, String(format: "%.1f", seconds), String(report.unitsAnswered), String(format: "%.1f", floor),
            String(format: "%.2f", seconds / max(floor, 0.001)), String(report.throttled429 + report.throttled503),
            String(report.throttledAfterFirstRateLimitHeaders),
            report.firstRateLimitHeadersAt.map { String(format: "%.1f", $0) } ?? "-",
        ]
    }

    note("throttled: spsim in-process (entra), \(budget) units a minute; export of \(files) files")
    do {
        let site = try simulator(files: files)
        defer { site.stop() }
        let signedIn = try SignedInState(spconnectPath: spconnectPath, simulator: site)
        defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
        let into = signedIn.directory + "/export"
        let finished = try run(
            spconnectPath, ["download", "-r", "Export", "--to", into, "--parallel", "8", "--quiet"],
            environment: signedIn.environment)
        guard finished.status == 0 else { fail("download -r failed: \(finished.stderr.suffix(2000))") }
        let written = FileManager.default.enumerator(atPath: into)?.allObjects.count ?? 0
        note("  \(written) entries written")
        rows.append(row("spconnect download -r --parallel 8", finished.seconds, site.resourceBudgetReport()))
    }

    note("throttled: listing of \(items) items")
    do {
        let site = try simulator(items: items)
        defer { site.stop() }
        let signedIn = try SignedInState(spconnectPath: spconnectPath, simulator: site)
        defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
        let finished = try run(
            spconnectPath, ["items", "Big", "--all", "--output", "ndjson", "--quiet"], environment: signedIn.environment
        )
        guard finished.status == 0 else { fail("items failed: \(finished.stderr.suffix(2000))") }
        rows.append(row("spconnect items Big --all", finished.seconds, site.resourceBudgetReport()))
    }

    let rclone = "/usr/bin/rclone"
    if FileManager.default.isExecutableFile(atPath: rclone) {
        note("throttled: rclone copy through spconnect gateway, \(files) files")
        let site = try simulator(files: files)
        defer { site.stop() }
        let signedIn = try SignedInState(spconnectPath: spconnectPath, simulator: site)
        defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
        let gateway = try GatewayProcess(spconnectPath: spconnectPath, signedIn: signedIn)
        defer { gateway.stop() }
        let home = signedIn.directory + "/rclone"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let base = [
            "HOME": home, "XDG_CONFIG_HOME": home, "RCLONE_CONFIG": home + "/rclone.conf", "PATH": "/usr/bin:/bin",
        ]
        let obscuredPath = home + "/obscured"
        let obscured = try run(
            rclone, ["obscure", "-"], stdin: gateway.secret, stdoutPath: obscuredPath, environment: base)
        guard obscured.status == 0 else { fail("rclone obscure failed: \(obscured.stderr)") }
        let remote = base.merging([
            "RCLONE_CONFIG_SP_TYPE": "webdav", "RCLONE_CONFIG_SP_URL": gateway.url, "RCLONE_CONFIG_SP_VENDOR": "other",
            "RCLONE_CONFIG_SP_USER": "x",
            "RCLONE_CONFIG_SP_PASS": try String(contentsOfFile: obscuredPath, encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines),
        ]) { $1 }
        let finished = try run(rclone, ["copy", "sp:Export", home + "/export"], environment: remote)
        guard finished.status == 0 else { fail("rclone copy failed: \(finished.stderr.suffix(2000))") }
        rows.append(row("rclone copy via spconnect gateway", finished.seconds, site.resourceBudgetReport()))

        note("throttled: rclone copy straight to the site's WebDAV, \(files) files")
        let direct = try simulator(files: files)
        defer { direct.stop() }
        let directSignIn = try SignedInState(spconnectPath: spconnectPath, simulator: direct)
        defer { try? FileManager.default.removeItem(atPath: directSignIn.directory) }
        let cookies = try directSignIn.cookieHeader()
        let straight = base.merging([
            "RCLONE_CONFIG_SITE_TYPE": "webdav", "RCLONE_CONFIG_SITE_URL": direct.siteURL,
            "RCLONE_CONFIG_SITE_VENDOR": "other",
            // rclone's `--header`, given in its environment so the cookie is in no process's arguments.
            "RCLONE_HEADER": "Cookie: " + cookies,
        ]) { $1 }
        let copied = try run(rclone, ["copy", "site:Export", home + "/direct"], environment: straight)
        guard copied.status == 0 else { fail("rclone copy (direct) failed: \(copied.stderr.suffix(2000))") }
        rows.append(row("rclone copy straight to the site", copied.seconds, direct.resourceBudgetReport()))
    } else {
        note("throttled: rclone is not installed (apt-get install rclone); its row is left out")
    }

    let header = ["run", "wall s", "units", "floor s", "wall/floor", "429+503", "after RateLimit", "RateLimit at s"]
    let widths = [36, 8, 8, 8, 10, 8, 15, 14]
    let line = { (texts: [String]) in
        zip(texts, widths).enumerated().map { index, pair in
            let padding = String(repeating: " ", count: max(0, pair.1 - pair.0.count))
            return index == 0 ? pair.0 + padding : padding + pair.0
        }.joined(separator: " ")
    }
    return [line(header)] + rows.map(line)
        + [
            "(floor: the answered requests' units at \(budget) units a minute; RateLimit at: seconds from the site's start)"
        ]
}
