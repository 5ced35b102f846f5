// `swift run -c release bench [--items N] [--runs R]`: listing benchmark, side by side in one run.
//
// Against spsim (in this process, Entra ID mode, a "Big" list of N items, pages of 5,000, verbose JSON):
//   (a) `curl` fetching the same pages by following `d.__next` (a small loop driving /usr/bin/curl): the floor;
//   (b) `spconnect items Big --all --output ndjson --odata verbose > /dev/null` (the release binary);
//   (c) Office365-REST-Python-Client paging the same list, when it is installed in `.build/bench-venv`.
// Reports wall times, items per second, the ratios b/a and c/b, and the peak RSS of (b). Sizes: 10,000 and N
// (default 100,000). Figures go to docs/performance.md by hand; nothing here asserts a speed.
// Then the 50 MiB download, curl against `spconnect download` (Download.swift), and how page reading scales
// (PageReading.swift; `--pages` runs only that).
import CommandLineKit
import Foundation
import SPSim

#if canImport(Glibc)
    import Glibc
#endif

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
let password = "Spring2026!"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    exit(1)
}

func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: Arguments

extension OptionKey {
    static let items = OptionKey(named: "items")
    static let runs = OptionKey(named: "runs")
    static let pages = OptionKey(named: "pages")
    static let manifest = OptionKey(named: "manifest")
    static let corpusOnly = OptionKey(named: "corpus-only")
    static let dump = OptionKey(named: "dump")
    static let perPage = OptionKey(named: "per-page")
    static let export = OptionKey(named: "export")
    static let itemsParallel = OptionKey(named: "items-parallel")
    static let incremental = OptionKey(named: "incremental")
    static let gateway = OptionKey(named: "gateway")
    static let coldStart = OptionKey(named: "cold-start")
    static let signinMemory = OptionKey(named: "signin-memory")
    static let mechanize = OptionKey(named: "mechanize")
    static let url = OptionKey(named: "url")
    static let user = OptionKey(named: "user")
    static let passwordFile = OptionKey(named: "password-file")
    static let cacert = OptionKey(named: "cacert")
    static let hugeMib = OptionKey(named: "huge-mib")
    static let files = OptionKey(named: "files")
    static let throttled = OptionKey(named: "throttled")
    static let budget = OptionKey(named: "budget")
    static let help = OptionKey(named: "help")
}

/// The benchmarks' command line, declared once.
let benchCommand = CommandDescription(
    name: "bench",
    summary: "Lists N items, then downloads a 50 MiB file (curl vs spconnect, Download.swift), then reads sign-in "
        + "pages (PageReading.swift); each flag below runs one part only. Run it as 'swift run -c release bench'.",
    synopsis: "[--items N] [--runs R] [--pages [--manifest DIR] [--corpus-only] [--dump FILE] [--per-page]] "
        + "[--export] [--items-parallel] [--gateway] "
        + "[--cold-start [BINARY]...] [--signin-memory [BINARY]... [--mechanize PYTHON] [--url URL --user NAME --password-file FILE [--cacert FILE]]] [--incremental [--files N]] "
        + "[--throttled [--files N] [--items N] [--budget U]]",
    options: [
        .integer(.items, "N", in: 1...10_000_000, "items of the listing (default 100000)"),
        .integer(.runs, "R", in: 1...1000, "best of R runs (default 1)"),
        .flag(.pages, "only the page reading"),
        .path(.manifest, "DIR", "with --pages: score the page reader on DIR's pages against DIR/manifest.json"),
        .flag(.corpusOnly, "with --pages: only the shared corpus's pages (what a profiler of real pages should see)"),
        .path(.dump, "FILE", "with --pages: write every field read from the corpus pages to FILE (compare two builds)"),
        .flag(.perPage, "with --pages: the 20 corpus pages that take longest to read"),
        .flag(.export, "only the library export, download -r --parallel 8 against a curl loop (LibraryExport.swift)"),
        .flag(
            .itemsParallel,
            "only items --parallel 2/4/8 against sequential paging, --latency 250 (ParallelItems.swift)"),
        .flag(
            .gateway,
            "only the gateway: 50 MiB (best of --runs) and a --huge-mib N MiB file through spconnect gateway against "
                + "curl direct, its peak RSS, and 16 clients after an expiry (Gateway.swift)"),
        .integer(.hugeMib, "N", in: 1...1_000_000, "with --gateway: the huge file's size in MiB (default 1024)"),
        .flag(
            .coldStart,
            "curl --version against spconnect --version of each BINARY given after it (default: the release "
                + "build), 40 interleaved rounds (ColdStart.swift)"),
        .flag(
            .signinMemory,
            "the peak RSS of spconnect login (each BINARY given after it; default: the release build) against spsim's "
                + "ADFS world, 7 interleaved rounds (SignInMemory.swift)"),
        .path(.mechanize, "PYTHON", "with --signin-memory: a Python with mechanize, to sign in beside spconnect"),
        .value(.url, "URL", "with --signin-memory: sign in at this running world (login --url) instead of spsim's"),
        .value(.user, "NAME", "with --url: the user"),
        .path(.passwordFile, "FILE", "with --url: a file holding the user's password"),
        .path(.cacert, "FILE", "with --url: the CA certificates the world's TLS is checked against"),
        .flag(
            .incremental,
            "only download -r --incremental and items --since-token, full then after 10 changes (Incremental.swift)"),
        .integer(
            .files, "N", in: 10...10_000_000, "with --incremental or --throttled: the library's files (default 10000)"),
        .flag(
            .throttled,
            "only the runs under SharePoint Online's budgets: download -r of --files N, items of --items N, and rclone "
                + "copy through the gateway, against the budget's floor (Throttled.swift)"),
        .integer(.budget, "U", in: 10...1_000_000, "with --throttled: the app's units a minute (default 1250)"),
        .flag(.help, short: "h", "show this help"),
    ])

