import Foundation
import SPSim
import TestSupport
import Testing

/// `login --tap-stdin` / `--tap-file` against spsim's Entra with Temporary Access Passes (`AccessPassProfile`): the
/// pass stands for the password and the second factor; a refused pass ends with exit 3, its code and what to do; the
/// pass is never in any output, trace or record.
@Suite(.childProcesses) struct AccessPassCLITests {
    static let oneTime = "Tap-One-7Q2x9"
    static let multiUse = "Tap-Multi-K8p3z"

    static var users: [SimulatedUser] {
        var tara = SimulatedUser(
            email: "tara@contoso.test", password: "Unused-Password-1", displayName: "Tara Pass", mfa: true)
        tara.accessPass = AccessPassProfile(value: oneTime)
        var mo = SimulatedUser(email: "mo@contoso.test", password: "Unused-Password-2", displayName: "Mo Multi")
        mo.accessPass = AccessPassProfile(value: multiUse, usableOnce: false)
        var old = SimulatedUser(email: "old@contoso.test", password: "Unused-Password-3", displayName: "Old Pass")
        old.accessPass = AccessPassProfile(value: "Tap-Old-Expired1", lifetimeSeconds: 0)
        var ruled = SimulatedUser(email: "ruled@contoso.test", password: "Unused-Password-4", displayName: "Ruled")
        ruled.accessPass = AccessPassProfile(value: "Tap-Ruled-Multi1", usableOnce: false, policyRequiresOneTime: true)
        return [SimulatedUser].defaults + [tara, mo, old, ruled]
    }

    static func login(_ fixture: CLIFixture, user: String, flags: [String], stdin: String, trace: String) async throws
        -> RunResult
    {
        try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", user, "--allow-http-loopback", "--trace", trace,
            ] + flags, stdin: stdin + "\n")
    }

    /// Everything spconnect wrote: its output, the trace, and the state folder's files.
    static func everythingWritten(_ fixture: CLIFixture, _ run: RunResult, trace: String) -> String {
        var text = run.stdout + run.stderr + ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "")
        let enumerator = FileManager.default.enumerator(atPath: fixture.state)
        while let relative = enumerator?.nextObject() as? String {
            text += (try? String(contentsOfFile: fixture.state + "/" + relative, encoding: .utf8)) ?? ""
        }
        return text
    }

    @Test func aOneTimePassSignsInOnceInsteadOfThePasswordAndTheSecondFactor() async throws {
        let fixture = try await CLIFixture(signIn: false, users: Self.users)
        let trace = fixture.state + "/trace.jsonl"
        let first = try await Self.login(
            fixture, user: "tara@contoso.test", flags: ["--tap-stdin"], stdin: Self.oneTime, trace: trace)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Signed in as Tara Pass"), "\(first.stdout)")
        let posted = fixture.sim.requestLog().flatMap(\.formFields).filter { $0.name == "accesspass" }
        #expect(posted.map(\.value) == [Self.oneTime], "the pass went once, as the page's pass view posts it")
        #expect(!fixture.sim.requestLog().contains { $0.formFields.contains { $0.name == "passwd" } })
        #expect(!Self.everythingWritten(fixture, first, trace: trace).contains(Self.oneTime))

        let again = try await Self.login(
            fixture, user: "tara@contoso.test", flags: ["--tap-stdin"], stdin: Self.oneTime, trace: trace)
        #expect(again.status == 3, "\(again.stderr)")
        #expect(again.stderr.contains("130505") && again.stderr.contains("used already"), "\(again.stderr)")
        #expect(!Self.everythingWritten(fixture, again, trace: trace).contains(Self.oneTime))
    }

    @Test func theRefusalsSayWhichAndWhatToDo() async throws {
        let fixture = try await CLIFixture(signIn: false, users: Self.users)
        let trace = fixture.state + "/trace.jsonl"
        for (user, pass, code, words) in [
            ("mo@contoso.test", "Tap-Wrong-000000", "130503", "not valid"),
            ("old@contoso.test", "Tap-Old-Expired1", "130504", "expired"),
            ("ruled@contoso.test", "Tap-Ruled-Multi1", "130502", "policy"),
        ] {
            let run = try await Self.login(fixture, user: user, flags: ["--tap-stdin"], stdin: pass, trace: trace)
            #expect(run.status == 3, "\(user): \(run.stderr)")
            #expect(run.stderr.contains(code) && run.stderr.contains(words), "\(user): \(run.stderr)")
            #expect(!Self.everythingWritten(fixture, run, trace: trace).contains(pass), "\(user)")
        }
    }

    @Test func anAccountThatPrefersItsPassTakesItFromThePasswordSource() async throws {
        let fixture = try await CLIFixture(signIn: false, users: Self.users)
        let trace = fixture.state + "/trace.jsonl"
        for _ in 0..<2 {
            let run = try await Self.login(
                fixture, user: "mo@contoso.test", flags: ["--password-stdin"], stdin: Self.multiUse, trace: trace)
            #expect(run.status == 0, "a multi-use pass signs in again: \(run.stderr)")
        }
        // A pass for an account that has none: said, and no password post without a password.
        let none = try await Self.login(
            fixture, user: "alice@contoso.test", flags: ["--tap-stdin"], stdin: "Tap-Nobody-1", trace: trace)
        #expect(none.status == 3 && none.stderr.contains("has none"), "\(none.stderr)")
        #expect(!fixture.sim.requestLog().contains { $0.formFields.contains { $0.value == "Tap-Nobody-1" } })
    }
}
