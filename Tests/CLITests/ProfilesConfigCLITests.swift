import Foundation
import HTTPServer
import TestSupport
import Testing

/// `spconnect profiles`, `SPCONNECT_PROFILE` and the config file, against the simulator.
@Suite struct ProfilesConfigCLITests {
    /// A fixture signed in as the default profile and as `prod` (to `prodSite`, default the fixture's own site).
    private func twoProfiles(prodSite: String? = nil) async throws -> CLIFixture {
        let fixture = try await CLIFixture()
        let login = try await fixture.run(
            [
                "login", "--site", prodSite ?? fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback", "--profile", "prod",
            ], stdin: alicePassword + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        return fixture
    }

    /// Writes the config file under `base` (default `~/.config`: HOME is the fixture's state folder).
    private func writeConfig(_ fixture: CLIFixture, _ text: String, base: String? = nil) throws -> String {
        let folder = (base ?? fixture.state + "/.config") + "/spconnect"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/config", atomically: true, encoding: .utf8)
        return folder + "/config"
    }

    @Test func profilesListsBothSavedProfilesWithoutSecrets() async throws {
        // Online (entra): session cookies, no expiry; on premises (forms): a persistent FedAuth.
        let onPremises = try await CLIFixture(mode: .fba, signIn: false)
        let fixture = try await twoProfiles(prodSite: onPremises.sim.siteURL)
        let values = try await fixture.cookieValues(profiles: ["default", "prod"])
        #expect(values.count >= 2, "the test needs the cookie values to look for")
        let listed = try await fixture.run(["profiles", "-o", "json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdoutBytes) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["default", "prod"])
        #expect(rows.map { $0["site"] as? String } == [fixture.sim.siteURL, onPremises.sim.siteURL])
        #expect(rows.allSatisfy { $0["user"] as? String == aliceEmail })
        #expect(rows.first?["kind"] as? String == "sharepoint (entra)")
        #expect((rows.last?["kind"] as? String)?.hasPrefix("sharepoint (") == true)
        #expect(rows.first?["expires"] is NSNull, "entra's cookies last until the site ends them")
        let expires = try #require(rows.last?["expires"] as? String, "\(listed.stdout)")
        let date = try #require(ISO8601DateFormatter().date(from: expires))
        #expect(date > Date(), "the forms session expires in the future")
        let table = try await fixture.run(["profiles", "--output", "table"])
        #expect(table.stdout.contains("Profile") && table.stdout.contains("prod"))
        for output in [listed, table] {
            for value in values { #expect(!(output.stdout + output.stderr).contains(value)) }
            #expect(!(output.stdout + output.stderr).contains(alicePassword))
        }
    }

    @Test func profilesWithNoneSavedSaysHowToSignIn() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let listed = try await fixture.run(["profiles", "-o", "json"])
        #expect(listed.status == 0)
        #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(listed.stderr.contains("spconnect login"))
    }

    @Test func spconnectProfileIsTheDefaultProfileAndTheFlagWins() async throws {
        let fixture = try await twoProfiles()
        let chosen = try await fixture.run(["status"], extra: ["SPCONNECT_PROFILE": "prod"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.hasPrefix("profile:  prod\n"))
        let flag = try await fixture.run(["status", "--profile", "default"], extra: ["SPCONNECT_PROFILE": "prod"])
        #expect(flag.stdout.hasPrefix("profile:  default\n"))
        let missing = try await fixture.run(["whoami"], extra: ["SPCONNECT_PROFILE": "staging"])
        #expect(missing.status == 11)
        #expect(missing.stderr.contains("no session for profile 'staging'"), "\(missing.stderr)")
    }

    @Test func theConfigFilePicksTheProfileAndTheOutputAndLosesToFlagsAndEnvironment() async throws {
        let fixture = try await twoProfiles()
        let xdg = fixture.state + "/xdg-config"
        _ = try writeConfig(
            fixture, "# defaults for the nightly job\n\nprofile = prod\noutput = csv\ntimeout = 60\n", base: xdg)
        let environment = ["XDG_CONFIG_HOME": xdg]
        let status = try await fixture.run(["status"], extra: environment)
        #expect(status.stdout.hasPrefix("profile:  prod\n"), "\(status.stdout)\(status.stderr)")
        // Standard output is a pipe here: `output = csv` is for a terminal, so a script still reads JSON.
        let lists = try await fixture.run(["lists"], extra: environment)
        #expect(lists.status == 0, "\(lists.stderr)")
        #expect(lists.stdout.hasPrefix("["), "JSON into a pipe whatever output says: \(lists.stdout.prefix(80))")
        _ = try writeConfig(fixture, "profile = prod\noutput = table\noutput-piped = csv\n", base: xdg)
        let piped = try await fixture.run(["lists"], extra: environment)
        #expect(piped.stdout.hasPrefix("Title,") && piped.stdout.contains("\r\n"), "CSV from output-piped")
        let flag = try await fixture.run(["lists", "-o", "json"], extra: environment)
        #expect(flag.stdout.hasPrefix("["), "the flag wins over the config file")
        var both = environment
        both["SPCONNECT_PROFILE"] = "default"
        let env = try await fixture.run(["status"], extra: both)
        #expect(env.stdout.hasPrefix("profile:  default\n"), "the environment wins over the config file")
        // Without XDG_CONFIG_HOME the file is ~/.config/spconnect/config (HOME is the fixture's state folder).
        #expect(try await fixture.run(["status"]).stdout.hasPrefix("profile:  default\n"))
        _ = try writeConfig(fixture, "profile = prod\n")
        #expect(try await fixture.run(["status"]).stdout.hasPrefix("profile:  prod\n"))
    }

    @Test func theConfigFileSetsTheUserAgentUnlessTheEnvironmentDoes() async throws {
        let agents = HeaderLog()
        let server = try HTTPServer { request in
            agents.add(request.header("User-Agent") ?? "")
            return HTTPServerResponse(status: 200, contentType: "application/json", text: #"{"ok":true}"#)
        }
        defer { server.stop() }
        let fixture = try await CLIFixture(signIn: false)
        _ = try writeConfig(fixture, "user-agent = NightlyExport/1.0\n")
        let call = ["api", "GET", server.baseURL + "/x", "--anonymous"]
        #expect(try await fixture.run(call).status == 0)
        #expect(try await fixture.run(call, extra: ["SPCONNECT_USER_AGENT": "FromTheEnvironment"]).status == 0)
        #expect(try await fixture.run(call + ["--user-agent", "FromTheFlag"]).status == 0)
        #expect(agents.values == ["NightlyExport/1.0", "FromTheEnvironment", "FromTheFlag"])
    }

    @Test(arguments: [
        ("output = csv\nthis is not a setting\n", "line 2", "expected 'key = value'"),
        ("outptu = csv\n", "line 1", "unknown key 'outptu'. Did you mean 'output'?"),
        ("output = xml\n", "line 1", "output 'xml' is not a format"),
        ("timeout = soon\n", "line 1", "timeout 'soon' is not a number of seconds"),
        ("profile = a\nprofile = b\n", "line 2", "'profile' is already set on line 1"),
    ])
    func aBadConfigLineIsAnErrorNamingTheFileAndLine(text: String, line: String, problem: String) async throws {
        let fixture = try await CLIFixture(signIn: false)
        let path = try writeConfig(fixture, text)
        let result = try await fixture.run(["lists"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("the config file \(path), \(line), cannot be used: \(problem)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        // Commands that take none of its options do not read it.
        #expect(try await fixture.run(["version"]).status == 0)
    }
}