let arguments: ParsedArguments
do {
    arguments = try ParsedArguments(
        Array(CommandLine.arguments.dropFirst()), specs: benchCommand.options, program: "bench", command: "")
} catch {
    fail("\(error)")
}
if arguments.has(.help) {
    print(benchCommand.help(program: "bench"))
    exit(0)
}
if !arguments.has(.coldStart), !arguments.has(.signinMemory), let word = arguments.positionals.first {
    fail("unknown argument \(word)")
}
let largest = arguments.integer(.items) ?? 100_000
let runs = arguments.integer(.runs) ?? 1
let pagesOnly = arguments.has(.pages)
let exportOnly = arguments.has(.export)
let itemsParallelOnly = arguments.has(.itemsParallel)
let incrementalOnly = arguments.has(.incremental)
let gatewayOnly = arguments.has(.gateway)
let coldStartBinaries: [String]? = arguments.has(.coldStart) ? arguments.positionals : nil
let hugeMebibytes = arguments.integer(.hugeMib) ?? 1024
let exportFiles = arguments.integer(.files) ?? 10_000
let manifestDirectory = arguments.value(.manifest)
let sizes = largest > 10_000 ? [10_000, largest] : [largest]
if let manifestDirectory {
    for line in try pageScoreReport(directory: manifestDirectory) { print(line) }
    exit(0)
}
if pagesOnly, let dumpPath = arguments.value(.dump) {
    try writePageReadingDump(to: dumpPath)
    print("page reading dump written to \(dumpPath)")
    exit(0)
}
if pagesOnly, arguments.has(.perPage) {
    for line in try slowestPagesReport(runs: max(runs, 5)) { print(line) }
    exit(0)
}
if pagesOnly {
    for line in try pageReadingReport(runs: max(runs, 5), corpusOnly: arguments.has(.corpusOnly)) { print(line) }
    exit(0)
}

// MARK: Processes

struct Finished {
    var status: Int32
    var seconds: Double
    var stderr: String
}

