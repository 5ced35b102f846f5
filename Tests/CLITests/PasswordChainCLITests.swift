import Foundation
import SPSim
import TestSupport
import Testing

/// One chain of password sources (decision 0013): for every combination of `SPCONNECT_PASSWORD`,
/// `SPCONNECT_PASSWORD_FILE`, `SPCONNECT_PASSWORD_COMMAND` and a login's `--password-command`, `status` names the
/// source, a renewal by a command signs in with that source's password, and the status app renews with it too.
/// Only the source the chain should pick holds the right password; every other source set holds a wrong one, so a
/// renewal or a status app that took another source would be refused. Serialized: simulator and processes.
@Suite(.serialized) struct PasswordChainCLITests {
    enum Source: String, CaseIterable {
        case environment, file, environmentCommand, loginCommand

        /// How `status` names it.
        var named: String {
            switch self {
            case .environment: return "from SPCONNECT_PASSWORD"
            case .file: return "from SPCONNECT_PASSWORD_FILE"
            case .environmentCommand: return "from SPCONNECT_PASSWORD_COMMAND"
            case .loginCommand: return "from the login's password command"
            }
        }
    }

    /// The chain's order: the environment, the file, the login's command, else the environment's command.
    static func expected(_ set: Set<Source>) -> Source? {
        if set.contains(.environment) { return .environment }
        if set.contains(.file) { return .file }
        if set.contains(.loginCommand) { return .loginCommand }
        if set.contains(.environmentCommand) { return .environmentCommand }
        return nil
    }

    static func renewalLine(_ stdout: String) -> String {
        stdout.split(separator: "\n").first { $0.hasPrefix("renewal:") }.map(String.init) ?? ""
    }

    @Test func statusRenewalsAndTheStatusAppTakeTheSameSourceInEveryCombination() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let secrets = fixture.state + "/secrets"
        try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true)
        let write = { (name: String, text: String) in
            FileManager.default.createFile(
                atPath: secrets + "/" + name, contents: Data((text + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
        }
        // Two profiles: one signed in with the password on standard input, one with a password command.
        #expect(write("login", alicePassword))
        let plain = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback",
            ],
            stdin: alicePassword + "\n")
        #expect(plain.status == 0, "\(plain.stderr)")
        let withCommand = try await fixture.run([
            "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-command",
            "cat '\(secrets)/login'", "--allow-http-loopback", "--profile", "command",
        ])
        #expect(withCommand.status == 0, "\(withCommand.stderr)")

        let combinations = (0..<(1 << Source.allCases.count)).map { bits in
            Set(Source.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
        }
        for set in combinations {
            let chosen = Self.expected(set)
            let label = set.map(\.rawValue).sorted().joined(separator: "+")
            let value = { (source: Source) in source == chosen ? alicePassword : "wrong-\(source.rawValue)" }
            var environment: [String: String] = [:]
            if set.contains(.environment) { environment["SPCONNECT_PASSWORD"] = value(.environment) }
            if set.contains(.file) {
                #expect(write("file", value(.file)))
                environment["SPCONNECT_PASSWORD_FILE"] = secrets + "/file"
            }
            if set.contains(.environmentCommand) {
                #expect(write("environment-command", value(.environmentCommand)))
                environment["SPCONNECT_PASSWORD_COMMAND"] = "cat '\(secrets)/environment-command'"
            }
            #expect(write("login", set.contains(.loginCommand) ? value(.loginCommand) : alicePassword))
            let profile = set.contains(.loginCommand) ? "command" : "default"

            // 1. status names the source.
            let status = try await fixture.run(["status", "--profile", profile], extra: environment)
            let line = Self.renewalLine(status.stdout)
            if let chosen {
                #expect(line.contains(chosen.named), "\(label): \(line)")
            } else {
                #expect(line.contains("no password source is set"), "\(label): \(line)")
            }

            // 2. A command renews with it (any other source's wrong password would be refused: exit 3).
            fixture.sim.expireSessions()
            let signIns = fixture.sim.passwordSignIns(for: aliceEmail)
            let renewed = try await fixture.run(["whoami", "--profile", profile], extra: environment)
            #expect(renewed.status == (chosen == nil ? 11 : 0), "\(label): \(renewed.stderr)")
            #expect(fixture.sim.passwordSignIns(for: aliceEmail) == signIns + (chosen == nil ? 0 : 1), "\(label)")

            // 3. The status app renews with it too, or says the session is gone when there is none.
            fixture.sim.expireSessions()
            let (body, stderr) = try await statusJSONFromServe(
                environment: fixture.environment.merging(environment) { $1 }, profile: profile)
            let text = String(decoding: body, as: UTF8.self)
            if chosen != nil {
                let json = try #require(
                    try JSONSerialization.jsonObject(with: body) as? [String: Any], "\(label): \(text) \(stderr)")
                let signIn = json["lastSignIn"] as? [String: Any]
                #expect(signIn?["ok"] as? Bool == true, "\(label): \(text) \(stderr)")
            } else {
                #expect(text.contains("session-gone"), "\(label): \(text)")
            }
            for secret in [alicePassword] + Source.allCases.map({ "wrong-\($0.rawValue)" }) {
                #expect(!(status.stdout + status.stderr + renewed.stderr + text + stderr).contains(secret), "\(label)")
            }
        }
    }
}
