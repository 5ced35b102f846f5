// The sign-in memory benchmark (`bench --signin-memory [BINARY]... [--mechanize PYTHON] [--url URL --user NAME
// --password-file FILE [--cacert FILE]]`): the peak resident memory of `spconnect login` against spsim's ADFS world
// (in this process) or a live world, for each binary given (default: the release build beside the bench), beside
// python mechanize doing the same sign-in as a form browser does when a Python with mechanize is given. Rounds are
// interleaved, so a change in the machine touches all alike; each program's median is reported, and its ratio to
// mechanize's. Peak RSS counts the pages of code a run maps in, so the installed build (`scripts/install.sh`,
// decision 0032) is the one to measure; nothing here asserts a figure.
import Foundation
import SPSim

/// The mechanize script, generic as a form browser can be: the form with a password field (its first text or e-mail
/// field gets the user), then, up to four times, a self-posting protocol form (`SAMLResponse`, WS-Federation's
/// `wresult`) or a consent form's `yes` button. Arguments: URL, user, CA file or "-"; the password on stdin.
private let mechanizeSignIn = """
    import sys
    import mechanize

    url, user, ca = sys.argv[1], sys.argv[2], sys.argv[3]
    password = sys.stdin.readline().strip()
    browser = mechanize.Browser()
    browser.set_handle_robots(False)
    browser.set_handle_refresh(True, max_time=1)
    if ca != "-":
        browser.set_ca_data(cafile=ca)
    browser.open(url)
    login = [i for i, f in enumerate(browser.forms()) if any(c.type == "password" for c in f.controls)]
    browser.select_form(nr=login[0])
    browser[[c for c in browser.form.controls if c.type in ("text", "email")][0].name] = user
    browser[[c for c in browser.form.controls if c.type == "password"][0].name] = password
    browser.submit()
    for _ in range(4):
        forms = list(browser.forms())
        posts = [i for i, f in enumerate(forms) if any(c.name in ("SAMLResponse", "wresult") for c in f.controls)]
        consent = [
            i for i, f in enumerate(forms)
            if any(c.type in ("submit", "submitbutton") and c.name == "yes" for c in f.controls)]
        if posts:
            browser.select_form(nr=posts[0])
            browser.submit()
        elif consent:
            browser.select_form(nr=consent[0])
            browser.submit(name="yes")
        else:
            break
    print(browser.geturl())
    """

/// Where the sign-ins go: spsim's ADFS world in this process, or a live one given by `--url`.
struct SignInWorld {
    /// Where a form browser starts.
    var url: String
    /// spconnect's target: `--site SITE` for a SharePoint site, `--url URL` for any other.
    var target: [String]
    var user: String
    var password: String
    var caFile: String?
    /// spconnect's arguments after `login`.
    var spconnectArguments: [String] {
        var arguments = target + ["--user", user, "--password-stdin"]
        if let caFile { arguments += ["--cacert", caFile] } else { arguments.append("--allow-http-loopback") }
        return arguments
    }
}

/// Measures the sign-ins, `rounds` of each, and returns the report lines to print.
/// `live` names a world already running (`--url`, `--user`, `--password-file`, `--cacert`); without it, spsim's ADFS
/// world runs in this process.
@MainActor func signInMemoryReport(
    binaries: [String], mechanizePython: String?, live: SignInWorld?, rounds: Int = 7
) throws -> [String] {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
        fail("--signin-memory needs GNU time (/usr/bin/time, apt install time)")
    }
    var simulator: Simulator?
    defer { simulator?.stop() }
    let world: SignInWorld
    if let live {
        world = live
    } else {
        let started = try Simulator(SimulatorOptions(mode: .adfs))
        simulator = started
        world = SignInWorld(
            url: started.siteURL + "/_layouts/15/authenticate.aspx?Source=/", target: ["--site", started.siteURL],
            user: "alice@contoso.test", password: password, caFile: nil)
    }
    note("sign-in memory: \(world.url) as \(world.user); \(rounds) interleaved rounds")
    var programs = binaries.map { binary in
        (name: binary + " login", command: [binary, "login"] + world.spconnectArguments)
    }
    if let mechanizePython {
        programs.insert(
            (
                name: "python mechanize (\(mechanizePython))",
                command: [mechanizePython, "-c", mechanizeSignIn, world.url, world.user, world.caFile ?? "-"]
            ), at: 0)
    }
    var peaks = Array(repeating: [Int](), count: programs.count)
    for _ in 0..<rounds {
        for (index, program) in programs.enumerated() {
            let state = NSTemporaryDirectory() + "bench-signin-" + UUID().uuidString
            try FileManager.default.createDirectory(
                atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(atPath: state) }
            var environment = ProcessInfo.processInfo.environment
            for name in ["HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"] { environment[name] = state }
            let finished = try run(
                "/usr/bin/time", ["-v"] + program.command, stdin: world.password + "\n", environment: environment)
            guard finished.status == 0, let peak = maximumResidentKiB(finished.stderr) else {
                fail("\(program.name) failed (exit \(finished.status)): \(finished.stderr)")
            }
            peaks[index].append(peak)
        }
    }
    let medians = peaks.map { $0.sorted()[$0.count / 2] }
    var report = ["program                                                     median MiB  range MiB      / mechanize"]
    for (index, program) in programs.enumerated() {
        let name = program.name
        let padded = name.count > 58 ? "…" + name.suffix(57) : name.padding(toLength: 58, withPad: " ", startingAt: 0)
        let low = Double(peaks[index].min() ?? 0) / 1024
        let high = Double(peaks[index].max() ?? 0) / 1024
        let ratio = mechanizePython == nil ? "" : fixed(Double(medians[index]) / Double(medians[0]))
        report.append(
            padded + "  " + pad(fixed(Double(medians[index]) / 1024, 1), 10) + "  "
                + pad(fixed(low, 1) + "–" + fixed(high, 1), 11) + "  " + pad(ratio, 11))
    }
    return report
}
