import AuthFlow
import CommandLineKit
import Foundation

/// `spconnect passkey register|show`: make a software passkey at a relying party's own registration page, in a
/// signed-in profile, and say what a passkey file holds (never its key).
let passkeyCommand = Command(
    name: "passkey",
    summary:
        "Register a software passkey at a site's own passkey page (signed in), or show what a passkey file is for.",
    synopsis: "register --page URL --passkey FILE [--name NAME] [--field NAME=VALUE]... | show --passkey FILE",
    options: [
        .value(.page, "URL", "register: the page where a person adds a passkey or security key"),
        .path(.passkey, "FILE", "the passkey file: register makes it (0600; never over an existing file)"),
        .value(.passkeyName, "NAME", "register: the passkey's name at the site (default: spconnect)"),
        .repeatable(.formField, "NAME=VALUE", "register: a value for one of the registration form's own fields"),
    ] + SessionContext.options,
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
            switch error {
            case .notSignedIn: return .signInRequired
            case .refused: return .invalidCredentials
            case .transport: return .network
            case .noCeremony, .passkey, .file: return .failure
            }
        }
    default:
        throw UsageError(description: "say what to do: 'passkey register --page URL --passkey FILE' or 'passkey show'")
    }
}
