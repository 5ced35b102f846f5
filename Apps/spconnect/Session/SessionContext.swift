import AppSupport
import AuthFlow
import CommandLineKit
import Foundation
import SharePoint
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// A saved profile opened for use: its session's cookies in a fresh client, and its renewal (AuthFlow's
/// ``ProfileRenewal``, the one the status app uses too), which signs in again once when the server says the session
/// ended (with the password from `SPCONNECT_PASSWORD`, the login's `--password-command` or `--save-password` keyring
/// entry, `SPCONNECT_PASSWORD_COMMAND`, `SPCONNECT_PASSWORD_FILE`, or a prompt on a terminal; never from argv).
struct SessionContext {
    let profile: String
    let store: SessionStore
    let session: Session
    let client: HTTPClient
    /// Signs in again on 401: a password sign-in for a cookie session, a new token for a token session.
    let renewal: ProfileRenewal
    /// For a token session: the bearer token of every request, renewed shortly before it expires.
    var tokens: TokenRenewal? { renewal.tokens }
    /// For a session that signs in with HTTP Basic on every request (`--flow basic`, or `auto` on a site that asked
    /// for it): the user name and the password from the renewal sources (nil for every other session).
    var httpAuthentication: Authentication? = nil

    /// The options every command that uses a session understands.
    static let options: [OptionSpec] = [profileOption] + connectionOptions

    /// Opens the profile named by `--profile` (default `default`).
    static func open(_ arguments: ParsedArguments) throws -> SessionContext {
        let profile = arguments.value(.profile) ?? "default"
        let store = SessionStore()
        guard let session = try store.load(profile: profile) else {
            throw SessionMissing(
                description: "no session for profile '\(profile)'. Run 'spconnect login --site URL --user NAME"
                    + (profile == "default" ? "" : " --profile \(profile)") + "' first")
        }
        var configuration = clientConfiguration(arguments)
        configuration.plainHTTP = .forSession(of: session.siteURL)
        // Every command of one profile (parallel jobs over many sites) paces by one budget and backs off together.
        configuration = ProfileThrottling.applied(to: configuration, store: store, profile: profile)
        let client = try HTTPClient(configuration: configuration)
        let oneTimeCode = session.tokens == nil ? try OneTimeCodeOptions.source(arguments) : nil
        let renewal = ProfileRenewal(
            client: client, session: session, store: store, profile: profile, recordSource: "spconnect renewal",
            password: { [session] in await renewalPassword(for: session) },
            oneTimeCode: oneTimeCode, onRenewed: ErrorOutput.remember(session:))
        RefusedRenewal.watch(renewal)
        if session.tokens != nil {
            ErrorOutput.remember(session: session)
            return SessionContext(profile: profile, store: store, session: session, client: client, renewal: renewal)
        }
        try session.install(into: client)
        ErrorOutput.remember(session: session)
        var context = SessionContext(
            profile: profile, store: store, session: session, client: client, renewal: renewal)
        switch session.requestAuthentication(password: { renewalPasswordWaiting(for: session) }) {
        case .cookies: break
        case .everyRequest(let authentication): context.httpAuthentication = authentication
        case .passwordNeeded:
            throw SessionMissing(
                description:
                    "profile '\(profile)' signs in with HTTP Basic on every request, so each command needs "
                    + "the password: set SPCONNECT_PASSWORD_FILE (a file only you can read) or SPCONNECT_PASSWORD, "
                    + "or run at a terminal to be asked")
        }
        return context
    }
}

/// The password for a renewal of `session`, from the one chain of sources every app uses (``PasswordChain``:
/// `SPCONNECT_PASSWORD`, `SPCONNECT_PASSWORD_FILE`, the login's command or `SPCONNECT_PASSWORD_COMMAND`, the
/// keyring, a prompt), remembered by ``ErrorOutput`` so no message can show it. Nil when there is none, said on
/// standard error with what to set.
func renewalPassword(for session: Session) async -> Secret? {
    renewalPasswordWaiting(for: session)
}

/// ``renewalPassword(for:)`` on the calling thread (a command runs, the keyring is asked, bounded by their limits).
func renewalPasswordWaiting(for session: Session) -> Secret? {
    let chain = PasswordChain(
        session: session, environment: ProcessInfo.processInfo.environment, terminal: isatty(STDIN_FILENO) == 1)
    let outcome = chain.password {
        printError("The session ended; signing in again.")
        return TerminalPrompt.secret("Password for \(session.user): ")
    }
    switch outcome {
    case .password(let secret, _):
        ErrorOutput.remember(secret)
        return secret
    case .failed(let source, let reason):
        printError("The session ended and \(source) gave no password to sign in again: \(reason).")
        return nil
    case .none:
        printError(
            "The session ended and no password source is available to sign in again: set SPCONNECT_PASSWORD, "
                + "SPCONNECT_PASSWORD_COMMAND or SPCONNECT_PASSWORD_FILE, or log in again with --password-command CMD "
                + "(for example 'pass show sp') or --save-password.")
        return nil
    }
}

/// No saved session for the profile: the user has to sign in first (exit code 11).
struct SessionMissing: Error, CustomStringConvertible {
    let description: String
}

/// The connection options of every command that talks to a server.
let connectionOptions: [OptionSpec] = [
    .flag(.insecure, "do not verify TLS certificates, for this run only"),
    .path(.cacert, "FILE", "trust the CA certificates in FILE"),
    timeoutOption,
    .value(
        .userAgent, "TEXT",
        "the User-Agent to send (default: SPCONNECT_USER_AGENT, else NONISV|SPConnect|spconnect/VERSION)"),
]

/// The `User-Agent` spconnect sends unless told otherwise: decorated the way SharePoint Online asks of scripted
/// clients (`NONISV|Company|App/version`), which it throttles less than undecorated traffic.
let defaultUserAgent = "NONISV|SPConnect|spconnect/\(version)"

/// The HTTP client settings the connection options give: TLS (`--insecure`, `--cacert`) and the `User-Agent`
/// (`--user-agent`, else `SPCONNECT_USER_AGENT`, else ``defaultUserAgent``; some Conditional Access rules only let
/// known platforms through).
func clientConfiguration(
    _ arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
) -> HTTPClient.Configuration {
    let agent = arguments.value(.userAgent) ?? environment["SPCONNECT_USER_AGENT"].flatMap { $0.isEmpty ? nil : $0 }
    // A sign-in's reads wait out throttling as the site commands' reads do (a 429 on the proof request is common
    // when a nightly job starts many sessions at once).
    let configuration = HTTPClient.Configuration(
        userAgent: agent ?? defaultUserAgent, caFile: arguments.value(.cacert),
        insecureSkipTLSVerification: arguments.has(.insecure), retry: SharePointSite.defaultReadRetry)
    return NetworkOptions.applied(arguments, to: configuration)
}
