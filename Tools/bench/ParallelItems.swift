// The parallel listing benchmark (`bench --items-parallel`): spsim's "Big" list of 100,000 items behind
// `--latency 250` (a realistic server time per page), listed to NDJSON side by side by
//   (a) `spconnect items Big -o ndjson --quiet`: today's sequential paging (each next link in turn, read ahead);
//   (b) `spconnect items Big -o ndjson --quiet --parallel N` for N = 2, 4, 8: ranges of ID side by side.
// Every run's output is compared byte for byte with (a)'s outside the timing; (b)'s peak RSS comes from
// `/usr/bin/time -v`.
import Foundation
import SPSim

/// Measures the listings once each and returns the report lines to print.
@MainActor func parallelItemsReport(spconnectPath: String, items: Int, latencyMilliseconds: Int) throws -> [String] {
    note("items --parallel: spsim in-process (entra), \(items) items, --latency \(latencyMilliseconds)")
    let simulator = try Simulator(SimulatorOptions(mode: .entra, items: items))
    defer { simulator.stop() }
    let signedIn = try SignedInState(spconnectPath: spconnectPath, simulator: simulator)
    defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
    simulator.setLatency(milliseconds: latencyMilliseconds)
    let hasTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    func listing(_ extra: [String]) throws -> (seconds: Double, rssKiB: Int?, output: Data) {
        let outputPath = signedIn.directory + "/items.ndjson"
        let command = [spconnectPath, "items", "Big", "-o", "ndjson", "--quiet"] + extra
        let finished =
            hasTime
            ? try run("/usr/bin/time", ["-v"] + command, stdoutPath: outputPath, environment: signedIn.environment)
            : try run(
                command[0], Array(command.dropFirst()), stdoutPath: outputPath, environment: signedIn.environment)
        guard finished.status == 0 else { fail("\(command.joined(separator: " ")) failed: \(finished.stderr)") }
        return (
            finished.seconds, maximumResidentKiB(finished.stderr),
            FileManager.default.contents(atPath: outputPath) ?? Data()
        )
    }

    let sequential = try listing([])
    let lines = sequential.output.split(separator: UInt8(ascii: "\n")).count
    guard lines == items else { fail("the sequential listing has \(lines) lines, expected \(items)") }
    let header = ["items", "latency ms", "how", "seconds", "items/s", "speed-up", "peak RSS"]
    let widths = [8, 11, 12, 8, 8, 9, 10]
    let line = { (texts: [String]) in
        zip(texts, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: " ")
    }
    let rss = { (kib: Int?) in kib.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "-" }
    var report = [line(header)]
    report.append(
        line([
            String(items), String(latencyMilliseconds), "sequential", String(format: "%.2f", sequential.seconds),
            String(Int(Double(items) / sequential.seconds)), "1.00", rss(sequential.rssKiB),
        ]))
    for parallel in [2, 4, 8] {
        let ranged = try listing(["--parallel", String(parallel)])
        guard ranged.output == sequential.output else { fail("--parallel \(parallel) gave another output") }
        report.append(
            line([
                String(items), String(latencyMilliseconds), "--parallel \(parallel)",
                String(format: "%.2f", ranged.seconds), String(Int(Double(items) / ranged.seconds)),
                String(format: "%.2f", sequential.seconds / ranged.seconds), rss(ranged.rssKiB),
            ]))
    }
    return report
}
