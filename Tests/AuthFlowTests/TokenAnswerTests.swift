import Foundation
import JSON
import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

/// What the token and device-code endpoints answer, read within bounds (fuzz-token's oracles as tests): a lifetime
/// or interval a server could send but no session file or poll loop can hold is cut, never trusted.
@Suite struct TokenAnswerTests {
    /// A token lifetime of 10^13 s gave an expiry the session file's token line refuses (beyond ±1e12 s), so the
    /// session saved after signing in could not be read again. A day at most now.
    @Test func aTokenLifetimeBeyondADayIsCutSoTheSessionFileReadsItBack() throws {
        for lifetime: JSONValue in [.integer(10_000_000_000_000), .double(1e300), .string("99999999999999")] {
            let tokens = try TokenEndpoint.tokens(
                .object([("access_token", "eyJ0.eyJ1.c2ln"), ("expires_in", lifetime)]))
            #expect((0...86_400).contains(tokens.expiresIn), "\(lifetime): \(tokens.expiresIn)")
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let set = TokenSet(
                kind: .deviceCode, appId: "a", tenant: "t", authority: "https://login.example", scope: "s",
                accessToken: tokens.accessToken, obtainedAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(tokens.expiresIn)))
            #expect(TokenSetLine.parse(TokenSetLine.render(set)) != nil, "\(lifetime)")
        }
        #expect(try TokenEndpoint.tokens(.object([("access_token", "x"), ("expires_in", -30)])).expiresIn == 0)
        #expect(try TokenEndpoint.tokens(.object([("access_token", "x"), ("expires_in", "3599")])).expiresIn == 3599)
    }

    /// A device-code answer's interval and lifetime: huge ones (1e300 too) are cut, so the poll loop's deadline and
    /// `slow_down` sums cannot overflow.
    @Test func aDeviceCodeAnswerKeepsItsIntervalAndLifetimeWithinBounds() throws {
        let base: [(String, JSONValue)] = [
            ("device_code", "D"), ("user_code", "U"), ("verification_uri", "https://x/devicelogin"),
        ]
        let answer = try DeviceCodeAnswer(.object(base + [("interval", 1_000_000), ("expires_in", .double(1e300))]))
        #expect(answer.prompt.interval == DeviceCodeAnswer.longestInterval)
        #expect(answer.prompt.expiresIn == DeviceCodeAnswer.longestLifetime)
        let negative = JSONValue.object(base + [("interval", -5), ("expires_in", -1)])
        #expect(try DeviceCodeAnswer(negative).prompt.interval == 1)
        #expect(try DeviceCodeAnswer(negative).prompt.expiresIn == 1)
        #expect(throws: TokenError.self) { try DeviceCodeAnswer(.object([("user_code", "U")])) }
    }

    /// Error answers: codes beyond a double's integers are skipped, the others still classify.
    @Test func anErrorAnswerWithOddCodesStillClassifies() {
        let body = Array(#"{"error":"invalid_grant","error_codes":[1e300,-0.5,70043]}"#.utf8)
        #expect {
            try TokenEndpoint.answer(status: 400, body: body, url: "https://login.example/t/oauth2/v2.0/token")
        } throws: { error in
            (error as? TokenError)?.reason == .refreshRejected
        }
    }
}
