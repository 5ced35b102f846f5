// The library-export benchmark (`bench --export`): spsim's "Export" library (1,000 generated files of 1–200 KB in
// a tree of 60 folders, `SimulatorOptions.exportFiles`) behind `--latency 100` (100 ms per answer), fetched side by
// side with
//   (a) a sequential loop of `curl -s -f -b COOKIES --create-dirs -o DIR/PATH URL`, one process per file, over the
//       file URLs listed beforehand (the loop does no listing of its own): what a shell script does;
//   (b) `spconnect download -r Export --to DIR --parallel 8 --quiet` (the release binary, listing included),
//       under `/usr/bin/time -v` for its peak RSS.
// Both copies are checked file by file against the listing's sizes outside the timing.
import Foundation
import SPSim
import SharePoint

/// Measures the export once each way and returns the report lines to print.
@MainActor func libraryExportReport(spconnectPath: String, files: Int, latencyMilliseconds: Int, parallel: Int)
    throws -> [String]
{
    note("export: spsim in-process (entra), \(files) files, --latency \(latencyMilliseconds)")
    var options = SimulatorOptions(mode: .entra)
    options.exportFiles = files
    let simulator = try Simulator(options)
    defer { simulator.stop() }
    let signedIn = try SignedInState(spconnectPath: spconnectPath, simulator: simulator)
    defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
    let listingPath = signedIn.directory + "/listing.ndjson"
    let listed = try run(
        spconnectPath, ["ls", "-R", "Export", "-o", "ndjson"], stdoutPath: listingPath,
        environment: signedIn.environment)
    guard listed.status == 0 else { fail("ls -R failed: \(listed.stderr)") }
    var expected: [String: Int] = [:]
    for line in (try String(contentsOfFile: listingPath, encoding: .utf8)).split(separator: "\n") {
        guard let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            entry["type"] as? String == "file", let url = entry["serverRelativeUrl"] as? String,
            let size = entry["size"] as? Int
        else { continue }
        expected[url] = size
    }
    guard expected.count == files else { fail("the listing has \(expected.count) files, expected \(files)") }
    let bytes = expected.values.reduce(0, +)
    simulator.setLatency(milliseconds: latencyMilliseconds)

    func check(_ directory: String, _ what: String) {
        for (url, size) in expected {
            let path = directory + "/" + url.dropFirst("/Export/".count)
            let written = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            guard written == size else { fail("\(what): \(path) has \(written ?? 0) bytes, expected \(size)") }
        }
    }

    let curlInto = signedIn.directory + "/curl"
    let curlStart = ContinuousClock.now
    for url in expected.keys.sorted() {
        let fetched = try run(
            "/usr/bin/curl",
            [
                "-s", "-f", "-b", signedIn.cookieFile, "--create-dirs", "-o",
                curlInto + "/" + url.dropFirst("/Export/".count),
                API.file(serverRelativeUrl: url).value.url(site: simulator.siteURL),
            ])
        guard fetched.status == 0 else { fail("curl failed on \(url): exit \(fetched.status)") }
    }
    let curlSeconds = (ContinuousClock.now - curlStart) / .seconds(1)
    check(curlInto, "curl")

    let spconnectInto = signedIn.directory + "/spconnect"
    let command = [
        spconnectPath, "download", "-r", "Export", "--to", spconnectInto, "--parallel", String(parallel), "--quiet",
    ]
    let hasTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
    let finished =
        hasTime
        ? try run("/usr/bin/time", ["-v"] + command, environment: signedIn.environment)
        : try run(command[0], Array(command.dropFirst()), environment: signedIn.environment)
    guard finished.status == 0 else { fail("spconnect download -r failed: \(finished.stderr.suffix(2000))") }
    check(spconnectInto, "spconnect")
    let rss = maximumResidentKiB(finished.stderr).map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "-"

    let header = ["files", "MiB", "latency ms", "curl loop s", "spconnect -r s", "a/b", "spconnect peak RSS"]
    let widths = [6, 6, 11, 12, 15, 6, 19]
    let cells = [
        String(files), String(format: "%.1f", Double(bytes) / 1_048_576), String(latencyMilliseconds),
        String(format: "%.2f", curlSeconds), String(format: "%.2f", finished.seconds),
        String(format: "%.2f", curlSeconds / finished.seconds), rss,
    ]
    let line = { (texts: [String]) in
        zip(texts, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: " ")
    }
    return [line(header), line(cells) + "   (download -r --parallel \(parallel); a/b: times faster than curl)"]
}
