// The gateway benchmark (`bench --gateway`): spsim in-process (Entra ID mode) with a 1 GiB generated file, one
// `spconnect gateway` process, and side by side:
//   (a) `curl -s -f -b COOKIES -o FILE URL` straight to the site with the session's cookie file: the floor;
//   (b) `curl -s -f -K - -o FILE GATEWAY/…` through the gateway (its secret given on stdin, never in argv);
// for the 50 MiB file (best of R runs each) and the 1 GiB one (once each). The gateway's peak RSS (VmHWM from
// /proc) is read after the 50 MiB runs and again after the 1 GiB one: flat memory means the second is no larger.
// Then the session is expired and 16 clients list a folder through the gateway at once: every client must get its
// listing, and the site must see exactly one sign-in between them. Sizes are checked outside the timing.
import Foundation
import SPSim
import SharePoint

/// Measures the gateway against direct curl and returns the report lines to print.
@MainActor func gatewayReport(spconnectPath: String, runs: Int, hugeMebibytes: Int) throws -> [String] {
    note("gateway: spsim in-process (entra), \(Simulator.largeFileURL) and a \(hugeMebibytes) MiB file")
    var options = SimulatorOptions(mode: .entra)
    options.hugeFileMebibytes = hugeMebibytes
    let simulator = try Simulator(options)
    defer { simulator.stop() }
    let signedIn = try SignedInState(spconnectPath: spconnectPath, simulator: simulator)
    defer { try? FileManager.default.removeItem(atPath: signedIn.directory) }
    let gateway = try GatewayProcess(spconnectPath: spconnectPath, signedIn: signedIn)
    defer { gateway.stop() }
    let output = signedIn.directory + "/download.bin"
    let credentials = "user = \"x:\(gateway.secret)\"\n"

    /// The best time of `runs` downloads of `serverRelativeURL`, direct and through the gateway.
    func transfer(_ serverRelativeURL: String, runs: Int) throws -> (direct: Double, gateway: Double, bytes: Int) {
        guard let size = simulator.fileLength(serverRelativeURL: serverRelativeURL) else {
            fail("the simulator has no \(serverRelativeURL)")
        }
        let path = valuePath(serverRelativeURL)
        var best = (direct: Double.infinity, gateway: Double.infinity)
        func fetched(_ finished: Finished, _ what: String) throws -> Double {
            guard finished.status == 0 else { fail("\(what) failed (exit \(finished.status)): \(finished.stderr)") }
            let written = (try? FileManager.default.attributesOfItem(atPath: output))?[.size] as? Int
            guard written == size else { fail("\(what) wrote \(written ?? 0) bytes, expected \(size)") }
            try? FileManager.default.removeItem(atPath: output)
            return finished.seconds
        }
        for _ in 0..<runs {
            let direct = try run(
                curl, ["-s", "-f", "-b", signedIn.cookieFile, "-o", output, simulator.siteURL + path])
            best.direct = min(best.direct, try fetched(direct, "curl direct"))
            let through = try run(curl, ["-s", "-f", "-K", "-", "-o", output, gateway.url + path], stdin: credentials)
            best.gateway = min(best.gateway, try fetched(through, "curl through the gateway"))
        }
        return (best.direct, best.gateway, size)
    }

    let large = try transfer(Simulator.largeFileURL, runs: runs)
    let afterLarge = gateway.peakResidentKiB()
    let huge = try transfer(Simulator.hugeFileURL, runs: 1)
    let afterHuge = gateway.peakResidentKiB()

    // The huge file up again through the gateway (WebDAV PUT): its bytes wait in a file of the gateway's scratch
    // folder, not in its memory.
    let hugeLength = simulator.fileLength(serverRelativeURL: Simulator.hugeFileURL) ?? 0
    _ = try run(
        curl,
        ["-s", "-f", "-b", signedIn.cookieFile, "-o", output, simulator.siteURL + valuePath(Simulator.hugeFileURL)])
    let upload = try run(
        curl, ["-s", "-f", "-K", "-", "-T", output, gateway.url + "/Shared%20Documents/uploaded.bin"],
        stdin: credentials)
    guard upload.status == 0, simulator.fileLength(serverRelativeURL: "/Shared Documents/uploaded.bin") == hugeLength
    else { fail("the upload through the gateway failed (exit \(upload.status)): \(upload.stderr)") }
    try? FileManager.default.removeItem(atPath: output)
    let afterUpload = gateway.peakResidentKiB()

    // 16 clients at once after the session ended: one renewal between them.
    let signIns = simulator.passwordSignIns(for: "alice@contoso.test")
    simulator.expireSessions()
    let listing = gateway.url + "/_api/web/GetFolderByServerRelativeUrl('%2FShared%20Documents')/Files"
    let clients = (0..<16).map { _ in
        BackgroundRun(curl, ["-s", "-f", "-K", "-", "-o", "/dev/null", listing], stdin: credentials)
    }
    let statuses = clients.map { $0.wait() }
    let renewals = simulator.passwordSignIns(for: "alice@contoso.test") - signIns
    // What the bench prints it also holds to: every client served, after exactly one sign-in.
    guard statuses.allSatisfy({ $0 == 0 }), renewals == 1 else {
        fail(
            "after an expiry \(statuses.filter { $0 == 0 }.count) of 16 clients got their listing with \(renewals) "
                + "sign-in(s); expected 16 and 1")
    }

    let rss = { (kib: Int?) in kib.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "-" }
    let header = ["file", "curl direct s", "through gateway s", "b/a", "gateway peak RSS after"]
    let widths = [10, 14, 18, 6, 23]
    let line = { (texts: [String]) in
        zip(texts, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: " ")
    }
    let row = { (what: String, measured: (direct: Double, gateway: Double, bytes: Int), kib: Int?) in
        line([
            what, String(format: "%.3f", measured.direct), String(format: "%.3f", measured.gateway),
            String(format: "%.2f", measured.gateway / measured.direct), rss(kib),
        ])
    }
    return [
        line(header), row("\(large.bytes >> 20) MiB", large, afterLarge),
        row("\(huge.bytes >> 20) MiB", huge, afterHuge),
        "upload of \(hugeLength >> 20) MiB through the gateway: \(String(format: "%.3f", upload.seconds)) s, gateway "
            + "peak RSS after it \(rss(afterUpload))",
        "16 clients after an expiry: \(statuses.filter { $0 == 0 }.count) of 16 got their listing, "
            + "\(renewals) sign-in(s) (expected 16 and 1)",
    ]
}

