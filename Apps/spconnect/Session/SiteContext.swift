import AuthFlow
import CommandLineKit
import Foundation
import SharePoint
import Transport

/// A saved profile opened as a SharePoint site client: the session's cookies, and a renewer that signs in again
/// once when SharePoint says the session ended.
struct SiteContext {
    let session: SessionContext
    let site: SharePointSite

    /// `--odata`: the JSON flavour, one of ``ODataFlavor``'s cases.
    static let odataOption = OptionSpec.choice(
        .odata, "FLAVOR", of: ODataFlavor.self,
        "JSON flavour to ask for: \(OptionSpec.listed(ODataFlavor.self)) (default: nometadata; verbose: SharePoint 2013)"
    )

    /// Options of every command that talks to the site: the profile, TLS, and the output options.
    static let options: [OptionSpec] =
        SessionContext.options + outputOptions + [
            odataOption,
            .value(.site, "URL", "a site on the profile's host other than its own (list them: spconnect sites)"),
        ]

    static func open(_ arguments: ParsedArguments) throws -> SiteContext {
        try open(arguments, session: try SessionContext.open(arguments))
    }

    /// The site client over a session already opened.
    static func open(_ arguments: ParsedArguments, session: SessionContext) throws -> SiteContext {
        let flavor = try arguments.choice(.odata, as: ODataFlavor.self) ?? .noMetadata
        // The site client's own retry policies, with the attempts `--retries` asks for when it is given.
        let siteURL = try OtherSite.url(arguments.value(.site), profileSite: session.session.siteURL)
        let defaults = SharePointSite(client: session.client, siteURL: siteURL)
        let site = SharePointSite(
            client: session.client, siteURL: siteURL, flavor: flavor,
            authentication: session.httpAuthentication, reauthenticate: session.renewal.reauthenticate,
            readRetry: NetworkOptions.retryPolicy(defaults.readRetry, arguments),
            writeRetry: NetworkOptions.retryPolicy(defaults.writeRetry, arguments),
            authenticationProvider: session.tokens)
        return SiteContext(session: session, site: site)
    }
}

/// Runs a site command body, turning a `SharePointError` into its documented exit code and message.
func withSiteErrors(_ command: String, _ body: () async throws -> ExitCode) async throws -> ExitCode {
    do {
        return try await body()
    } catch let error as SharePointError {
        if [.authenticationRequired, .formsAuthRequired].contains(error.kind),
            let refused = await RefusedRenewal.report(command)
        {
            return refused
        }
        printError("spconnect \(command): \(error.description)")
        return exitCode(for: error)
    }
}

/// The exit code documented in docs/cli.md for each kind of SharePoint failure.
func exitCode(for error: SharePointError) -> ExitCode {
    // SPException -2130575257: "A file with the name … already exists" (sent as 400).
    if error.code == -2_130_575_257 { return .conflict }
    switch error.kind {
    case .listNotFound, .itemNotFound, .fileNotFound, .notFound: return .notFound
    case .preconditionFailed, .conflict, .alreadyExists: return .conflict
    case .throttled, .thresholdExceeded: return .throttled
    case .formsAuthRequired, .authenticationRequired: return .signInRequired
    case .accessDenied: return .accessDenied
    case .transport where [.plainHTTPRefused, .insecureRedirect].contains(error.kind.transportKind):
        return .policyRefused
    // Transport's `io`: the local file it read or wrote, not the network.
    case .transport where error.kind.transportKind == .io: return .failure
    case .transport: return .network
    case .badRequest, .flavorNotAccepted: return .httpError
    default: return .failure  // digestExpired, server, unexpectedResponse, localFile, and codes added later
    }
}

/// A positive item id from the command line.
func itemID(_ text: String) throws(UsageError) -> Int {
    guard let id = Int(text), id > 0 else {
        throw UsageError(description: "'\(text)' is not an item id (a whole number from 1)")
    }
    return id
}

/// Exactly `count` positionals, named in the error when they are not there.
func positionals(_ arguments: ParsedArguments, _ names: String...) throws(UsageError) -> [String] {
    guard arguments.positionals.count == names.count else {
        throw UsageError(
            description: "expected \(names.joined(separator: " ")), got \(arguments.positionals.count) argument(s)")
    }
    return arguments.positionals
}
