import Foundation
import HTTPServer
import SPSim
import Synchronization
import TestSupport
import Testing

/// The built `spconnect` binary end to end against an in-process simulator, with a private state directory.
@Suite struct CLITests {
    // MARK: Golden outputs

    /// The snapshot of a format's output: `NAME.table.txt`, `NAME.json`, `NAME.csv` (CRLF as LF), `NAME.ndjson`.
    static func snapshotName(_ command: String, _ format: String) -> String {
        command + (format == "table" ? ".table.txt" : "." + format)
    }

    @Test(arguments: ["table", "json", "csv", "ndjson"])
    func listsMatchTheGoldenOutput(format: String) async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run(["lists", "--output", format])
        #expect(result.status == 0, "\(result.stderr)")
        expectSnapshot(
            fixture.normalised(result.stdout).replacingOccurrences(of: "\r\n", with: "\n"),
            named: Self.snapshotName("lists", format))
        if format == "csv" {
            #expect(result.stdout.hasSuffix("\r\n") && result.stdout.components(separatedBy: "\r\n").count == 8)
        }
    }

    @Test(arguments: ["table", "json", "csv", "ndjson"])
    func taskItemsMatchTheGoldenOutput(format: String) async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run(["items", "Tasks", "--output", format])
        #expect(result.status == 0, "\(result.stderr)")
        expectSnapshot(
            fixture.normalised(result.stdout).replacingOccurrences(of: "\r\n", with: "\n"),
            named: Self.snapshotName("tasks-items", format))
    }

    @Test func outputDefaultsToJSONWhenStandardOutputIsNotATerminal() async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run(["lists"])
        #expect(result.status == 0)
        expectSnapshot(fixture.normalised(result.stdout), named: "lists.json")
    }

    // MARK: Paging

    @Test func allPagesStreamEveryIdOnceInOrder() async throws {
        let fixture = try await CLIFixture(items: 12_345)
        let result = try await fixture.run(["items", "Big", "--all", "--output", "ndjson", "--select", "Id,Title"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        var ids: [Int] = []
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            ids.append(object?["Id"] as? Int ?? -1)
        }
        #expect(ids.count == 12_345)
        #expect(ids == Array(1...12_345))
        // 5,000 per page: three requests for the items.
        let pages = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/items") }
        #expect(pages.count == 3)
    }

    @Test func withoutAllOnlyTheFirstPageIsShown() async throws {
        let fixture = try await CLIFixture(items: 250)
        let result = try await fixture.run(["items", "Big", "--top", "7", "--output", "ndjson", "--select", "Id"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (1...7).map { "{\"Id\":\($0)}\n" }.joined())
    }

    @Test func filterSelectAndOrderReachTheServer() async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run([
            "items", "Tasks", "--filter", "Status eq 'Completed'", "--select", "Id,Title", "--orderby", "Id desc",
            "--output", "csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == "Id,Title")
        #expect(lines.dropFirst().first == "17,Security training")
        #expect(lines.count == 9)
    }

    // MARK: Errors and exit codes

    @Test func aMissingListExitsWithNotFound() async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run(["items", "No Such List"])
        #expect(result.status == 8)
        #expect(result.stderr.contains("The list was not found"))
        #expect(result.stdout.isEmpty)
        let list = try await fixture.run(["list", "No Such List"])
        #expect(list.status == 8)
    }

    @Test func aStaleEtagIsRefusedWithPreconditionFailed() async throws {
        let fixture = try await CLIFixture()
        let item = try await fixture.run(["item", "Tasks", "3", "--output", "json"])
        #expect(item.status == 0)
        let stale = try await fixture.run(["update", "Tasks", "3", "Title=Changed", "--etag", "\"42\""])
        #expect(stale.status == 9)
        #expect(stale.stderr.contains("etag mismatch"))
        #expect(stale.stderr.contains("HTTP 412"))
        // The etag a script passes is the one `item` printed.
        let read = try JSONSerialization.jsonObject(with: item.stdoutBytes) as? [String: Any]
        let etag = try #require(read?["odata.etag"] as? String)
        #expect(etag == "\"1\"")
        let current = try await fixture.run([
            "update", "Tasks", "3", "Title=Changed", "--etag", etag, "--output", "json",
        ])
        #expect(current.status == 0, "\(current.stderr)")
        let after = try await fixture.run(["item", "Tasks", "3", "--select", "Title", "--output", "json"])
        #expect(after.stdout.contains("\"Title\": \"Changed\""))
        let again = try await fixture.run(["update", "Tasks", "3", "Title=Again", "--etag", etag])
        #expect(again.status == 9, "the etag read before the change is stale now")
    }

    @Test func addThenDeleteAnItem() async throws {
        let fixture = try await CLIFixture()
        let added = try await fixture.run(["add", "Tasks", "Title=From the CLI", "Priority:=2", "--output", "json"])
        #expect(added.status == 0, "\(added.stderr)")
        let object = try JSONSerialization.jsonObject(with: added.stdoutBytes) as? [String: Any]
        let id = try #require(object?["Id"] as? Int)
        #expect(object?["Title"] as? String == "From the CLI")
        #expect(object?["Priority"] as? Int == 2)
        #expect(try await fixture.run(["delete", "Tasks", String(id)]).status == 0)
        let gone = try await fixture.run(["item", "Tasks", String(id)])
        #expect(gone.status == 8)
        #expect(try await fixture.run(["add", "Tasks", "Title"]).status == 2)
    }

    /// A missing item (spsim answers 404 with SharePoint's ArgumentException body) is "not found": exit 8.
    @Test func missingItemExitsWithEight() async throws {
        let fixture = try await CLIFixture()
        let missing = try await fixture.run(["item", "Tasks", "999999"])
        #expect(missing.status == 8, "\(missing.stderr)")
        #expect(missing.stderr.contains("The list item was not found"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)
    }

    @Test func usageErrorsExitWithTwo() async throws {
        let fixture = try await CLIFixture(signIn: false)
        #expect(try await fixture.run(["lists", "--output", "xml"]).status == 2)
        #expect(try await fixture.run(["items"]).status == 2)
        #expect(try await fixture.run(["frobnicate"]).status == 2)
        #expect(try await fixture.run(["item", "Tasks", "zero"]).status == 2)
    }

    // MARK: Session

    @Test func whoamiProvesTheSessionAndPrintsTheUser() async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run(["whoami", "--output", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"email\": \"alice@contoso.test\""))
        #expect(fixture.sim.requestLog().contains { $0.path.lowercased().hasSuffix("/_api/web/currentuser") })
    }

    @Test func whoamiFailsClearlyWhenTheSessionEndedAndCannotBeRenewed() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.expireSessions()
        let result = try await fixture.run(["whoami"])
        #expect(result.status == 11)
        #expect(result.stderr.contains("spconnect login"))
        // A password file others can read is not used, and the reason is given.
        let passwordFile = fixture.state + "/password"
        #expect(
            FileManager.default.createFile(
                atPath: passwordFile, contents: Data((alicePassword + "\n").utf8),
                attributes: [.posixPermissions: 0o644]))
        let refused = try await fixture.run(["whoami"], extra: ["SPCONNECT_PASSWORD_FILE": passwordFile])
        #expect(refused.status == 11)
        #expect(refused.stderr.contains("chmod 600"), "\(refused.stderr)")
        // With the password in the environment the session is renewed once and the check passes.
        let renewed = try await fixture.run(
            ["whoami", "--output", "json"], extra: ["SPCONNECT_PASSWORD": alicePassword])
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(try await fixture.run(["whoami"]).status == 0)
        let status = try await fixture.run(["status"])
        #expect(status.stdout.contains(" succeeded in "), "\(status.stdout)")
        #expect(status.stdout.contains(", by spconnect renewal: signed in as "), "\(status.stdout)")
    }

    @Test func loginKeepsASummaryOfTheSignInForTheStatusPage() async throws {
        let fixture = try await CLIFixture()
        let path = fixture.state + "/spconnect/sessions/default.signin.json"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let data = try #require(FileManager.default.contents(atPath: path))
        let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(record["succeeded"] as? Bool == true)
        #expect((record["message"] as? String)?.hasPrefix("signed in as ") == true)
        let steps = try #require(record["steps"] as? [[String: Any]])
        #expect(steps.count > 2)
        #expect(steps.allSatisfy { ($0["host"] as? String)?.contains("/") == false })
        #expect(steps.contains { ($0["fieldsSent"] as? [String])?.contains("passwd") == true })
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains(alicePassword))
        // `spconnect status` says how it went.
        let status = try await fixture.run(["status"])
        #expect(status.status == 0)
        #expect(
            status.stdout.contains("sign-in:  ")
                && status.stdout.contains(" succeeded in \(steps.count) steps, by spconnect login: signed in as "))
        #expect(record["source"] as? String == "spconnect login")
        let cookies = try String(contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
        for line in cookies.split(separator: "\n") where !line.hasPrefix("# ") {
            let value = String(line.split(separator: "\t").last ?? "")
            if value.count >= 8 { #expect(!text.contains(value), "a cookie value leaked") }
        }

        // A damaged record is said as such; the session is still shown and the command still succeeds.
        try "{\"at\": 1}".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let damaged = try await fixture.run(["status"])
        #expect(damaged.status == 0)
        #expect(damaged.stdout.contains("user:     "))
        #expect(damaged.stdout.contains("sign-in:  unknown: the last sign-in record \(path) cannot be read"))
        #expect(damaged.stdout.contains("the next sign-in replaces it"))

        // `spconnect logout` deletes it with the session.
        #expect(try await fixture.run(["logout"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: fixture.state + "/spconnect/sessions/default.cookies"))
    }

    @Test func aFailedLoginIsRecordedAndLeavesTheSavedSessionAlone() async throws {
        let fixture = try await CLIFixture()
        let sessions = fixture.state + "/spconnect/sessions"
        let before = try #require(FileManager.default.contents(atPath: sessions + "/default.cookies"))
        let failed = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback",
            ],
            stdin: "Autumn2025?\n")
        #expect(failed.status == 3, "\(failed.stderr)")
        #expect(FileManager.default.contents(atPath: sessions + "/default.cookies") == before)
        let data = try #require(FileManager.default.contents(atPath: sessions + "/default.signin.json"))
        let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(record["succeeded"] as? Bool == false)
        let message = try #require(record["message"] as? String)
        #expect(message.contains("Check the user name and password"))
        #expect(failed.stderr.contains(message))
        #expect((record["steps"] as? [Any])?.isEmpty == false)
        #expect(!String(decoding: data, as: UTF8.self).contains("Autumn2025"))
        // The saved session still works, and `spconnect status` shows it with the failed sign-in.
        #expect(try await fixture.run(["whoami"]).status == 0)
        let status = try await fixture.run(["status"])
        #expect(status.stdout.contains("sign-in:  ") && status.stdout.contains(" failed in "))
        #expect(status.stdout.contains(message))
        // Without the session (logged out: both files go), a new failed login is what status reports.
        #expect(try await fixture.run(["logout"]).status == 0)
        _ = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback",
            ],
            stdin: "Autumn2025?\n")
        let none = try await fixture.run(["status"])
        #expect(none.status == 11)
        #expect(none.stderr.contains("Last sign-in: ") && none.stderr.contains(message))
    }

    /// What a script sees when a sign-in needs a person: exit 4 and the reason, exit 7 for a policy refusal; no
    /// session is saved either way.
    @Test func loginExitCodesForInterruptsAndRefusals() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let session = fixture.state + "/spconnect/sessions/default.cookies"
        let interrupt = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", "carol.ca@contoso.test", "--password-stdin",
                "--allow-http-loopback",
            ],
            stdin: alicePassword + "\n")
        #expect(interrupt.status == 4, "\(interrupt.stderr)")
        #expect(interrupt.stderr.contains("Conditional Access"), "\(interrupt.stderr)")
        #expect(!FileManager.default.fileExists(atPath: session))
        // Without --allow-http-loopback the password is not posted over plain http.
        let passwordPosts = { fixture.sim.requestLog().filter { $0.formFields.contains { $0.value == alicePassword } } }
        let postedBefore = passwordPosts().count
        let plain = try await fixture.run(
            ["login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin"],
            stdin: alicePassword + "\n")
        #expect(plain.status == 7, "\(plain.stderr)")
        #expect(plain.stderr.contains("--allow-http-loopback"))
        #expect(!FileManager.default.fileExists(atPath: session))
        #expect(passwordPosts().count == postedBefore)
    }

    /// Entra's Conditional Access block and a registration interrupt: exit 4, Entra's words and a way forward on
    /// standard error, no session saved.
    @Test(arguments: ["53003", "50203"])
    func entraStatesEndWithExit4AndAWayForward(code: String) async throws {
        let fixture = try await CLIFixture(signIn: false, entraInterrupt: EntraInterrupt(code: code))
        let login = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback",
            ],
            stdin: alicePassword + "\n")
        #expect(login.status == 4, "\(login.stderr)")
        #expect(login.stderr.contains("AADSTS\(code)"), "\(login.stderr)")
        #expect(
            login.stderr.contains(code == "53003" ? "administrator" : "aka.ms/mysecurityinfo"), "\(login.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.state + "/spconnect/sessions/default.cookies"))
    }

    /// A registration interrupt Entra still lets the user put off (`urlSkipMfaRegistration`, N days left): without
    /// `--skip-registration` the sign-in stops (exit 4) and says it could skip it; with it, the registration is put
    /// off and the sign-in completes; one that may not be put off is never skipped.
    @Test func aSkippableRegistrationIsSkippedOnlyWhenAsked() async throws {
        let fixture = try await CLIFixture(signIn: false, entraInterrupt: EntraInterrupt(code: "50203", skipDays: 7))
        let login = [
            "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin", "--allow-http-loopback",
        ]
        let stopped = try await fixture.run(login, stdin: alicePassword + "\n")
        #expect(stopped.status == 4, "\(stopped.stderr)")
        #expect(
            stopped.stderr.contains("AADSTS50203") && stopped.stderr.contains("--skip-registration"),
            "\(stopped.stderr)")
        #expect(stopped.stderr.contains("7 day"), "\(stopped.stderr)")
        #expect(fixture.sim.skippedRegistrations == 0)
        let skipped = try await fixture.run(login + ["--skip-registration"], stdin: alicePassword + "\n")
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(fixture.sim.skippedRegistrations == 1)

        let blocking = try await CLIFixture(signIn: false, entraInterrupt: EntraInterrupt(code: "50072"))
        let refused = try await blocking.run(
            [
                "login", "--site", blocking.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback", "--skip-registration",
            ], stdin: alicePassword + "\n")
        #expect(refused.status == 4 && !refused.stderr.contains("--skip-registration"), "\(refused.stderr)")
        #expect(blocking.sim.skippedRegistrations == 0)
    }

    /// `ConvergedError` right after the second factor (saml2aws #1448 stops there): exit 4 with Entra's words, the
    /// code and what to do; and the confirmation interrupt (`CmsiInterrupt`), which a user passes with Continue, is
    /// passed, after the password and after the second factor.
    @Test(arguments: [
        ("500121", 4, "new one"), ("50089", 4, "from the start"), ("50196", 4, "Wait a few minutes"),
        ("50199", 0, "Signed in"),
    ])
    func entraStatesAfterTheSecondFactor(code: String, status: Int32, words: String) async throws {
        let fixture = try await CLIFixture(signIn: false, entraInterrupt: EntraInterrupt(code: code))
        for user in ["bob.mfa@contoso.test", aliceEmail] where status == 0 || user != aliceEmail {
            let login = try await fixture.run(
                ["login", "--site", fixture.sim.siteURL, "--user", user, "--password-stdin", "--allow-http-loopback"],
                stdin: alicePassword + "\n")
            #expect(login.status == status, "\(code) \(user): \(login.stderr)")
            #expect((login.stdout + login.stderr).contains(words), "\(code) \(user): \(login.stderr)")
            if status != 0 { #expect(login.stderr.contains(code), "\(login.stderr)") }
        }
    }

    /// Microsoft's anti-phishing page (`/common/wrongplace`, where a browser is moved from the native-client reply
    /// address): named, exit 4, with what to use instead.
    @Test func theWrongPlacePageIsNamed() async throws {
        let fixture = try await CLIFixture(signIn: false)
        for start in ["/common/wrongplace", "/common/oauth2/nativeclient?code=0.AAAA"] {
            let login = try await fixture.run(
                [
                    "login", "--url", fixture.sim.identityProviderURL + start, "--user", aliceEmail, "--password-stdin",
                    "--allow-http-loopback",
                ], stdin: alicePassword + "\n")
            #expect(login.status == 4, "\(start): \(login.stderr)")
            #expect(login.stderr.contains("anti-phishing") && login.stderr.contains("device code"), "\(login.stderr)")
        }
    }

    /// A public site: no password is asked for (standard input is not read), and the session reads lists.
    @Test func anonymousLoginNeedsNoPassword() async throws {
        let fixture = try await CLIFixture(mode: .anonymous, signIn: false)
        let login = try await fixture.run([
            "login", "--site", fixture.sim.siteURL, "--user", "visitor", "--flow", "anonymous", "--allow-http-loopback",
        ])
        #expect(login.status == 0, "\(login.stderr)")
        let lists = try await fixture.run(["lists", "--output", "json"])
        #expect(lists.status == 0, "\(lists.stderr)")
        #expect(lists.stdout.contains("\"Tasks\""))
    }

    @Test func withoutASavedSessionSiteCommandsSayToLogIn() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let result = try await fixture.run(["lists"])
        #expect(result.status == 11)
        #expect(result.stderr.contains("spconnect login"))
        #expect(try await fixture.run(["whoami"]).status == 11)
        #expect(try await fixture.run(["status"]).status == 11)
    }

    // MARK: Files

    @Test func uploadThenDownloadIsByteIdentical() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("files")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/random.bin"))
        let upload = try await fixture.run(
            ["upload", folder + "/random.bin", "--to", "Shared Documents", "--output", "json"])
        #expect(upload.status == 0, "\(upload.stderr)")
        #expect(upload.stdout.contains("\"size\": 200000"))
        let again = try await fixture.run(["upload", folder + "/random.bin", "--to", "Shared Documents"])
        #expect(again.status == 9, "a second upload without --overwrite must be refused")
        #expect(again.stderr.contains("already exists"))
        #expect(
            try await fixture.run(["upload", folder + "/random.bin", "--to", "Shared Documents", "--overwrite"]).status
                == 0)

        let into = folder + "/down"
        try FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)
        let download = try await fixture.run(["download", "/Shared Documents/random.bin", "--to", into])
        #expect(download.status == 0, "\(download.stderr)")
        #expect(FileManager.default.contents(atPath: into + "/random.bin") == Data(bytes))

        let listing = try await fixture.run(["ls", "Shared Documents", "--output", "csv"])
        #expect(listing.stdout.contains("file,random.bin,200000,"))
        // As a browser shows them: an escaped path, and a whole address.
        for pasted in ["/Shared%20Documents", fixture.sim.siteURL + "/Shared%20Documents/"] {
            let again = try await fixture.run(["ls", pasted, "--output", "csv"])
            #expect(again.stdout.contains("file,random.bin,200000,"), "\(pasted): \(again.stderr)")
        }
        // A name with a literal % and # goes up and down unchanged.
        let odd = folder + "/50% #1.bin"
        try Data(bytes.prefix(100)).write(to: URL(fileURLWithPath: odd))
        #expect(try await fixture.run(["upload", odd, "--to", "Shared Documents"]).status == 0)
        let oddDownload = try await fixture.run(["download", "/Shared Documents/50% #1.bin", "--to", into])
        #expect(oddDownload.status == 0, "\(oddDownload.stderr)")
        #expect(FileManager.default.contents(atPath: into + "/50% #1.bin") == Data(bytes.prefix(100)))
        // A file's address copied from a browser downloads too.
        try FileManager.default.createDirectory(atPath: into + "/again", withIntermediateDirectories: true)
        let pastedFile = fixture.sim.siteURL + "/Shared%20Documents/random.bin"
        let byAddress = try await fixture.run(["download", pastedFile, "--to", into + "/again"])
        #expect(byAddress.status == 0, "\(byAddress.stderr)")
        #expect(FileManager.default.contents(atPath: into + "/again/random.bin") == Data(bytes))
    }

    /// `download <server-relative-url> --to DIR` of the 50 MiB generated file: the file in DIR is byte-identical to
    /// the simulator's generator, compared 1 MiB at a time.
    @Test func fiftyMegabyteDownloadGivesTheGeneratorsBytes() async throws {
        let fixture = try await CLIFixture()
        let into = try temporaryDirectory("large")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let result = try await fixture.run(["download", Simulator.largeFileURL, "--to", into, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: into) == ["large-50MB.bin"])
        let path = into + "/large-50MB.bin"
        let size = try #require(fixture.sim.fileLength(serverRelativeURL: Simulator.largeFileURL))
        #expect(size == 52_428_800)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var offset = 0
        var mismatch: Int?
        while mismatch == nil {
            let local = [UInt8](try handle.read(upToCount: 1 << 20) ?? Data())
            let expected = fixture.sim.fileBytes(
                serverRelativeURL: Simulator.largeFileURL, offset: offset, count: 1 << 20)
            if local != expected {
                let index = zip(local, expected ?? []).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                mismatch = offset + (index ?? min(local.count, expected?.count ?? 0))
            }
            if local.isEmpty { break }
            offset += local.count
        }
        #expect(mismatch == nil, "the download differs from the generator at byte \(mismatch ?? -1)")
        #expect(offset == size)
    }

    @Test func downloadByLibraryItemWritesTheSameBytesTheServerSends() async throws {
        let fixture = try await CLIFixture()
        let into = try temporaryDirectory("photos")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let result = try await fixture.run(["download", "Photos", "1", "Photos", "2", "--to", into, "--parallel", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let api = try await fixture.run([
            "api", "GET", "/_api/web/GetFileByServerRelativeUrl('/Photos/sunset.png')/$value", "--raw",
        ])
        let local = try #require(FileManager.default.contents(atPath: into + "/sunset.png"))
        #expect(local.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(local.count == 2396)
        #expect(FileManager.default.fileExists(atPath: into + "/sea.png"))
        #expect(api.status == 0)
        #expect(try await fixture.run(["download", "/Photos/none.png", "--to", into]).status == 8)
    }

    /// `--url` (any page) and `--site` (SharePoint) are two forms of login; mixing them is a usage error that says
    /// which to give, and `cookies` prints only what a URL would get, in each format.
    @Test func loginTargetsAndTheCookiesCommand() async throws {
        let fixture = try await CLIFixture()
        let both = try await fixture.run([
            "login", "--site", fixture.sim.siteURL, "--url", fixture.sim.siteURL, "--user", "a",
        ])
        #expect(both.status == 2 && both.stderr.contains("not both"), "\(both.stderr)")
        let proof = try await fixture.run([
            "login", "--site", fixture.sim.siteURL, "--proof-url", "https://x.test/", "--user", "a",
        ])
        #expect(proof.status == 2 && proof.stderr.contains("--proof-url goes with --url"), "\(proof.stderr)")
        let flow = try await fixture.run(["login", "--url", fixture.sim.siteURL, "--flow", "ntlm", "--user", "a"])
        #expect(flow.status == 2, "\(flow.stderr)")

        let header = try await fixture.run(["cookies"])
        #expect(header.status == 0, "\(header.stderr)")
        #expect(header.stdout.hasPrefix("Cookie: ") && header.stdout.contains("FedAuth="), "\(header.stdout)")
        let json = try await fixture.run(["cookies", "--format", "json"])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(objects.contains { $0["name"] as? String == "FedAuth" && ($0["value"] as? String)?.isEmpty == false })
        let netscape = try await fixture.run(["cookies", "--format", "netscape"])
        #expect(netscape.stdout.hasPrefix("# Netscape HTTP Cookie File"))
        let elsewhere = try await fixture.run(["cookies", "--url", "http://127.0.0.9:1/"])
        #expect(elsewhere.status == 8, "no cookie of the site goes to another host: \(elsewhere.stdout)")
        #expect(try await fixture.run(["cookies", "--format", "xml"]).status == 2)
    }

    /// Two different files with one name are refused before anything is transferred (one would replace the
    /// other); the same file named twice is fetched once.
    @Test func downloadNeverSavesTwoFilesUnderOneName() async throws {
        let fixture = try await CLIFixture()
        let into = try temporaryDirectory("same-name")
        defer { try? FileManager.default.removeItem(atPath: into) }
        let upload = try await fixture.run(["upload", Self.localFile(named: "sea.png"), "--to", "/Shared Documents"])
        #expect(upload.status == 0, "\(upload.stderr)")
        let clash = try await fixture.run(["download", "/Photos/sea.png", "/Shared Documents/sea.png", "--to", into])
        #expect(clash.status == 2, "\(clash.stderr)")
        #expect(clash.stderr.contains("would both be saved as 'sea.png'"), "\(clash.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: into).isEmpty, "a file was written")
        let twice = try await fixture.run(["download", "/Photos/sea.png", "Photos", "2", "--to", into])
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: into) == ["sea.png"])
    }

    /// A small local file with `name`, in a fresh folder.
    static func localFile(named name: String) throws -> String {
        let folder = try temporaryDirectory("local")
        let path = folder + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data("local copy".utf8)))
        return path
    }

    // MARK: api

    @Test func apiCallsAServiceThatPicksItsMethodFromAHeader() async throws {
        let server = try HTTPServer { request in
            let json = "application/json"
            switch request.header("METHOD") {
            case "getValues":
                return HTTPServerResponse(status: 200, contentType: json, text: #"{"values":[1,2,3],"name":"demo"}"#)
            case "postValues":
                guard request.method == "POST" else {
                    return HTTPServerResponse(status: 405, contentType: json, text: #"{"error":"POST only"}"#)
                }
                return HTTPServerResponse(
                    status: 200, contentType: json,
                    text: #"{"echo":"# + String(decoding: request.body, as: UTF8.self) + "}")
            default:
                return HTTPServerResponse(
                    status: 400, contentType: json, text: #"{"error":"unknown method","code":17}"#)
            }
        }
        defer { server.stop() }
        let state = try temporaryDirectory("api")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        let url = server.baseURL + "/service"

        let get = try await runSpconnect(
            ["api", "GET", url, "-H", "METHOD: getValues", "--anonymous"], environment: environment)
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "{\n  \"values\": [\n    1,\n    2,\n    3\n  ],\n  \"name\": \"demo\"\n}\n")

        let post = try await runSpconnect(
            ["api", "POST", url, "-H", "METHOD: postValues", "--data", #"{"a":1,"b":"two"}"#, "--anonymous"],
            environment: environment)
        #expect(post.status == 0, "\(post.stderr)")
        let echoed = try JSONSerialization.jsonObject(with: post.stdoutBytes) as? [String: Any]
        let echo = echoed?["echo"] as? [String: Any]
        #expect(echo?["a"] as? Int == 1)
        #expect(echo?["b"] as? String == "two")

        let unknown = try await runSpconnect(
            ["api", "GET", url, "-H", "METHOD: nope", "--anonymous"], environment: environment)
        #expect(unknown.status == 13)
        #expect(unknown.stdout.contains("\"error\": \"unknown method\""))
        #expect(unknown.stderr.contains("HTTP 400"))
    }

    @Test func apiSendsBasicCredentialsFromStandardInputNeverFromArguments() async throws {
        let agents = HeaderLog()
        let server = try HTTPServer { request in
            agents.add(request.header("User-Agent") ?? "")
            let expected = "Basic " + Data("bob:s3cret pass".utf8).base64EncodedString()
            guard request.header("Authorization") == expected else {
                return HTTPServerResponse(status: 401, contentType: "application/json", text: #"{"error":"who?"}"#)
            }
            return HTTPServerResponse(status: 200, contentType: "application/json", text: #"{"ok":true}"#)
        }
        defer { server.stop() }
        let state = try temporaryDirectory("basic")
        defer { try? FileManager.default.removeItem(atPath: state) }
        // A password over plain http only to loopback, and only when asked: nothing is sent otherwise.
        let refused = try await runSpconnect(
            ["api", "GET", server.baseURL + "/x", "--basic", "bob", "--password-stdin"], stdin: "s3cret pass\n",
            environment: ["XDG_STATE_HOME": state])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("plain http") && refused.stderr.contains("--allow-http-loopback"))
        #expect(agents.values.isEmpty)
        let allowed = [
            "api", "GET", server.baseURL + "/x", "--basic", "bob", "--password-stdin", "--allow-http-loopback",
        ]
        let result = try await runSpconnect(allowed, stdin: "s3cret pass\n", environment: ["XDG_STATE_HOME": state])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "{\n  \"ok\": true\n}\n")
        let wrong = try await runSpconnect(allowed, stdin: "nope\n", environment: ["XDG_STATE_HOME": state])
        #expect(wrong.status == 13)
        // The User-Agent: decorated by default, then the environment's, then the option's.
        _ = try await runSpconnect(
            allowed, stdin: "nope\n", environment: ["XDG_STATE_HOME": state, "SPCONNECT_USER_AGENT": "Nightly/2"])
        _ = try await runSpconnect(
            allowed + ["--user-agent", "Mozilla/5.0 (X11; Linux x86_64)"], stdin: "nope\n",
            environment: ["XDG_STATE_HOME": state, "SPCONNECT_USER_AGENT": "Nightly/2"])
        let seen = agents.values
        #expect(seen.count == 4)
        #expect(seen.prefix(2).allSatisfy { $0.hasPrefix("NONISV|SPConnect|spconnect/") && $0.count > 27 })
        #expect(seen.suffix(2) == ["Nightly/2", "Mozilla/5.0 (X11; Linux x86_64)"])
    }

    @Test func apiUsesTheSavedSessionForSharePointPaths() async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run(["api", "GET", "/_api/web?$select=Title"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "{\n  \"Title\": \"SPSim Team\"\n}\n")
        let missing = try await fixture.run(["api", "GET", "/_api/web/lists/getbytitle('Nope')"])
        #expect(missing.status == 13)
        #expect(missing.stdout.contains("does not exist"))
    }

    @Test func apiRenewsAnEndedSessionOnceWhenAPasswordIsAvailable() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.expireSessions()
        let refused = try await fixture.run(["api", "GET", "/_api/web?$select=Title"])
        #expect(refused.status == 13)
        let renewed = try await fixture.run(
            ["api", "GET", "/_api/web?$select=Title"], extra: ["SPCONNECT_PASSWORD": alicePassword])
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(renewed.stdout.contains("SPSim Team"))
    }

    @Test func quietLeavesOnlyResultsAndErrors() async throws {
        let fixture = try await CLIFixture()
        let noisy = try await fixture.run(["whoami", "--output", "json"])
        #expect(noisy.stderr.contains("Signed in at"))
        let quiet = try await fixture.run(["whoami", "--output", "json", "--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty)
        #expect(quiet.stdout == noisy.stdout)
    }

    // MARK: Demo and help

    @Test func demoRunsEndToEndAndPrintsThePhotos() async throws {
        let state = try temporaryDirectory("demo")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let result = try await runSpconnect(["demo"], environment: ["XDG_STATE_HOME": state, "HOME": state])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["sunset.png", "sea.png", "checker.png", "logo.svg", "/Photos/sunset.png", "2396"] {
            #expect(result.stdout.contains(name), "missing \(name)")
        }
        #expect(result.stdout.contains("Signed in as Alice Example (flow entra)"))
        #expect(result.stdout.contains("Tasks"))
        #expect(result.stdout.contains("spconnect login --site"))
        #expect(!result.stdout.contains(alicePassword))
        // Nothing was saved in the user's state directory.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: state + "/spconnect/sessions")) == nil)
    }

    @Test func everyCommandHasHelp() async throws {
        let overview = try await runSpconnect(["--help"], environment: [:])
        #expect(overview.status == 0)
        let names = overview.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(
            Set(names).isSuperset(of: [
                "whoami", "web", "lists", "list", "fields", "items", "item", "ls", "download", "upload", "add",
                "update", "delete", "api", "demo", "login", "logout", "status",
            ]))
        for name in names {
            let help = try await runSpconnect([name, "--help"], environment: [:])
            #expect(help.status == 0, "\(name)")
            #expect(help.stdout.hasPrefix("usage: spconnect \(name)"), "\(name)")
        }
    }

    @Test func itemsAsTextComeWithEachPageNotOneRequestPerItem() async throws {
        let fixture = try await CLIFixture()
        fixture.sim.clearRequestLog()
        let result = try await fixture.run([
            "items", "Tasks", "--as-text", "--select", "Id,Title,AssignedToId", "--top", "3", "--output", "csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == "ID,Title,AssignedTo")
        #expect(lines.dropFirst().first == "1,Plan the kickoff,Carol Conditional")
        #expect(lines.count == 4)
        #expect(!fixture.sim.requestLog().contains { $0.path.lowercased().hasSuffix("/fieldvaluesastext") })
    }

    @Test func webFieldsAndItemShowTheirValues() async throws {
        let fixture = try await CLIFixture()
        let web = try await fixture.run(["web", "--output", "json"])
        #expect(web.status == 0)
        #expect(web.stdout.contains("\"title\": \"SPSim Team\""))
        let fields = try await fixture.run(["fields", "Tasks", "--output", "csv"])
        #expect(fields.stdout.contains("Status,Status,Choice"))
        let text = try await fixture.run(["item", "Tasks", "1", "--as-text", "--output", "json"])
        #expect(text.stdout.contains("\"Author\": \"Alice Example\""))
    }
}

/// Values a test server saw, in order (its handler runs on the server's threads).
final class HeaderLog: Sendable {
    private let seen = Mutex<[String]>([])

    func add(_ value: String) { seen.withLock { $0.append(value) } }

    var values: [String] { seen.withLock { $0 } }
}
