// Fuzz target: the token endpoint's answers as AuthFlow reads them (Modules/AuthFlow/Tokens, through `@testable
// import`): `TokenEndpoint.answer` (the JSON object of a 2xx, the error codes of a 4xx/5xx), `TokenEndpoint.tokens`
// (an access token's answer) and `DeviceCodeAnswer` (the device-code endpoint's).
//
// Input: one byte of status (0: 200, 1: 400, 2: 401, 3: 500, else 200 + the byte), then the body. Oracles: a 2xx
// with a JSON object reads, a 2xx without one is `unexpectedResponse`, an error answer is never read as tokens; a token answer's lifetime is from 0 to a day and the session file keeps the tokens
// (`TokenSetLine` renders them to a line that parses back to the same tokens); a device-code answer's interval and
// lifetime are within their bounds.
import Foundation
import FuzzSupport
import JSON
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

func fuzzToken(_ bytes: [UInt8]) {
    var reader = FuzzReader(bytes)
    let status = [200, 400, 401, 500][safe: Int(reader.byte())] ?? 200
    let body = reader.rest()
    let object: JSONValue
    do {
        object = try TokenEndpoint.answer(status: status, body: body, url: "https://login.example/t/oauth2/v2.0/token")
    } catch {
        Fuzz.check(!(200..<300).contains(status) || error.reason == .unexpectedResponse, "a 2xx failed: \(error)")
        return
    }
    Fuzz.check((200..<300).contains(status), "an error answer (HTTP \(status)) read as tokens")
    if let tokens = try? TokenEndpoint.tokens(object) {
        Fuzz.check(
            TokenShape.lifetimes.contains(tokens.expiresIn), "a lifetime of \(tokens.expiresIn) s")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let set = TokenSet(
            kind: .deviceCode, appId: "app", tenant: "tenant", authority: "https://login.example", scope: "s",
            accessToken: tokens.accessToken, obtainedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(tokens.expiresIn)), refreshToken: tokens.refreshToken)
        let line = TokenSetLine.render(set)
        guard let again = TokenSetLine.parse(line) else {
            Fuzz.check(false, "the session file's token line does not read back: \(line.count) characters")
            return
        }
        Fuzz.check(
            again.accessToken.revealedValue() == set.accessToken.revealedValue()
                && again.refreshToken?.revealedValue() == set.refreshToken?.revealedValue()
                && again.expiresAt == set.expiresAt,
            "the token line reads back different tokens")
    }
    if let start = try? DeviceCodeAnswer(object) {
        Fuzz.check((1...DeviceCodeAnswer.longestInterval).contains(start.prompt.interval), "interval out of bounds")
        Fuzz.check((1...DeviceCodeAnswer.longestLifetime).contains(start.prompt.expiresIn), "lifetime out of bounds")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// A token answer with a refresh token, one with a numeric string lifetime, a device-code answer, and error answers
/// (AADSTS codes, `authorization_pending`).
let seeds = [
    "\u{0}{\"token_type\":\"Bearer\",\"scope\":\"https://contoso.sharepoint.com/.default\",\"expires_in\":3599,"
        + "\"ext_expires_in\":3599,\"access_token\":\"eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJ1cG4iOiJhIn0.c2ln\","
        + "\"refresh_token\":\"0.AAAA-refresh-token-value\"}",
    "\u{0}{\"access_token\":\"abcdefgh\",\"expires_in\":\"86399\"}",
    "\u{0}{\"user_code\":\"ABCD-EFGH\",\"device_code\":\"DAQABAAEAAAD\",\"verification_uri\":"
        + "\"https://microsoft.com/devicelogin\",\"expires_in\":900,\"interval\":5,\"message\":\"To sign in, use a web "
        + "browser to open the page https://microsoft.com/devicelogin and enter the code ABCD-EFGH to authenticate.\"}",
    "\u{1}{\"error\":\"invalid_client\",\"error_description\":\"AADSTS700027: Client assertion failed.\\r\\nTrace ID: "
        + "x\",\"error_codes\":[700027],\"timestamp\":\"2026-01-01 00:00:00Z\"}",
    "\u{1}{\"error\":\"authorization_pending\",\"error_codes\":[70016],\"error_description\":\"pending\"}",
    "\u{3}<html>Service unavailable</html>",
]

@main enum Main {
    static func main() { Fuzz.main(fuzzToken, seeds: seeds) }
}
