import Foundation
import SPSim
import TestSupport
import Testing

private let rclonePath = "/usr/bin/rclone"

/// rclone (Debian's, `webdav` backend with `vendor = other`) through `spconnect gateway` against the simulator's
/// WebDAV: `ls`, `copy` up, `cat`, and `sync` of a 200-file library giving the tree `spconnect download -r` gives,
/// also across a session that ends in the middle of the sync (one renewal, no failed file). rclone is configured by
/// environment variables alone, its password `rclone obscure -` of the gateway's secret file on standard input; no
/// output holds the password, the secret or a session cookie. Serialized: each case runs a simulator, the gateway
/// and several rclone processes.
@Suite(
    .serialized,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: rclonePath),
        "rclone is not installed (apt-get install rclone)"))
struct GatewayRcloneCLITests {
    static let rclone = rclonePath

    /// The environment that makes `sp:` a webdav remote on `gateway`, and a home of its own (no config file read).
    static func remote(_ gateway: GatewayCLITests.Running) async throws -> [String: String] {
        let home = try temporaryDirectory("rclone")
        let base = ["HOME": home, "XDG_CONFIG_HOME": home, "RCLONE_CONFIG": home + "/rclone.conf"]
        let obscured = home + "/obscured"
        let status = await spawnToExit(
            rclone, ["obscure", "-"], environment: base, standardInput: gateway.folder + "/secret",
            standardOutput: obscured)
        #expect(status == 0)
        let password = try String(contentsOfFile: obscured, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return base.merging([
            "RCLONE_CONFIG_SP_TYPE": "webdav", "RCLONE_CONFIG_SP_URL": gateway.url,
            "RCLONE_CONFIG_SP_VENDOR": "other", "RCLONE_CONFIG_SP_USER": "x", "RCLONE_CONFIG_SP_PASS": password,
        ]) { $1 }
    }

    /// Every regular file below `root` (dot files, spconnect's ledger, left out): relative path → bytes.
    static func tree(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            var isDirectory: ObjCBool = false
            let path = root + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    /// The modification time (whole seconds) of every file of ``tree(_:)``.
    static func modificationTimes(_ root: String) -> [String: Int] {
        tree(root).keys.reduce(into: [:]) { times, relative in
            let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + relative)
            times[relative] = (attributes?[.modificationDate] as? Date).map { Int($0.timeIntervalSince1970) }
        }
    }

    /// Sign-ins that made a site session: the sign-in's form post to the site.
    static func siteSignIns(_ sim: Simulator) -> Int {
        sim.requestLog().filter { $0.method == "POST" && $0.path.lowercased() == "/_forms/default.aspx" }.count
    }

    /// The values of the session's cookies as saved now (the long ones: not a flag like `rtFa` deleted).
    static func cookieValues(_ fixture: CLIFixture) throws -> [String] {
        let cookies = try String(contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
        return cookies.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) }
            .filter { $0.count > 12 }
    }

