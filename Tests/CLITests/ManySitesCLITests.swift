import Foundation
import SPSim
import TestSupport
import Testing

/// `sites`, `--site URL` and the many-sites recipe of docs/cli.md (`docs/examples/many-sites.sh`, GNU parallel)
/// against a simulator with three site collections: the root site, `/sites/hr` and `/sites/finance`.
/// Serialized: each case runs a simulator and several spconnect processes (see AddressingCLITests).
@Suite(.serialized) struct ManySitesCLITests {
    static let siteNames = ["hr", "finance"]

    static let script: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("docs/examples/many-sites.sh").path
    }()

    static func parallelPath() -> String? {
        ["/usr/bin/parallel", "/usr/local/bin/parallel"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func text(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    @Test func sitesListsEverySiteCollectionPageByPage() async throws {
        // Search answers two rows a page here, so three sites take two pages.
        let fixture = try await CLIFixture(siteCollections: Self.siteNames, searchRowLimit: 2)
        fixture.sim.clearRequestLog()
        let listed = try await fixture.run(["sites", "-o", "json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let sites = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        #expect(
            sites.compactMap { $0["url"] as? String } == [
                fixture.sim.siteURL, fixture.sim.siteURL + "/sites/hr", fixture.sim.siteURL + "/sites/finance",
            ])
        #expect(sites.compactMap { $0["title"] as? String } == ["SPSim Team", "Hr", "Finance"])
        #expect(sites.allSatisfy { ($0["id"] as? String)?.count == 36 })
        let searches = fixture.sim.requestLog().filter { $0.path.lowercased() == "/_api/search/query" }
        #expect(searches.count == 2, "\(searches.map(\.query))")
        #expect(searches.last?.query.contains("startrow=2") == true, "\(searches.map(\.query))")

        let urls = try await fixture.run(["sites", "--urls"])
        #expect(urls.stdout.split(separator: "\n").map(String.init) == sites.compactMap { $0["url"] as? String })
    }

    @Test func siteOptionReachesAnotherSiteOfTheHostOnly() async throws {
        let fixture = try await CLIFixture(siteCollections: Self.siteNames)
        let hr = fixture.sim.siteURL + "/sites/hr"
        let items = try await fixture.run(["items", "Tasks", "--site", hr, "-o", "json"])
        #expect(items.status == 0, "\(items.stderr)")
        #expect(items.stdout.contains("hr: Plan") && !items.stdout.contains("finance"), "\(items.stdout)")
        let listing = try await fixture.run(["ls", "Shared Documents", "--site", hr + "/", "-o", "json"])
        #expect(listing.stdout.contains("/sites/hr/Shared Documents/About hr.txt"), "\(listing.stdout)")
        // The root site's own list is not the sub-site's.
        let root = try await fixture.run(["items", "Tasks", "-o", "json"])
        #expect(!root.stdout.contains("hr: Plan"), "\(root.stdout)")

        // Another host would get the profile's cookies: refused before anything is sent.
        fixture.sim.clearRequestLog()
        let foreign = try await fixture.run(["items", "Tasks", "--site", "http://127.0.0.5:9/sites/hr"])
        #expect(foreign.status == 2, "\(foreign.stderr)")
        #expect(foreign.stderr.contains("not on the profile's host"), "\(foreign.stderr)")
        let relative = try await fixture.run(["items", "Tasks", "--site", "sites/hr"])
        #expect(relative.status == 2 && relative.stderr.contains("absolute site URL"), "\(relative.stderr)")
        #expect(fixture.sim.requestLog().isEmpty)
    }

    @Test(.enabled(if: ManySitesCLITests.parallelPath() != nil, "GNU parallel is not installed (apt install parallel)"))
    func theRecipeExportsEverySiteInParallelAndTheJobsBackOffTogether() async throws {
        let parallel = try #require(Self.parallelPath())
        // Every answer takes 60 ms, so the three jobs overlap; Retry-After is 2 s.
        var faults = FaultSpec()
        faults.retryAfterSeconds = 2
        let fixture = try await CLIFixture(
            latencyMilliseconds: 60, faults: faults, siteCollections: Self.siteNames)
        let out = try temporaryDirectory("many-sites")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let scratch = try temporaryDirectory("many-sites-log")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var environment = fixture.environment
        environment["PATH"] = URL(fileURLWithPath: parallel).deletingLastPathComponent().path + ":/usr/bin:/bin"
        environment["SPCONNECT"] = spconnectPath
        environment["SPCONNECT_PASSWORD"] = alicePassword
        environment["SPCONNECT_SITES_JOBS"] = "3"
        environment["SPCONNECT_SITES_LISTS"] = "Tasks Projects"
        let run = { (extra: [String: String]) async -> (Int32, String) in
            let status = await spawnToExit(
                "/bin/sh", [Self.script, out], environment: environment.merging(extra) { $1 },
                standardOutput: scratch + "/out", standardError: scratch + "/err", timeout: .seconds(180))
            return (status, Self.text(scratch + "/out") + Self.text(scratch + "/err"))
        }
        // The first run finds the sites itself (spconnect sites).
        let (first, firstLog) = await run([:])
        #expect(first == 0, "\(firstLog)")
        #expect(Self.text(out + "/sites.txt").split(separator: "\n").count == 3, "\(firstLog)")

        // The second run takes the list of the first, and its three jobs start with an ended session: they renew
        // once between them. The first request of any job is throttled.
        fixture.sim.expireSessions()
        fixture.sim.clearRequestLog()
        fixture.sim.throttle(next: 1)
        let (status, log) = await run(["SPCONNECT_SITES_FROM": out + "/sites.txt"])
        #expect(status == 0, "\(log)")

        // One folder per site, each with its own export and mirror.
        for (folder, name) in [("root", "SPSim"), ("sites_hr", "hr"), ("sites_finance", "finance")] {
            let csv = Self.text("\(out)/\(folder)/Tasks.csv")
            #expect(csv.split(whereSeparator: \.isNewline).count > 1, "\(folder): \(csv) \(log)")
            if folder != "root" {
                #expect(csv.contains("\(name): Plan"), "\(folder): \(csv)")
                #expect(FileManager.default.fileExists(atPath: "\(out)/\(folder)/documents/About \(name).txt"))
            } else {
                #expect(FileManager.default.fileExists(atPath: "\(out)/root/documents/Welcome.txt"), "\(log)")
            }
        }
        // The sub-sites have no Projects list: said, not failed.
        #expect(log.contains("/sites/hr: no list 'Projects' (skipped)"), "\(log)")
        let jobs = Self.text(out + "/jobs.log").split(separator: "\n").dropFirst()
        #expect(jobs.count == 3, "\(jobs)")

        let requests = fixture.sim.requestLog()
        // One renewal for the three jobs: the identity provider was asked to sign in once.
        let signIns = requests.filter { $0.path.lowercased().hasSuffix("/oauth2/authorize") }
        #expect(signIns.count == 1, "\(signIns.map(\.path))")
        // After the 429, no job sent SharePoint anything until its Retry-After had nearly passed (requests
        // already under way when it was answered may still arrive within the first moments).
        let throttled = try #require(requests.first { $0.status == 429 }, "no request was throttled")
        let during = requests.filter { request in
            let since = request.answeredAt.timeIntervalSince(throttled.answeredAt)
            return request.host == "127.0.0.1" && since > 0.4 && since < 1.7
        }
        #expect(during.isEmpty, "\(during.map { ($0.path, $0.answeredAt.timeIntervalSince(throttled.answeredAt)) })")
    }
}