/// The site-relative URL of a file's bytes (`/_api/web/GetFileByServerRelativeUrl('…')/$value`).
func valuePath(_ serverRelativeURL: String) -> String {
    API.file(serverRelativeUrl: serverRelativeURL).value.url(site: "")
}

/// `spconnect gateway` running in the background for the bench: its URL and secret, its peak RSS, and its end.
final class GatewayProcess {
    let url: String
    let secret: String
    private let process = Process()

    init(spconnectPath: String, signedIn: SignedInState) throws {
        let secretFile = signedIn.directory + "/gateway.secret"
        process.executableURL = URL(fileURLWithPath: spconnectPath)
        process.arguments = ["gateway", "--listen", "127.0.0.1:0", "--secret-file", secretFile]
        var environment = signedIn.environment
        environment["SPCONNECT_PASSWORD"] = password  // for the renewal after the expiry
        process.environment = environment
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let more = stdout.fileHandleForReading.availableData
            guard !more.isEmpty else { fail("spconnect gateway ended before it printed its URL") }
            first += more
        }
        url = String(decoding: first.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        guard url.hasPrefix("http://127.0.0.1:"),
            let written = try? String(contentsOfFile: secretFile, encoding: .utf8)
        else { fail("spconnect gateway printed \(url) and no secret file") }
        secret = written.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The most memory the gateway has held so far (VmHWM), in KiB.
    func peakResidentKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// A command started now and waited for later (its stdin given, its output dropped).
final class BackgroundRun {
    private let process = Process()
    private let input: FileHandle?

    init(_ path: String, _ arguments: [String], stdin: String) {
        let scratch = NSTemporaryDirectory() + "bench-" + UUID().uuidString + ".in"
        _ = FileManager.default.createFile(
            atPath: scratch, contents: Data(stdin.utf8), attributes: [.posixPermissions: 0o600])
        input = FileHandle(forReadingAtPath: scratch)
        unlink(scratch)
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try process.run() } catch { fail("cannot start \(path): \(error)") }
    }

    /// The exit status, once the command ended.
    func wait() -> Int32 {
        process.waitUntilExit()
        try? input?.close()
        return process.terminationStatus
    }
}
