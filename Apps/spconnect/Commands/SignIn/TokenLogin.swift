import AppSupport
import AuthFlow
import CommandLineKit
import Cryptography
import Foundation
import SharePoint
import Transport

/// `spconnect login --site URL --app-id ID (--certificate FILE | --device-code)`: Entra ID bearer-token sign-in
/// (app-only with a certificate, or delegated through the device code flow), proven by reading the site, saved for
/// the profile (0600) with the tokens; renewals need nothing but the key file (app-only) or the refresh token.
enum TokenLogin {
    /// The options `login` takes for token sign-ins.
    static let options: [OptionSpec] = [
        .value(.appId, "ID", "Entra ID: the app (client) id; with --certificate (app-only) or --device-code"),
        .value(
            .tenant, "TENANT", "Entra ID: the tenant id or domain (default: read from the site's Bearer challenge)"),
        .path(
            .certificate, "FILE",
            "app-only: the app's PEM certificate; with --user: the user's, for Entra's certificate sign-in (CBA) "
                + "(the key may follow it in the file)"),
        .path(.key, "FILE", "the certificate's PEM private key (refused unless only you can read it, mode 0600)"),
        .path(.keyPasswordFile, "FILE", "app-only: the first line of FILE decrypts an encrypted key"),
        algorithmOption,
        .flag(.deviceCode, "delegated sign-in: print a code to enter at the sign-in page on any device"),
        .value(.authority, "URL", "Entra ID's host (default https://login.microsoftonline.com; other clouds, tests)"),
        .path(.clientSecretFile, "FILE", "refused: SharePoint rejects app-only tokens obtained with a secret"),
        .flag(.clientSecretStdin, "refused: SharePoint rejects app-only tokens obtained with a secret"),
    ]

    /// Runs a token sign-in when the arguments ask for one (`--app-id`, `--device-code`, `--certificate` or a client
    /// secret); nil otherwise, for the password sign-in.
    static func runIfAsked(_ arguments: ParsedArguments) async throws -> ExitCode? {
        // `--certificate` with `--user` and no app id is a user's certificate sign-in (Entra CBA), not app-only.
        let userCertificate = arguments.value(.user) != nil && arguments.value(.appId) == nil
        let asked =
            [OptionKey.appId, .clientSecretFile].contains { arguments.value($0) != nil }
            || (arguments.value(.certificate) != nil && !userCertificate)
            || arguments.has(.deviceCode) || arguments.has(.clientSecretStdin)
        guard asked else { return nil }
        if arguments.value(.clientSecretFile) != nil || arguments.has(.clientSecretStdin) {
            printError(
                "spconnect login: refusing a client secret: " + TokenError(.clientSecretRefused).description + ".")
            return .usage
        }
        guard let site = arguments.value(.site), let appId = arguments.value(.appId) else {
            throw UsageError(description: "--site URL and --app-id ID are required for an Entra ID token sign-in")
        }
        guard arguments.value(.user) == nil else {
            throw UsageError(description: "--user goes with a password sign-in; an app id signs in by itself")
        }
        let deviceCode = arguments.has(.deviceCode)
        guard deviceCode != (arguments.value(.certificate) != nil) else {
            throw UsageError(
                description: "give --certificate FILE (app-only) or --device-code (delegated), one of them")
        }
        let profile = arguments.value(.profile) ?? "default"
        let store = SessionStore()
        // Before a certificate's assertion or a device code goes anywhere: the session must be keepable.
        try store.checkBeforeSignIn(profile: profile)
        let policy = SignInPolicy(allowHTTPLoopback: arguments.has(.allowHttpLoopback))
        let authority = arguments.value(.authority) ?? EntraAuthority.publicCloud
        var configuration = clientConfiguration(arguments)
        let file = try traceFile(arguments)
        let steps = TokenSignInSteps()
        configuration.trace = { record in
            file?.write(record)
            steps.add(record)
        }
        // The summary `status` and the status app show (PROFILE.signin.json), kept whether it worked or not.
        func record(_ succeeded: Bool, _ message: String) {
            let summary = SignInRecord(
                at: Date(), succeeded: succeeded, message: message, steps: steps.all, source: "spconnect login")
            saveLastSignIn(summary, store: store, profile: profile)
        }
        let client = try HTTPClient(configuration: configuration)
        let credential = deviceCode ? nil : try credential(arguments)
        let session: Session
        do throws(TokenError) {
            if deviceCode {
                session = try await DeviceCodeSignIn(
                    client: client, siteURL: site, appId: appId, tenant: arguments.value(.tenant),
                    authorityHost: authority, policy: policy, prompt: showPrompt
                ).run()
            } else if let credential {
                session = try await AppOnlySignIn(
                    client: client, siteURL: site, appId: appId, tenant: arguments.value(.tenant),
                    authorityHost: authority, credential: credential, policy: policy
                ).run()
            } else {
                return .usage
            }
        } catch {
            record(false, error.description + ".")
            printError("spconnect login: " + error.description + ".")
            return tokenExitCode(for: error)
        }
        ErrorOutput.remember(session: session)
        // Proven by reading the site (an app has no current user); SharePoint says why it refuses a token.
        let renewal = TokenRenewal(client: client, session: session)
        let proof = SharePointSite(
            client: client, siteURL: site, reauthenticate: { try await renewal.reauthenticate() },
            authenticationProvider: renewal)
        do throws(SharePointError) {
            _ = try await proof.web()
        } catch {
            record(false, describe(error, session: session))
            printError("spconnect login: " + describe(error, session: session))
            return exitCode(for: error)
        }
        let proven = await renewal.current
        try store.save(proven, profile: profile)
        let who = proven.tokens?.kind == .appOnly ? "app \(appId)" : proven.user
        record(true, "Signed in as \(who) at \(proven.siteURL) (\(proven.flow)).")
        print("Signed in as \(who) at \(proven.siteURL) (\(proven.flow)).")
        print("Session saved for profile '\(profile)': \(try store.path(for: profile))")
        return .ok
    }

