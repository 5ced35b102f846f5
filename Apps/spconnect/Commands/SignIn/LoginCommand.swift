import AuthFlow
import CommandLineKit
import Foundation
import Keyring
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect login`: sign in the way a browser does and save the proven session.
let loginCommand = Command(
    name: "login",
    summary: "Sign in to a SharePoint site without a browser and save the session (a curl-readable cookie file).",
    synopsis:
        "(--site URL | --url URL) --user NAME [options] | --site URL --app-id ID (--certificate FILE | --device-code)",
    options: [
        .value(.site, "URL", "the site, e.g. https://contoso.sharepoint.com/sites/team"),
        .value(.url, "URL", "instead of --site: any web page behind single sign-on (SAML, WS-Fed, OIDC, forms)"),
        .value(.proofUrl, "URL", "with --url: the page that proves the session (default: --url)"),
        .value(.user, "NAME", "the sign-in name, e.g. alice@contoso.com"),
        .choice(.flow, "FLOW", of: SignInFlow.self, "with --site: " + SignInFlow.helpLines.joined(separator: "; ")),
        PasswordOptions.stdin, PasswordOptions.file, AccessPassOptions.stdin, AccessPassOptions.file,
        PasskeyOptions.option,
        .value(
            .passwordCommand, "CMD",
            "the password is the first output line of CMD (pass show sp, systemd-creds cat ...); kept for renewals"),
        SavedPassword.option,
        profileOption,
        .repeatable(
            .allowHost, "HOST[:PORT]",
            "also allow sending credentials to HOST (on port 443, or PORT); the form's own host and port always may"),
        PasswordOptions.allowHTTPLoopback,
    ] + connectionOptions + [
        .path(.trace, "FILE", "write one redacted JSON line per step to FILE"),
        .path(
            .dumpPages, "DIR",
            "save a redacted copy of the page where a sign-in stopped (unknown page, interrupt, loop)"),
        .flag(.staySignedIn, "answer 'Stay signed in?' with yes"),
        .flag(
            .skipRegistration,
            "Entra: put off a security-info registration the page still lets you skip (iRemainingDaysToSkipMfaRegistration)"
        ),
        mfaMethodOption,
        OneTimeCodeOptions.option, OneTimeCodeOptions.secretFileOption,
        .repeatable(
            .cookie, "PATTERN",
            "the cookie(s) that mean signed in, names or globs (_shibsession_*); default FedAuth (+ rtFa online), "
                + "with --url the cookies the page's host sets"),
        .value(.loginUrl, "URL", "legacy-spo only: the login service (default by cloud, login.microsoftonline.com)"),
    ] + TokenLogin.options,
    examples: [
        "spconnect login --site https://contoso.sharepoint.com/sites/team --user alice@contoso.com",
        "pass show sp | spconnect login --site https://contoso.sharepoint.com/sites/team --user alice@contoso.com --password-stdin --profile prod",
        "spconnect login --url https://wiki.example.edu/ --user alice --cookie '_shibsession_*'",
    ]
) { arguments in
    if arguments.has(.savePassword), arguments.value(.appId) != nil {
        throw UsageError(
            description: "--save-password is for password sign-ins; an app or device-code sign-in has none")
    }
    if let code = try await TokenLogin.runIfAsked(arguments) { return code }
    let webURL = arguments.value(.url)
    // An anonymous visit signs in as nobody: it needs no --user.
    let anonymous = arguments.value(.flow) == SignInFlow.anonymous.rawValue
    // A passkey names its own account (a username-less sign-in needs no --user).
    let passkey = try PasskeyOptions.read(arguments)
    guard let site = arguments.value(.site) ?? webURL,
        let user = arguments.value(.user) ?? (anonymous ? "" : passkey.map(\.credential.userName))
    else {
        throw UsageError(
            description: "--site URL (a SharePoint site) or --url URL (any web page), and --user NAME are required")
    }
    guard arguments.value(.site) == nil || webURL == nil else {
        throw UsageError(description: "give --site (SharePoint) or --url (any web page), not both")
    }
    guard arguments.value(.proofUrl) == nil || webURL != nil else {
        throw UsageError(description: "--proof-url goes with --url; a SharePoint site is proven by its current user")
    }
    let flow = try arguments.choice(.flow, as: SignInFlow.self) ?? .auto
    guard webURL == nil || flow == .auto || flow == .kerberos else {
        throw UsageError(
            description: "--url signs in the way the pages lead (--flow auto) or with a Kerberos ticket "
                + "(--flow kerberos); the other flows are for --site")
    }
    guard flow != .kerberos || KerberosCredentialCache.isPresent() else {
        throw UsageError(
            description: "--flow kerberos signs in with a Kerberos ticket, and there is no credential cache "
                + "(KRB5CCNAME, or /tmp/krb5cc_\(getuid())): run kinit, or unattended kinit -kt KEYTAB PRINCIPAL")
    }
    let secondFactor = try arguments.choice(.mfaMethod, as: SecondFactorMethod.self)
    let profile = arguments.value(.profile) ?? "default"
    let store = SessionStore()
    // Before the password is asked for and before any request: a sessions folder others may write (or a session
    // file that breaks the trust rules) would refuse the session after the password was sent, and a keyring that is
    // not there is said at once.
    try store.checkBeforeSignIn(profile: profile)
    try await SavedPassword.checkBeforeSignIn(arguments)
    // An anonymous visit, and a Kerberos one, need no password (and must not prompt for one); under auto, a user
    // with a Kerberos ticket and no password source signs in with the ticket alone (a job after kinit -kt).
    let ticketOnly = flow == .auto && !PasswordSource.isGiven(arguments) && KerberosCredentialCache.isPresent()
    // A Temporary Access Pass stands for the password: with one, a password is read only from a flag given for it.
    let accessPass = try AccessPassOptions.read(arguments)
    // A user's certificate (Entra CBA: --certificate with --user) stands for the password too.
    let userCertificate = try arguments.value(.certificate).map { path throws -> ClientCertificate in
        do throws(TokenError) {
            return try UserCertificateFiles.load(
                certificatePath: path, keyPath: arguments.value(.key),
                keyPasswordPath: arguments.value(.keyPasswordFile))
        } catch {
            throw UsageError(description: "--certificate: \(error.description)")
        }
    }
    let passOnly =
        (accessPass != nil || passkey != nil || userCertificate != nil) && !AccessPassOptions.hasPasswordFlag(arguments)
    let password =
        flow == .anonymous || flow == .kerberos || ticketOnly || passOnly
        ? Secret("") : try PasswordSource.read(arguments, user: user)
    var configuration = SignInConfiguration(
        siteURL: site, username: user, password: password, flow: flow,
        policy: SignInPolicy(
            allowedHosts: Set(arguments.all(.allowHost)), allowHTTPLoopback: arguments.has(.allowHttpLoopback)),
        staySignedIn: arguments.has(.staySignedIn), targetCookies: arguments.all(.cookie),
        loginURL: arguments.value(.loginUrl),
        target: webURL.map { .web(proofURL: arguments.value(.proofUrl) ?? $0) } ?? .sharePoint,
        secondFactorMethod: secondFactor)
    configuration.accessPass = accessPass
    configuration.passkey = passkey?.credential
    configuration.userCertificate = userCertificate
    configuration.skipsSecurityInfoRegistration = arguments.has(.skipRegistration)
    let client = try HTTPClient(configuration: clientConfiguration(arguments))
    let traceWriter = try traceFile(arguments)
    let collector = SignInTraceCollector()
    var signInOptions = SignIn.Options(
        trace: { step in
            traceWriter?.write(step)
            collector.add(step)
        }, dumpPagesDirectory: arguments.value(.dumpPages),
        deadline: try commandTimeout(arguments).map { .milliseconds(Int($0 * 1000)) } ?? .seconds(120),
        oneTimeCode: try OneTimeCodeOptions.source(arguments),
        notice: { printError("spconnect: " + $0) })
    signInOptions.passkeyFile = passkey?.file
    // An agent the user chose stays theirs, passkey or not (with a passkey the engine would present a browser's).
    if let agent = arguments.value(.userAgent) ?? ProcessInfo.processInfo.environment["SPCONNECT_USER_AGENT"],
        !agent.isEmpty
    {
        signInOptions.browser.userAgent = agent
    }
    let outcome = await SignIn(client: client, configuration: configuration, options: signInOptions).run()
    // The summary the status app shows (PROFILE.signin.json), kept whether the sign-in worked or not.
    var record = SignInRecord(outcome: outcome, trace: collector.steps, source: "spconnect login")
    if case .signedIn(var session) = outcome {
        session.renewalPasswordSource = arguments.value(.passwordCommand).map { .command($0) } ?? .unsaved
        let savingPassword = arguments.has(.savePassword)
        if savingPassword, await SavedPassword.store(password, for: session) {
            session.renewalPasswordSource = .keyring
        }
        do {
            try store.save(session, profile: profile)
        } catch {
            record.message += " The session could not be saved: \(error)"
            saveLastSignIn(record, store: store, profile: profile)
            throw error
        }
        saveLastSignIn(record, store: store, profile: profile)
        print("Signed in as \(session.displayName ?? user) at \(session.siteURL) (\(session.flow)).")
        print("Session saved for profile '\(profile)': \(try store.path(for: profile))")
        if session.renewalPasswordSource == .keyring {
            print("Password saved in the keyring for renewals ('spconnect logout' removes it).")
        } else if savingPassword {
            printError("spconnect login: signed in, but renewals will need another password source.")
            return .failure
        }
        return .ok
    }
    saveLastSignIn(record, store: store, profile: profile)
    printError("spconnect login: " + outcome.cliMessage)
    return exitCode(for: outcome)
}
