// The incremental-run benchmark (`bench --incremental`, issue #26): spsim's "Export" library of 10,000 generated
// files and its "Big" list of 100,000 items (no added latency), each read twice by the release binary:
//   (1) `spconnect download -r Export --to DIR --incremental TOKEN --parallel 8`: first with no TOKEN (a full run,
//       which saves the library's change token), then, after 10 files were replaced on the server with
//       `spconnect upload --overwrite`, again (the incremental run: the change log, then only those files);
//   (2) `spconnect items Big --since-token TOKEN -o ndjson`: first with no TOKEN (every item), then, after 10 items
//       were changed with `spconnect update Big ID Title=…`, again (only those items, by id).
// Requests come from spsim's request log, cleared before each timed run (sign-in is done before, so only the
// run's own requests are counted); wall times are measured around the process, peak RSS from `/usr/bin/time -v`.
// Every run's result is checked (files, sizes, contents, ids, titles) outside the timing.
import Foundation
import SPSim

/// One timed spconnect run: its wall time, peak RSS, the requests spsim logged during it and its standard output.
struct TimedRun {
    var seconds: Double
    var rssKiB: Int?
    var requests: [LoggedRequest]
    var stdout: String
}

/// Measures both incremental runs and returns the report lines to print.
@MainActor func incrementalReport(spconnectPath: String, files: Int, items: Int, changes: Int) throws -> [String] {
    note("incremental: spsim in-process (entra), Export with \(files) files, Big with \(items) items, no latency")
    var options = SimulatorOptions(mode: .entra, items: items)
    options.exportFiles = files
    let simulator = try Simulator(options)
    defer { simulator.stop() }
    let signedIn = try SignedInState(spconnectPath: spconnectPath, simulator: simulator)
    defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
    let hasTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    /// Runs spconnect with `arguments`, counting the requests it makes; stops the bench when it fails.
    func timed(_ arguments: [String]) throws -> TimedRun {
        let outputPath = signedIn.directory + "/run.out"
        simulator.clearRequestLog()
        let finished =
            hasTime
            ? try run(
                "/usr/bin/time", ["-v", spconnectPath] + arguments, stdoutPath: outputPath,
                environment: signedIn.environment)
            : try run(spconnectPath, arguments, stdoutPath: outputPath, environment: signedIn.environment)
        guard finished.status == 0 else {
            fail("spconnect \(arguments.joined(separator: " ")) failed: \(finished.stderr.suffix(2000))")
        }
        let requests = simulator.requestLog()
        let stdout = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return TimedRun(
            seconds: finished.seconds, rssKiB: maximumResidentKiB(finished.stderr), requests: requests, stdout: stdout)
    }

    /// Runs spconnect untimed (the changes between the runs).
    func change(_ arguments: [String]) throws {
        let finished = try run(spconnectPath, arguments, environment: signedIn.environment)
        guard finished.status == 0 else {
            fail("spconnect \(arguments.joined(separator: " ")) failed: \(finished.stderr)")
        }
    }

    func objects(_ ndjson: String) throws -> [[String: Any]] {
        try ndjson.split(separator: "\n").map {
            guard let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else {
                fail("not a JSON object: \($0.prefix(200))")
            }
            return object
        }
    }

    // (1) The library.
    let mirror = signedIn.directory + "/mirror"
    let libraryToken = signedIn.directory + "/export.token"
    let download = [
        "download", "-r", "Export", "--to", mirror, "--incremental", libraryToken, "--parallel", "8", "-o", "ndjson",
        "--quiet",
    ]
    let fullDownload = try timed(download)
    let downloaded = try objects(fullDownload.stdout).filter { $0["result"] as? String == "downloaded" }
    guard downloaded.count == files else { fail("the full run downloaded \(downloaded.count) of \(files) files") }
    guard FileManager.default.fileExists(atPath: libraryToken) else { fail("the full run saved no token") }
    let urls = downloaded.compactMap { $0["serverRelativeUrl"] as? String }.sorted()
    let scratch = signedIn.directory + "/upload"
    var replaced: [String: String] = [:]
    for index in 0..<changes {
        let url = urls[index * urls.count / changes]
        let content = "changed \(index) of \(url)\n"
        try content.write(toFile: scratch, atomically: true, encoding: .utf8)
        let name = String(url.split(separator: "/").last ?? "")
        let folder = String(url.dropFirst().dropLast(name.count + 1))
        try change(["upload", scratch, "--to", folder, "--as", name, "--overwrite", "--quiet"])
        replaced[url] = content
    }
    let incrementalDownload = try timed(download)
    let fetched = try objects(incrementalDownload.stdout).filter { $0["result"] as? String == "downloaded" }
    let fetchedURLs = Set(fetched.compactMap { $0["serverRelativeUrl"] as? String })
    guard fetchedURLs == Set(replaced.keys) else {
        fail("the incremental run downloaded \(fetchedURLs.sorted()), expected \(replaced.keys.sorted())")
    }
    for (url, content) in replaced {
        let path = mirror + "/" + url.dropFirst("/Export/".count)
        guard (try? String(contentsOfFile: path, encoding: .utf8)) == content else { fail("\(path) was not updated") }
    }

    // (2) The list.
    let listToken = signedIn.directory + "/big.token"
    let listing = ["items", "Big", "--since-token", listToken, "-o", "ndjson", "--quiet"]
    let fullListing = try timed(listing)
    let listed = fullListing.stdout.split(separator: "\n").count
    guard listed == items else { fail("the full listing has \(listed) items, expected \(items)") }
    let changedIDs = (0..<changes).map { 1 + $0 * items / changes + 7 }
    for id in changedIDs { try change(["update", "Big", String(id), "Title=Changed \(id)", "--quiet"]) }
    let incrementalListing = try timed(listing)
    let changedItems = try objects(incrementalListing.stdout)
    let ids = changedItems.compactMap { ($0["Id"] ?? $0["ID"]) as? Int }
    guard ids == changedIDs else { fail("the incremental listing gave ids \(ids), expected \(changedIDs)") }
    guard changedItems.allSatisfy({ ($0["Title"] as? String)?.hasPrefix("Changed ") == true }) else {
        fail("the incremental listing did not give the new titles")
    }

    return incrementalLines(
        files: files, items: items, changes: changes,
        download: (fullDownload, incrementalDownload), listing: (fullListing, incrementalListing))
}

