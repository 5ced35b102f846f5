// The download benchmark: spsim's 50 MiB generated file (`Simulator.largeFileURL`), fetched side by side with
//   (a) `curl -s -f -b COOKIES -o FILE URL` (the real /usr/bin/curl, one process): the floor;
//   (b) `spconnect download URL --to DIR --quiet` (the release binary), under `/usr/bin/time -v` for its peak RSS.
// Both use the same `…/GetFileByServerRelativeUrl('…')/$value` URL and the cookie file of one `spconnect login`.
// Both downloads are checked against the simulator's generator (sizes, then every byte of (b)) outside the timing.
import Foundation
import SPSim
import SharePoint

/// The best (lowest) wall times of the two downloads, and the peak RSS (largest over the runs) of each.
struct DownloadRow {
    var bytes: Int
    var curlSeconds = Double.infinity
    var curlRSSKiB: Int?
    var spconnectSeconds = Double.infinity
    var spconnectRSSKiB: Int?
}

/// Measures the 50 MiB download `runs` times with curl and with the `spconnect` binary at `spconnectPath`, against
/// an in-process simulator (Entra ID mode, signed in once), and returns the report lines to print.
@MainActor func downloadReport(spconnectPath: String, runs: Int) throws -> [String] {
    let row = try measureDownload(spconnectPath: spconnectPath, runs: runs)
    let header = [
        "file MiB", "curl s", "spconnect s", "b/a", "curl MiB/s", "spconnect MiB/s", "curl peak RSS",
        "spconnect peak RSS",
    ]
    let widths = [9, 8, 12, 6, 11, 16, 14, 19]
    let mebibytes = Double(row.bytes) / 1_048_576
    let rss = { (kib: Int?) in kib.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "-" }
    let cells = [
        String(format: "%.0f", mebibytes), String(format: "%.2f", row.curlSeconds),
        String(format: "%.2f", row.spconnectSeconds), String(format: "%.2f", row.spconnectSeconds / row.curlSeconds),
        String(format: "%.0f", mebibytes / row.curlSeconds), String(format: "%.0f", mebibytes / row.spconnectSeconds),
        rss(row.curlRSSKiB), rss(row.spconnectRSSKiB),
    ]
    let line = { (texts: [String]) in
        zip(texts, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: " ")
    }
    return [line(header), line(cells)]
}

@MainActor private func measureDownload(spconnectPath: String, runs: Int) throws -> DownloadRow {
    note("download: spsim in-process (entra), \(Simulator.largeFileURL); best of \(runs) run(s)")
    let simulator = try Simulator(SimulatorOptions(mode: .entra))
    defer { simulator.stop() }
    guard let size = simulator.fileLength(serverRelativeURL: Simulator.largeFileURL) else {
        fail("the simulator has no \(Simulator.largeFileURL)")
    }
    let signedIn = try SignedInState(spconnectPath: spconnectPath, simulator: simulator)
    defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
    let state = signedIn.directory
    let environment = signedIn.environment
    let cookieFile = signedIn.cookieFile
    let url = API.file(serverRelativeUrl: Simulator.largeFileURL).value.url(site: simulator.siteURL)
    let name = URL(fileURLWithPath: Simulator.largeFileURL).lastPathComponent
    let into = state + "/into"
    try FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)
    let hasTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    /// Runs `command` (under `/usr/bin/time -v` when there is one) and gives its wall time and peak RSS.
    func timed(_ command: [String], _ what: String) throws -> (seconds: Double, rssKiB: Int?) {
        try? FileManager.default.removeItem(atPath: into + "/" + name)
        let finished =
            hasTime
            ? try run("/usr/bin/time", ["-v"] + command, environment: environment)
            : try run(command[0], Array(command.dropFirst()), environment: environment)
        guard finished.status == 0 else { fail("\(what) failed (exit \(finished.status)): \(finished.stderr)") }
        let written = (try? FileManager.default.attributesOfItem(atPath: into + "/" + name))?[.size] as? Int
        guard written == size else { fail("\(what) wrote \(written ?? 0) bytes, expected \(size)") }
        return (finished.seconds, maximumResidentKiB(finished.stderr))
    }

    var row = DownloadRow(bytes: size)
    for _ in 0..<runs {
        let curlRun = try timed(["/usr/bin/curl", "-s", "-f", "-b", cookieFile, "-o", into + "/" + name, url], "curl")
        row.curlSeconds = min(row.curlSeconds, curlRun.seconds)
        row.curlRSSKiB = curlRun.rssKiB.map { max(row.curlRSSKiB ?? 0, $0) }
        let spconnectRun = try timed(
            [spconnectPath, "download", Simulator.largeFileURL, "--to", into, "--quiet"], "spconnect download")
        row.spconnectSeconds = min(row.spconnectSeconds, spconnectRun.seconds)
        row.spconnectRSSKiB = spconnectRun.rssKiB.map { max(row.spconnectRSSKiB ?? 0, $0) }
    }

    // The last download (spconnect's) holds the generator's bytes, compared 4 MiB at a time.
    guard let handle = FileHandle(forReadingAtPath: into + "/" + name) else { fail("cannot read the download") }
    defer { try? handle.close() }
    var offset = 0
    while offset < size {
        let local = [UInt8](try handle.read(upToCount: 4 << 20) ?? Data())
        let expected = simulator.fileBytes(serverRelativeURL: Simulator.largeFileURL, offset: offset, count: 4 << 20)
        guard !local.isEmpty, local == expected else { fail("spconnect's download differs within \(offset)…") }
        offset += local.count
    }
    return row
}