/// Runs `path arguments`, stdout to `stdoutPath` (default /dev/null), and times it.
func run(
    _ path: String, _ arguments: [String], stdin: String? = nil, stdoutPath: String = "/dev/null",
    environment: [String: String]? = nil
) throws -> Finished {
    let scratch = NSTemporaryDirectory() + "bench-" + UUID().uuidString
    _ = FileManager.default.createFile(atPath: scratch + ".err", contents: nil)
    _ = FileManager.default.createFile(atPath: scratch + ".in", contents: Data((stdin ?? "").utf8))
    if stdoutPath != "/dev/null" { _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil) }
    defer {
        unlink(scratch + ".err")
        unlink(scratch + ".in")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: scratch + ".in"))
    let output = FileHandle(forWritingAtPath: stdoutPath)
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + ".err"))
    // Closed once the child has exited (the Process object does not, and a run starts hundreds of children).
    defer { for handle in [input, output, errors].compactMap({ $0 }) { try? handle.close() } }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    let stderr = String(decoding: FileManager.default.contents(atPath: scratch + ".err") ?? Data(), as: UTF8.self)
    return Finished(status: process.terminationStatus, seconds: seconds, stderr: stderr)
}

/// The peak RSS in KiB that `/usr/bin/time -v` wrote at the end of `stderr`.
func maximumResidentKiB(_ stderr: String) -> Int? {
    for line in stderr.split(separator: "\n") where line.contains("Maximum resident set size") {
        return line.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
    return nil
}

// MARK: The release spconnect binary

let binDirectory = Bundle.main.executableURL?.deletingLastPathComponent().path ?? packageRoot + "/.build/release"
let spconnect = binDirectory + "/spconnect"
if !FileManager.default.isExecutableFile(atPath: spconnect) {
    note("building spconnect in release mode (once)…")
    let built = try run(
        "/usr/bin/env", ["swift", "build", "-c", "release", "--product", "spconnect", "--package-path", packageRoot],
        environment: ProcessInfo.processInfo.environment)
    guard built.status == 0, FileManager.default.isExecutableFile(atPath: spconnect) else {
        fail("could not build spconnect: \(built.stderr)")
    }
}
let hasTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
let curl = "/usr/bin/curl"
if itemsParallelOnly {
    for line in try parallelItemsReport(spconnectPath: spconnect, items: largest, latencyMilliseconds: 250) {
        print(line)
    }
    exit(0)
}
if incrementalOnly {
    for line in try incrementalReport(spconnectPath: spconnect, files: exportFiles, items: largest, changes: 10) {
        print(line)
    }
    exit(0)
}
if arguments.has(.throttled) {
    for line in try throttledReport(
        spconnectPath: spconnect, files: exportFiles, items: largest, budget: arguments.integer(.budget) ?? 1250)
    {
        print(line)
    }
    exit(0)
}
if exportOnly {
    for line in try libraryExportReport(
        spconnectPath: spconnect, files: 1_000, latencyMilliseconds: 100, parallel: 8)
    {
        print(line)
    }
    exit(0)
}
guard FileManager.default.isExecutableFile(atPath: curl) else { fail("/usr/bin/curl is needed for the baseline") }
if arguments.has(.signinMemory) {
    let binaries = arguments.positionals.isEmpty ? [spconnect] : arguments.positionals
    var live: SignInWorld?
    if let url = arguments.value(.url) {
        guard let user = arguments.value(.user), let passwordFile = arguments.value(.passwordFile),
            let secret = try? String(contentsOfFile: passwordFile, encoding: .utf8)
        else { fail("--url needs --user and a readable --password-file") }
        live = SignInWorld(
            url: url, target: ["--url", url], user: user,
            password: secret.trimmingCharacters(in: .newlines), caFile: arguments.value(.cacert))
    }
    for line in try signInMemoryReport(
        binaries: binaries, mechanizePython: arguments.value(.mechanize), live: live)
    {
        print(line)
    }
    exit(0)
}
if let coldStartBinaries {
    for line in try coldStartReport(binaries: coldStartBinaries.isEmpty ? [spconnect] : coldStartBinaries) {
        print(line)
    }
    exit(0)
}
if gatewayOnly {
    for line in try gatewayReport(spconnectPath: spconnect, runs: max(runs, 3), hugeMebibytes: hugeMebibytes) {
        print(line)
    }
    exit(0)
}

// MARK: Python client (optional)

let venvPython = packageRoot + "/.build/bench-venv/bin/python"
let pythonScript = """
    import sys
    from office365.sharepoint.client_context import ClientContext

    site, cookie = sys.argv[1], sys.argv[2]
    jar = dict(part.split("=", 1) for part in cookie.split("; ") if "=" in part)
    ctx = ClientContext(site).with_cookies(lambda: jar)
    items = ctx.web.lists.get_by_title("Big").items.get_all(5000).execute_query()
    print(len(items))
    """
var pythonAvailable = false
if FileManager.default.isExecutableFile(atPath: venvPython) {
    let check = try run(venvPython, ["-c", "import office365"])
    pythonAvailable = check.status == 0
}
if !pythonAvailable {
    note(
        "Office365-REST-Python-Client is not installed: column (c) is skipped. To include it:\n"
            + "  python3 -m venv .build/bench-venv && .build/bench-venv/bin/pip install Office365-REST-Python-Client")
}

// MARK: One size

struct Row {
    var items: Int
    var curlSeconds: Double
    var pages: Int
    var spconnectSeconds: Double
    var spconnectRSSKiB: Int?
    var pythonSeconds: Double?
    var pythonItems: Int?
}

/// The `d.__next` link of a verbose page, or nil on the last page.
func nextLink(_ page: Data) -> String? {
    let marker = Array("\"__next\":\"".utf8)
    let bytes = [UInt8](page)
    guard bytes.count >= marker.count else { return nil }
    var index = bytes.count - marker.count
    while index >= 0 {
        if bytes[index] == marker[0], Array(bytes[index..<index + marker.count]) == marker {
            let start = index + marker.count
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return String(decoding: bytes[start..<end], as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
        }
        index -= 1
    }
    return nil
}

/// A fresh state directory in which the `spconnect` binary at `spconnectPath` has signed in to `simulator`:
/// the environment that points spconnect at it, and the cookie file the login saved (which curl reads too).
/// The caller removes `directory`.
struct SignedInState {
    let directory: String
    let environment: [String: String]
    var cookieFile: String { directory + "/spconnect/sessions/default.cookies" }

    /// The session's cookies as one `Cookie` header value (`name=value; …`), read from the Netscape file.
    func cookieHeader() throws -> String {
        try String(contentsOfFile: cookieFile, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") || $0.hasPrefix("#HttpOnly_") }
            .compactMap { line -> String? in
                let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
                return parts.count >= 7 ? "\(parts[5])=\(parts[6])" : nil
            }
            .joined(separator: "; ")
    }

    init(spconnectPath: String, simulator: Simulator) throws {
        directory = NSTemporaryDirectory() + "bench-state-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        environment = ["XDG_STATE_HOME": directory, "PATH": "/usr/bin:/bin", "HOME": directory]
        let login = try run(
            spconnectPath,
            [
                "login", "--site", simulator.siteURL, "--user", "alice@contoso.test", "--password-stdin",
                "--allow-http-loopback",
            ], stdin: password + "\n", environment: environment)
        guard login.status == 0 else { fail("login failed: \(login.stderr)") }
    }
}

@MainActor func measure(items: Int) throws -> Row {
    let simulator = try Simulator(SimulatorOptions(mode: .entra, items: items))
    defer { simulator.stop() }
    let signedIn = try SignedInState(spconnectPath: spconnect, simulator: simulator)
    defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
    let state = signedIn.directory
    let environment = signedIn.environment
    let cookieFile = signedIn.cookieFile
    let firstURL = simulator.siteURL + "/_api/web/lists/getbytitle('Big')/items?%24top=5000"

    let cookies = try signedIn.cookieHeader()
    let script = state + "/page.py"
    try pythonScript.write(toFile: script, atomically: true, encoding: .utf8)
    var pythonWorks = pythonAvailable

    // Rounds of a, b, c one after the other, so a change in the machine's load touches all three alike.
    var best = Row(items: items, curlSeconds: .infinity, pages: 0, spconnectSeconds: .infinity)
    for _ in 0..<runs {
        // (a) curl following __next.
        let page = state + "/page.json"
        var url: String? = firstURL
        var pages = 0
        let start = ContinuousClock.now
        while let current = url {
            let fetched = try run(
                curl,
                [
                    "-s", "-f", "-b", cookieFile, "-H", "Accept: application/json;odata=verbose", "-o", page,
                    current,
                ])
            guard fetched.status == 0 else { fail("curl failed on \(current): exit \(fetched.status)") }
            pages += 1
            url = nextLink(FileManager.default.contents(atPath: page) ?? Data())
        }
        best.curlSeconds = min(best.curlSeconds, (ContinuousClock.now - start) / .seconds(1))
        best.pages = pages

        // (b) spconnect, under /usr/bin/time -v for the peak RSS.
        let command = [spconnect, "items", "Big", "--all", "--output", "ndjson", "--odata", "verbose", "--quiet"]
        // Its output is kept and checked, outside the timing: a bench that times a wrong answer measures nothing.
        let listed = state + "/spconnect.out"
        let finished =
            hasTime
            ? try run("/usr/bin/time", ["-v"] + command, stdoutPath: listed, environment: environment)
            : try run(spconnect, Array(command.dropFirst()), stdoutPath: listed, environment: environment)
        guard finished.status == 0 else { fail("spconnect failed: \(finished.stderr)") }
        let rows = (FileManager.default.contents(atPath: listed) ?? Data()).split(separator: 0x0A)
        guard rows.count == items, rows.allSatisfy({ $0.first == UInt8(ascii: "{") }) else {
            fail("spconnect listed \(rows.count) rows of \(items) (or a row that is not a JSON object)")
        }
        try? FileManager.default.removeItem(atPath: listed)
        best.spconnectSeconds = min(best.spconnectSeconds, finished.seconds)
        if let rss = maximumResidentKiB(finished.stderr) {
            best.spconnectRSSKiB = max(best.spconnectRSSKiB ?? 0, rss)
        } else if !hasTime {
            var usage = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            best.spconnectRSSKiB = Int(usage.ru_maxrss)
        }

        // (c) Office365-REST-Python-Client.
        if pythonWorks {
            let output = state + "/python.out"
            let finished = try run(
                venvPython, [script, simulator.siteURL, cookies], stdoutPath: output, environment: environment)
            if finished.status == 0 {
                best.pythonSeconds = min(best.pythonSeconds ?? .infinity, finished.seconds)
                best.pythonItems = Int(
                    (try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(
                        in: .whitespacesAndNewlines) ?? "")
            } else {
                note("the Python client failed; column (c) skipped: \(finished.stderr.suffix(600))")
                pythonWorks = false
            }
        }
    }
    return best
}

// MARK: Report

func fixed(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

note("bench: spsim in-process (entra), list 'Big', pages of 5,000, odata=verbose; best of \(runs) run(s)")
var rows: [Row] = []
for size in sizes {
    note("measuring \(size) items…")
    rows.append(try measure(items: size))
}

let header = [
    "items", "pages", "curl s", "spconnect s", "python s", "b/a", "c/b", "curl it/s", "spconnect it/s",
    "python it/s", "spconnect peak RSS",
]
let widths = [8, 6, 8, 12, 9, 6, 6, 10, 15, 12, 19]
print(zip(header, widths).map { pad($0, $1) }.joined(separator: " "))
for row in rows {
    let python: String = row.pythonSeconds.map { fixed($0) } ?? "-"
    let pythonRatio: String = row.pythonSeconds.map { fixed($0 / row.spconnectSeconds) } ?? "-"
    let pythonRate: String = row.pythonSeconds.map { String(Int(Double(row.items) / $0)) } ?? "-"
    let rss: String = row.spconnectRSSKiB.map { fixed(Double($0) / 1024, 1) + " MiB" } ?? "-"
    let curlRate = String(Int(Double(row.items) / row.curlSeconds))
    let spconnectRate = String(Int(Double(row.items) / row.spconnectSeconds))
    var cells: [String] = [String(row.items), String(row.pages), fixed(row.curlSeconds)]
    cells += [fixed(row.spconnectSeconds), python, fixed(row.spconnectSeconds / row.curlSeconds), pythonRatio]
    cells += [curlRate, spconnectRate, pythonRate, rss]
    print(zip(cells, widths).map { pad($0, $1) }.joined(separator: " "))
    if let counted = row.pythonItems, counted != row.items {
        note("note: the Python client returned \(counted) items for \(row.items)")
    }
}

print("")
for line in try downloadReport(spconnectPath: spconnect, runs: runs) { print(line) }

print("")
for line in try pageReadingReport(runs: max(runs, 5), corpusOnly: arguments.has(.corpusOnly)) { print(line) }