/// The requests of `run` that read list items (`…/items`, not the change log or the list itself).
func itemReads(_ run: TimedRun) -> Int { run.requests.count { $0.path.lowercased().hasSuffix("/items") } }

/// The two tables of the report.
func incrementalLines(
    files: Int, items: Int, changes: Int, download: (full: TimedRun, incremental: TimedRun),
    listing: (full: TimedRun, incremental: TimedRun)
) -> [String] {
    let widths = [38, 9, 11, 9, 10]
    let line = { (texts: [String]) in
        zip(texts, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: " ")
    }
    let rss = { (kib: Int?) in kib.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "-" }
    let percent = { (part: Double, whole: Double) in String(format: "%.2f %%", 100 * part / whole) }
    var lines = [line(["download -r --incremental --parallel 8", "requests", "item reads", "seconds", "peak RSS"])]
    for (name, run) in [
        ("full (no token)", download.full), ("after \(changes) of \(files) changed", download.incremental),
    ] {
        lines.append(
            line([name, String(run.requests.count), "-", String(format: "%.2f", run.seconds), rss(run.rssKiB)]))
    }
    lines.append(
        line([
            "incremental / full",
            percent(Double(download.incremental.requests.count), Double(download.full.requests.count)),
            "-", percent(download.incremental.seconds, download.full.seconds), "",
        ]))
    lines.append("")
    lines.append(line(["items Big --since-token -o ndjson", "requests", "item reads", "seconds", "peak RSS"]))
    for (name, run) in [
        ("full (no token)", listing.full), ("after \(changes) of \(items) changed", listing.incremental),
    ] {
        lines.append(
            line([
                name, String(run.requests.count), String(itemReads(run)), String(format: "%.2f", run.seconds),
                rss(run.rssKiB),
            ]))
    }
    lines.append(
        line([
            "incremental / full",
            percent(Double(listing.incremental.requests.count), Double(listing.full.requests.count)),
            percent(Double(itemReads(listing.incremental)), Double(itemReads(listing.full))),
            percent(listing.incremental.seconds, listing.full.seconds), "",
        ]))
    return lines
}