    /// Nothing secret in `outputs`: not the password, not the gateway's secret, no value of the session's cookies
    /// (as saved now, and the `earlier` ones of a session renewed since).
    static func expectNoSecrets(
        _ outputs: [String], _ fixture: CLIFixture, _ gateway: GatewayCLITests.Running, earlier: [String] = []
    ) throws {
        let all = outputs.joined(separator: "\n") + gateway.log
        #expect(!all.contains(alicePassword))
        #expect(!all.contains(gateway.secret))
        let values = try cookieValues(fixture) + earlier
        #expect(!values.isEmpty)
        for value in values { #expect(!all.contains(value)) }
    }

    @Test func lsCopyAndCatGoThroughTheGateway() async throws {
        let fixture = try await CLIFixture()
        let gateway = try await GatewayCLITests.start(fixture)
        let environment = try await Self.remote(gateway)

        let listed = try await runTool(Self.rclone, ["ls", "sp:Shared Documents"], environment: environment)
        #expect(listed.status == 0, "\(listed.stderr) \(gateway.log)")
        let rcloneEntries = Set(
            listed.stdout.split(separator: "\n").map { line -> String in
                let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
                return parts.count == 2 ? "\(parts[1])\t\(parts[0])" : String(line)
            })
        let ls = try await fixture.run(["ls", "Shared Documents", "-R", "-o", "json"])
        #expect(ls.status == 0, "\(ls.stderr)")
        let json = try JSONSerialization.jsonObject(with: ls.stdoutBytes) as? [[String: Any]] ?? []
        let spconnectEntries = Set(
            json.filter { ($0["type"] as? String) == "file" }.map { entry -> String in
                let url = entry["serverRelativeUrl"] as? String ?? ""
                let name = String(url.dropFirst("/Shared Documents/".count))
                return "\(name)\t\(entry["size"].map { "\($0)" } ?? "")"
            })
        #expect(rcloneEntries.contains("Welcome.txt\t32"), "\(rcloneEntries.sorted())")
        #expect(rcloneEntries == spconnectEntries, "rclone ls and spconnect ls -R list the same files and sizes")

        let local = try temporaryDirectory("up")
        try FileManager.default.createDirectory(atPath: local + "/deep/er", withIntermediateDirectories: true)
        try "alpha\n".write(toFile: local + "/a.txt", atomically: true, encoding: .utf8)
        try "odd\n".write(toFile: local + "/deep/Ünïcode #1 50%.txt", atomically: true, encoding: .utf8)
        try Data(repeating: 0x42, count: 70_000).write(to: URL(fileURLWithPath: local + "/deep/er/b.bin"))
        let copied = try await runTool(
            Self.rclone, ["copy", local, "sp:Shared Documents/Up"], environment: environment)
        #expect(copied.status == 0, "\(copied.stderr) \(gateway.log)")
        #expect(fixture.sim.fileLength(serverRelativeURL: "/Shared Documents/Up/deep/er/b.bin") == 70_000)
        #expect(fixture.sim.fileLength(serverRelativeURL: "/Shared Documents/Up/deep/Ünïcode #1 50%.txt") == 4)
        let seen = try await fixture.run(["ls", "Shared Documents/Up/deep/er"])
        #expect(seen.stdout.contains("b.bin"), "spconnect ls sees what rclone copied: \(seen.stdout)")

        let cat = try await runTool(Self.rclone, ["cat", "sp:Shared Documents/Up/a.txt"], environment: environment)
        #expect(cat.status == 0 && cat.stdout == "alpha\n", "\(cat)")
        let odd = try await runTool(
            Self.rclone, ["cat", "sp:Shared Documents/Up/deep/Ünïcode #1 50%.txt"], environment: environment)
        #expect(odd.status == 0 && odd.stdout == "odd\n", "\(odd)")
        #expect(await gateway.stop() == 0, "\(gateway.log)")
        try Self.expectNoSecrets([listed.stdout, listed.stderr, copied.stderr, cat.stderr], fixture, gateway)
    }

    @Test func syncOfTwoHundredFilesMatchesDownloadAndSurvivesAnExpiry() async throws {
        let fixture = try await CLIFixture(exportFiles: 200)
        let gateway = try await GatewayCLITests.start(fixture, extra: ["SPCONNECT_PASSWORD": alicePassword])
        let environment = try await Self.remote(gateway)
        let downloaded = try temporaryDirectory("download")
        let download = try await fixture.run(["download", "-r", "Export", "--to", downloaded])
        #expect(download.status == 0, "\(download.stderr)")
        let expected = Self.tree(downloaded)
        #expect(expected.count == 200)

        let flags = ["--retries", "1", "--low-level-retries", "1"]
        let synced = try temporaryDirectory("sync")
        let first = try await runTool(Self.rclone, ["sync", "sp:Export", synced] + flags, environment: environment)
        #expect(first.status == 0, "\(first.stderr) \(gateway.log)")
        #expect(Self.tree(synced) == expected, "rclone sync gives the tree spconnect download -r gives")
        #expect(Self.modificationTimes(synced) == Self.modificationTimes(downloaded), "and SharePoint's times")

        // The session ends after 120 more requests, in the middle of the next sync: past its ~60 PROPFINDs, while
        // rclone's four transfers download.
        let again = try temporaryDirectory("sync")
        let signIns = Self.siteSignIns(fixture.sim)
        let oldCookies = try Self.cookieValues(fixture)
        fixture.sim.expireSessions(afterRequests: 120)
        let second = try await runTool(Self.rclone, ["sync", "sp:Export", again] + flags, environment: environment)
        #expect(second.status == 0, "\(second.stderr) \(gateway.log)")
        #expect(!second.stderr.contains("ERROR"), "\(second.stderr)")
        let refused = fixture.sim.requestLog().filter { $0.status == 403 }.count
        #expect(refused >= 1, "the session did end during the sync")
        #expect(Self.siteSignIns(fixture.sim) == signIns + 1, "one renewal")
        #expect(Self.tree(again) == expected, "no file missing or different after the renewal")
        #expect(await gateway.stop() == 0, "\(gateway.log)")
        #expect(try Self.cookieValues(fixture) != oldCookies, "the renewed session was saved")
        try Self.expectNoSecrets(
            [first.stdout, first.stderr, second.stdout, second.stderr], fixture, gateway, earlier: oldCookies)
    }
}
