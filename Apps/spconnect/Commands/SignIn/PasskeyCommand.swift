import AuthFlow
import CommandLineKit
import Foundation
import Transport

/// `spconnect passkey register|show`: make a software passkey at a relying party's own registration page, in a
/// signed-in profile, and say what a passkey file holds (never its key).
let passkeyCommand = Command(
    name: "passkey",
    summary:
        "Register a software passkey at a site's own passkey page (signed in), or show what a passkey file is for.",
    synopsis:
        "register --page URL --passkey FILE [--name NAME] [--field NAME=VALUE]... | register --entra-user UPN "
        + "--site URL --app-id ID --certificate FILE [--key FILE] [--key-password-file FILE] [--algorithm ALG] "
        + "[--tenant TENANT] [--authority URL] [--graph URL] [--allow-http-loopback] --passkey FILE | show --passkey FILE",
    options: [
        .value(.page, "URL", "register: the page where a person adds a passkey or security key"),
        .path(.passkey, "FILE", "the passkey file: register makes it (0600; never over an existing file)"),
        .value(.passkeyName, "NAME", "register: the passkey's name at the site (default: spconnect)"),
        .repeatable(.formField, "NAME=VALUE", "register: a value for one of the registration form's own fields"),
        .value(
            .entraUser, "UPN",
            "register for this Entra user through Microsoft Graph (fido2Methods), with an app's certificate"),
        .value(.graph, "URL", "with --entra-user: Microsoft Graph's root (default https://graph.microsoft.com)"),
        .value(.site, "URL", "with --entra-user: a SharePoint site of the tenant (its tenant is read from it)"),
        PasswordOptions.allowHTTPLoopback,
    ] + SessionContext.options
        + TokenLogin.options.filter {
            [.appId, .tenant, .certificate, .key, .keyPasswordFile, .authority, .algorithm].contains($0.key)
        },
    examples: [
        "spconnect login --url https://rp.example/account/ --user alice --profile rp",
        "spconnect passkey register --profile rp --page https://rp.example/account/passkeys/add --passkey ~/.config/rp.passkey",
        "spconnect login --url https://rp.example/account/ --passkey ~/.config/rp.passkey --profile rp",
        "spconnect passkey show --passkey ~/.config/rp.passkey",
    ]
) { arguments in
    guard let path = arguments.value(.passkey) else {
        throw UsageError(description: "--passkey FILE is required")
    }
    let file = PasskeyFile(path: path)
    switch arguments.positionals {
    case ["show"]:
        let credential: PasskeyCredential
        do {
            credential = try file.load()
        } catch {
            throw UsageError(description: "--passkey: \(error)")
        }
        print("relying party: \(credential.relyingPartyID)")
        print("user: \(credential.userName.isEmpty ? "(not named)" : credential.userName)")
        print("signatures made: \(credential.signCount)")
        return .ok
    case ["register"] where arguments.value(.entraUser) != nil:
        return try await registerAtEntra(arguments, file: file)
    case ["register"]:
        guard let page = arguments.value(.page) else {
            throw UsageError(description: "passkey register needs --page URL (the site's page that adds a passkey)")
        }
        var fields: [String: String] = [:]
        for pair in arguments.all(.formField) {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError(description: "--field takes NAME=VALUE, got '\(pair)'")
            }
            fields[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let context = try SessionContext.open(arguments)
        let registration = PasskeyRegistration(
            pageURL: page, file: file, name: arguments.value(.passkeyName) ?? "spconnect", fields: fields)
        do throws(PasskeyRegistrationError) {
            let credential = try await registration.run(client: context.client) { printError("spconnect: " + $0) }
            print("Registered a passkey for \(credential.relyingPartyID) in \(file.path).")
            return .ok
        } catch {
            printError("spconnect passkey register: \(error)")
            return PasskeyExit.code(for: error)
        }
    default:
        throw UsageError(description: "say what to do: 'passkey register --page URL --passkey FILE' or 'passkey show'")
    }
}

/// `passkey register --entra-user UPN`: an app-only Graph token from the app's certificate, then Graph's
/// fido2Methods registration.
private func registerAtEntra(_ arguments: ParsedArguments, file: PasskeyFile) async throws -> ExitCode {
    guard let user = arguments.value(.entraUser), let appId = arguments.value(.appId),
        let site = arguments.value(.site)
    else {
        throw UsageError(
            description: "passkey register --entra-user UPN needs --site URL (the tenant's), --app-id ID and "
                + "--certificate FILE (an app with UserAuthMethod-Passkey.ReadWrite.All)")
    }
    let graphURL = arguments.value(.graph) ?? "https://graph.microsoft.com"
    let policy = SignInPolicy(allowHTTPLoopback: arguments.has(.allowHttpLoopback))
    do {
        // The app's token goes there: over https only (plain http to loopback when allowed).
        try policy.checkCredentialTransport(to: graphURL)
    } catch {
        throw UsageError(description: "--graph \(graphURL): \(error)")
    }
    let client = try HTTPClient(configuration: clientConfiguration(arguments))
    let signIn = AppOnlySignIn(
        client: client, siteURL: site, appId: appId, tenant: arguments.value(.tenant),
        authorityHost: arguments.value(.authority) ?? EntraAuthority.publicCloud,
        credential: try TokenLogin.credential(arguments),
        policy: policy)
    let token: Secret
    do throws(TokenError) {
        token = try await signIn.accessToken(scope: "https://graph.microsoft.com/.default")
    } catch {
        printError("spconnect passkey register: \(error.description).")
        return TokenLogin.tokenExitCode(for: error)
    }
    ErrorOutput.remember(token)
    let registration = EntraPasskeyRegistration(
        graphURL: graphURL, user: user, file: file,
        displayName: arguments.value(.passkeyName) ?? "spconnect")
    do throws(PasskeyRegistrationError) {
        let credential = try await registration.run(client: client, token: token)
        print("Registered a passkey for \(user) at \(credential.relyingPartyID) in \(file.path).")
        return .ok
    } catch {
        printError("spconnect passkey register: \(error)")
        return PasskeyExit.code(for: error)
    }
}

/// The exit code of a registration that did not end with a passkey.
enum PasskeyExit {
    static func code(for error: PasskeyRegistrationError) -> ExitCode {
        switch error {
        case .notSignedIn: .signInRequired
        case .refused: .invalidCredentials
        case .transport: .network
        case .noCeremony, .passkey, .file, .unconfirmed: .failure
        }
    }
}
