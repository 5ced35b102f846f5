import AppSupport
import AuthFlow
import CommandLineKit
import Foundation
import Keyring

#if canImport(Glibc)
    import Glibc
#endif

/// Options every command that uses a saved session understands.
let profileOption = OptionSpec.value(.profile, "NAME", values: .profile, "session profile").defaulting("default")

/// `--mfa-method`: which second factor to answer, one of ``SecondFactorMethod``'s cases.
let mfaMethodOption = OptionSpec.choice(
    .mfaMethod, "METHOD", of: SecondFactorMethod.self,
    "answer a second factor with \(OptionSpec.listed(SecondFactorMethod.self)) (default: the account's default method)")

/// Keeps `record` as the profile's last sign-in; a failure to write it is a warning, not a failed login.
func saveLastSignIn(_ record: SignInRecord, store: SessionStore, profile: String) {
    do {
        try store.saveLastSignIn(record, profile: profile)
    } catch {
        printError("spconnect login: warning: the sign-in summary for the status page was not saved: \(error)")
    }
}

/// The exit code documented in docs/cli.md for each sign-in outcome.
func exitCode(for outcome: SignInOutcome) -> ExitCode {
    switch outcome {
    case .signedIn: return .ok
    case .invalidCredentials: return .invalidCredentials
    case .interactionRequired, .secondFactorFailed: return .interactionRequired
    case .unknownPage, .loop: return .unknownPage
    case .policyRefused: return .policyRefused
    case .transport: return .network
    }
}

/// The `--trace FILE` of a sign-in, made now (0600), or nil when not asked for.
func traceFile(_ arguments: ParsedArguments) throws(UsageError) -> SignInTraceFile? {
    guard let path = arguments.value(.trace) else { return nil }
    do {
        return try SignInTraceFile(path: path)
    } catch {
        throw UsageError(description: error.description)
    }
}

/// Runs `spconnect-status`, installed beside `spconnect`, in place of this process.
enum StatusAppLauncher {
    static func exec(_ arguments: [String]) throws -> ExitCode {
        let path = SiblingProgram.path("spconnect-status")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw UsageError(
                description: "spconnect-status is not installed beside spconnect (\(path)); build it with "
                    + "'swift build --product spconnect-status'")
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        throw UsageError(description: "could not start \(path): \(String(cString: strerror(errno)))")
    }
}
