package import AuthFlow
import Cryptography
import Foundation
package import Transport

/// Where an app takes a second factor's one-time codes from, in order: a command (`--otp-command CMD` or
/// `SPCONNECT_OTP_COMMAND`, run with `/bin/sh` as a ``HelperCommand``: its first output line is the code), a TOTP
/// secret file (`--totp-secret-file FILE` or `SPCONNECT_TOTP_SECRET_FILE`: a base32 secret or an `otpauth://` URI,
/// refused unless only its owner can read it; codes made by the RFC 6238 generator), then the app's own prompt
/// when it has one (a terminal to ask on; this module writes to no terminal). Never from argv: a code in a command
/// line would outlive its 30 seconds in shell history.
///
/// Every code given is passed to `remember` first, so the app can remove it from anything it shows; `report` hears
/// which request a command gave no code for, and why.
package enum OneTimeCodeSources {
    /// The source for `command`, else the TOTP secret file at `totpSecretFile`, else `prompt` (asked the question,
    /// it gives the typed code or nil), else none. A secret file that cannot be used throws now, not at the code page.
    package static func source(
        command: String?, totpSecretFile: String?, prompt: (@Sendable (String) -> Secret?)?,
        remember: @escaping @Sendable (Secret) -> Void,
        report: @escaping @Sendable (OneTimeCodeRequest, String) -> Void
    ) throws(OneTimeCodeSourceError) -> OneTimeCodeSource? {
        if let command {
            return { request in
                switch await HelperCommand.firstLineWaiting(for: command) {
                case .success(let code):
                    remember(code)
                    return code
                case .failure(let failure):
                    report(request, failure.description)
                    return nil
                }
            }
        }
        if let totpSecretFile { return try totp(path: totpSecretFile, remember: remember) }
        guard let prompt else { return nil }
        return { request in
            let what = request.label.map { " (\($0))" } ?? ""
            let again = request.attempt > 1 ? "That code was refused. " : ""
            guard let code = prompt("\(again)One-time code\(what): ") else { return nil }
            remember(code)
            return code
        }
    }

    /// Codes from the TOTP secret in `path`: the current one first; after a refusal, the next time step's.
    static func totp(
        path: String, remember: @escaping @Sendable (Secret) -> Void
    ) throws(OneTimeCodeSourceError) -> OneTimeCodeSource {
        let secret: Secret
        do {
            secret = try PasswordFile.read(path)
        } catch {
            throw OneTimeCodeSourceError(description: error.description)
        }
        remember(secret)
        let generator: TOTP
        do {
            generator = try TOTP(text: secret.revealedValue())
        } catch {
            throw OneTimeCodeSourceError(description: "\(path): \(error.description)")
        }
        return { request in
            if request.attempt > 1 {
                // The last code was refused: wait for the next time step (at most one period).
                let period = Double(generator.period)
                let now = Date().timeIntervalSince1970
                let wait = period - now.truncatingRemainder(dividingBy: period) + 0.5
                try? await Task.sleep(for: .milliseconds(Int(wait * 1000)))
            }
            let code = Secret(generator.code())
            remember(code)
            return code
        }
    }
}

/// A one-time code source that cannot be used (a TOTP secret file others can read, or no secret in it).
package struct OneTimeCodeSourceError: Error, Sendable, CustomStringConvertible {
    package let description: String
}
