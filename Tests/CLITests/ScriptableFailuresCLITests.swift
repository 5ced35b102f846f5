import Foundation
import SPSim
import TestSupport
import Testing

/// What a script reads when a command fails: with `-o json` / `-o ndjson` the failure is one JSON object on standard
/// error (its secrets removed as in the plain text); `status -o json` is the session as JSON; a renewal whose password
/// is refused exits 3, as `login` would, with the identity provider's words first.
@Suite struct ScriptableFailuresCLITests {
    /// The JSON objects of standard error, one a line.
    static func objects(_ stderr: String) throws -> [[String: Any]] {
        try stderr.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
    }

    @Test func withJSONOutputAFailureIsOneJSONObjectOnStandardError() async throws {
        let fixture = try await CLIFixture()
        for format in ["json", "ndjson"] {
            let missing = try await fixture.run(["items", "NoSuchList", "-o", format])
            #expect(missing.status == 8, "\(missing.stderr)")
            let objects = try Self.objects(missing.stderr)
            #expect(objects.count == 1, "\(missing.stderr)")
            let error = try #require(objects.first)
            #expect(error["code"] as? String == "not_found")
            #expect(error["exit"] as? Int == 8)
            #expect((error["message"] as? String)?.hasPrefix("spconnect items: ") == true, "\(error)")
            #expect((error["hint"] as? String)?.isEmpty == false)
        }
        // A usage error too, before the command runs.
        let usage = try await fixture.run(["items", "Tasks", "--top", "many", "-o", "json"])
        #expect(usage.status == 2)
        #expect(try Self.objects(usage.stderr).first?["code"] as? String == "usage", "\(usage.stderr)")
        // Without -o json the message stays plain text.
        let plain = try await fixture.run(["items", "NoSuchList"])
        #expect(plain.status == 8 && plain.stderr.hasPrefix("spconnect items: "), "\(plain.stderr)")
    }

    @Test func aRefusedRenewalPasswordExitsThreeWithTheIdentityProvidersWordsFirst() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await SessionRenewalCLITests.login(fixture)
        fixture.sim.expireSessions()
        let wrong = "not-alices-password-42"
        let result = try await fixture.run(["lists"], extra: ["SPCONNECT_PASSWORD": wrong])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(!result.stderr.contains("http://"), "the identity provider's words, not a URL: \(result.stderr)")
        #expect(result.stderr.contains("refused the password"), "\(result.stderr)")
        #expect(!result.stderr.contains(wrong))

        let json = try await fixture.run(["lists", "-o", "json"], extra: ["SPCONNECT_PASSWORD": wrong])
        #expect(json.status == 3)
        let error = try #require(try Self.objects(json.stderr).last, "\(json.stderr)")
        #expect(error["code"] as? String == "invalid_credentials" && error["exit"] as? Int == 3, "\(error)")
        let message = try #require(error["message"] as? String)
        #expect(message == result.stderr.trimmingCharacters(in: .newlines), "the same words as the plain text")
        #expect(!json.stderr.contains(wrong), "the password never shows")
    }

    @Test func statusAsJSONHoldsTheSessionsFactsAndNoSecret() async throws {
        let fixture = try await CLIFixture()
        let result = try await fixture.run(["status", "-o", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let status = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        #expect(status["profile"] as? String == "default")
        #expect(status["site"] as? String == fixture.sim.siteURL)
        #expect(status["user"] as? String == aliceEmail)
        #expect(status["flow"] as? String != nil && status["proved"] as? String != nil)
        let cookies = try #require(status["cookies"] as? [[String: Any]])
        #expect(!cookies.isEmpty && cookies.allSatisfy { $0["name"] is String && $0["value"] == nil })
        #expect(status["renewal"] is String, "\(status)")
        for value in try await fixture.cookieValues() { #expect(!result.stdout.contains(value)) }

        let none = try await fixture.run(["status", "--profile", "nobody", "-o", "json"])
        #expect(none.status == 11)
        #expect(try Self.objects(none.stderr).last?["code"] as? String == "sign_in_required", "\(none.stderr)")
    }
}
