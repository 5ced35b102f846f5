import AuthFlow
import Foundation
import TestSupport
import Testing

@testable import spconnect_status

/// The status app answers a second factor from the same variables spconnect's renewals read
/// (`SPCONNECT_OTP_COMMAND`, `SPCONNECT_TOTP_SECRET_FILE`), and says at start when the secret file cannot be used.
@Suite struct OneTimeCodeSourceTests {
    private static let request = OneTimeCodeRequest(
        pageURL: "https://idp.example/mfa", fieldName: "otc", label: nil, attempt: 1)

    @Test func theCodeCommandAnswersAndItsCodeIsKeptFromThePages() async throws {
        let configuration = StatusServer.sessionConfiguration(
            StatusOptions(), environment: ["SPCONNECT_OTP_COMMAND": "echo 482913"])
        let source = try #require(configuration.oneTimeCode)
        let code = await source(Self.request)
        #expect(code?.revealedValue() == "482913")
        #expect(configuration.knownPasswords?().contains { $0.revealedValue() == "482913" } == true)
    }

    @Test func withoutAVariableThereIsNoSource() {
        #expect(StatusServer.sessionConfiguration(StatusOptions(), environment: [:]).oneTimeCode == nil)
    }

    @Test func aTOTPSecretFileOthersCanReadIsRefusedAtStart() throws {
        let folder = try temporaryDirectory("status-totp")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/totp"
        try "JBSWY3DPEHPK3PXP\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        let refusal = StatusServer.totpSecretFileRefusal(environment: ["SPCONNECT_TOTP_SECRET_FILE": path])
        #expect(refusal?.contains("SPCONNECT_TOTP_SECRET_FILE") == true, "\(refusal ?? "none")")
        chmod(path, 0o600)
        #expect(StatusServer.totpSecretFileRefusal(environment: ["SPCONNECT_TOTP_SECRET_FILE": path]) == nil)
    }
}
