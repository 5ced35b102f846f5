import AuthFlowCore
import Foundation
import JSON
public import Transport

/// Registers a new software passkey for an Entra user through Microsoft Graph's `fido2Methods` (beta and v1.0,
/// ../shared/docs/entra-passwordless.md §2.8, documented): `GET …/fido2Methods/creationOptions`, then the credential
/// made for them (origin `https://{rp.id}`: a Graph registration has no page), saved to its file, then
/// `POST …/fido2Methods`. The token is an app's with `UserAuthMethod-Passkey.ReadWrite.All` (least privileged) or
/// `UserAuthenticationMethod.ReadWrite.All`; the tenant's FIDO2 policy must allow self-service setup and must not
/// enforce attestation (the passkey's attestation is "none").
public struct EntraPasskeyRegistration: Sendable {
    /// Graph's root (`https://graph.microsoft.com`), without the version.
    public let graphURL: String
    /// The user: object id or user principal name.
    public let user: String
    /// Where the new passkey is saved (must not exist yet).
    public let file: PasskeyFile
    /// The passkey's name in the user's methods.
    public let displayName: String

    /// What a path segment keeps as it is (no `/`, so a user name cannot reach another path).
    private static let pathSegment = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))

    /// A registration for `user` at `graphURL`, saved to `file`.
    public init(
        graphURL: String = "https://graph.microsoft.com", user: String, file: PasskeyFile,
        displayName: String = "spconnect"
    ) {
        var root = graphURL
        while root.hasSuffix("/") { root.removeLast() }
        self.graphURL = root
        self.user = user
        self.file = file
        self.displayName = displayName
    }

    /// Goes through the registration with `client` and the Graph `token`; returns the saved passkey.
    public func run(client: HTTPClient, token: Secret) async throws(PasskeyRegistrationError) -> PasskeyCredential {
        let methods =
            graphURL + "/v1.0/users/" + (user.addingPercentEncoding(withAllowedCharacters: Self.pathSegment) ?? user)
            + "/authentication/fido2Methods"
        let offered = try await call(client, token, HTTPRequest(url: methods + "/creationOptions"))
        guard let options = PasskeyCreationOptions(json: offered) else {
            throw .noCeremony("Graph's creationOptions answer holds no WebAuthn creation options")
        }
        // A Graph registration has no page: the origin is the relying party's own (`https://login.microsoft.com`).
        let made = try PasskeyRegistration.makeAndKeep(
            options, originOf: "https://" + (options.relyingPartyID ?? "login.microsoft.com"), in: file)
        let response = made.response["response"]
        let body = JSONValue.object([
            ("displayName", .string(displayName)),
            (
                "publicKeyCredential",
                .object([
                    ("id", made.response["id"] ?? ""),
                    (
                        "response",
                        .object([
                            ("clientDataJSON", response?["clientDataJSON"] ?? ""),
                            ("attestationObject", response?["attestationObject"] ?? ""),
                        ])
                    ),
                    ("clientExtensionResults", .object([])),
                ])
            ),
        ])
        var post = HTTPRequest(method: "POST", url: methods, body: .bytes(Array(body.serialized().utf8)))
        post.headers.set("Content-Type", "application/json")
        do {
            _ = try await call(client, token, post)
        } catch .refused(let words, _) {
            throw .refused(words, fileRemoved: PasskeyRegistration.discard(file))
        } catch .transport(let error) {
            throw .unconfirmed(path: file.path, reason: "\(error)")
        } catch {
            throw error
        }
        return made.credential
    }

    /// One Graph call with the bearer token; its JSON answer, or Graph's own error words.
    private func call(_ client: HTTPClient, _ token: Secret, _ request: HTTPRequest)
        async throws(PasskeyRegistrationError) -> JSONValue
    {
        var request = request
        request.auth = .bearer(token)
        request.headers.set("Accept", "application/json")
        let response: HTTPResponse
        do {
            response = try await client.execute(request)
        } catch {
            throw .transport(error)
        }
        let json = try? JSONValue.parse(String(decoding: response.body, as: UTF8.self))
        guard (200...299).contains(response.status), let json else {
            let words = json?["error"]?["message"]?.stringValue ?? json?["error"]?["code"]?.stringValue ?? ""
            let said =
                "Graph answered HTTP \(response.status)" + (words.isEmpty ? "" : ": \(words)")
                + (response.status == 403
                    ? " (the app needs UserAuthMethod-Passkey.ReadWrite.All or "
                        + "UserAuthenticationMethod.ReadWrite.All, with admin consent)" : "")
            throw .refused(said, fileRemoved: nil)
        }
        return json
    }
}
