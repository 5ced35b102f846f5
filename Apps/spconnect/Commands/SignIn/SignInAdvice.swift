import AuthFlow

/// The engine's hints worded as `spconnect`'s own options: AuthFlow says what could change (a host to allow, a
/// flow to try), the CLI says which flag changes it.
extension SignInHint {
    /// One sentence naming the option that acts on the hint.
    var cliAdvice: String {
        switch self {
        case .allowHost(let host): return "If \(host) is yours, allow it with --allow-host \(host)."
        case .tryFlows(let flows):
            return "Run again with " + flows.map { "--flow \($0.rawValue)" }.joined(separator: " or ") + "."
        case .savePages: return "Run again with --dump-pages DIR to save a redacted copy for a bug report."
        case .recordTrace: return "Run again with --trace FILE to see where it stopped."
        case .giveOneTimeCodeSource:
            return "Give a code source: --otp-command CMD or --totp-secret-file FILE, or run at a terminal to be asked."
        case .allowPlainHTTPOnLoopback: return "Plain http to a loopback address needs --allow-http-loopback."
        case .getKerberosTicket:
            return
                "The server asks for Kerberos: run kinit (or, unattended, kinit -kt KEYTAB PRINCIPAL) and log in again."
        case .chooseSecondFactorMethod(let methods):
            return "Run again with " + methods.map { "--mfa-method \($0.rawValue)" }.joined(separator: " or ") + "."
        case .skipRegistration(let days):
            return "Entra still lets it be put off for \(days) day(s): run again with --skip-registration."
        }
    }
}

extension SignInOutcome {
    /// The outcome's message followed by its hints as `spconnect` options: what `login` prints.
    var cliMessage: String {
        ([message] + hints.map(\.cliAdvice)).joined(separator: " ")
    }
}

extension SignInRecord {
    /// The recorded message followed by its hints as `spconnect` options: what `status` prints.
    var cliMessage: String {
        ([message] + hints.map(\.cliAdvice)).joined(separator: " ")
    }
}