    /// `--algorithm`: how the client assertion is signed, one of ``SignatureAlgorithm``'s cases.
    static let algorithmOption = OptionSpec.choice(
        .algorithm, "ALG", of: SignatureAlgorithm.self,
        "app-only: \(OptionSpec.listed(SignatureAlgorithm.self)) for the client assertion (RS256, the default, names "
            + "the certificate by x5t; PS256 by x5t#S256)")

    /// The certificate credential of `--certificate`, `--key`, `--key-password-file`, `--algorithm`.
    static func credential(_ arguments: ParsedArguments) throws(UsageError) -> CertificateCredential {
        guard let certificate = arguments.value(.certificate) else {
            throw UsageError(description: "--certificate FILE is required for app-only sign-in")
        }
        let algorithm = try arguments.choice(.algorithm, as: SignatureAlgorithm.self) ?? .rs256
        return CertificateCredential(
            certificatePath: absolute(certificate), keyPath: arguments.value(.key).map(absolute),
            keyPasswordPath: arguments.value(.keyPasswordFile).map(absolute), algorithm: algorithm)
    }

    /// Paths are kept in the session for renewals from any folder.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The device code prompt, on standard error: the code, the address, Entra's own sentence.
    @Sendable static func showPrompt(_ prompt: DeviceCodeSignIn.Prompt) {
        printError(
            "To sign in, open \(prompt.verificationURI) and enter the code \(prompt.userCode) "
                + "(it expires in \(max(1, prompt.expiresIn / 60)) minutes).")
        if let message = prompt.message { printError(message) }
    }

    /// A SharePoint refusal of a token session, with what the token says it may do when access was denied.
    static func describe(_ error: SharePointError, session: Session) -> String {
        SessionSummary.tokenAccessAdvice(error, session: session).map {
            "SharePoint denied access: " + $0.prefix(1).lowercased() + $0.dropFirst() + " " + error.description
        } ?? error.description
    }

    /// The exit code documented in docs/cli.md for each way a token sign-in fails.
    static func tokenExitCode(for error: TokenError) -> ExitCode {
        switch error.reason {
        case .clientSecretRefused: .usage
        case .certificateNotRegistered, .appNotFound, .invalidSecret, .clockSkew, .declined: .invalidCredentials
        case .notPublicClient, .blockedByPolicy, .codeExpired: .interactionRequired
        case .refreshRejected: .signInRequired
        case .insecureAuthority: .policyRefused
        case .transport: .network
        default: .failure  // credentialFile, invalidScope, tenantNotDiscovered, refused, unexpectedResponse, new ones
        }
    }
}
