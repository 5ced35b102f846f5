internal import Cryptography
import Foundation
public import JSON

/// What a relying party asks of an authenticator when it wants an assertion: WebAuthn's
/// `PublicKeyCredentialRequestOptions` in its JSON form (binary members as base64url, as
/// `PublicKeyCredential.parseRequestOptionsFromJSON` reads them). Read with or without the `{"publicKey": …}`
/// wrapper that `navigator.credentials.get` takes.
public struct PasskeyRequestOptions: Sendable, Equatable {
    /// The challenge to sign.
    public let challenge: [UInt8]
    /// The relying party's id; nil means the origin's host (WebAuthn's default).
    public let relyingPartyID: String?
    /// The credential ids the relying party accepts; empty asks for a discoverable credential (username-less).
    public let allowedCredentialIDs: [[UInt8]]

    /// Reads `json` (the options, or an object holding them under `publicKey`); nil when it is not request options:
    /// no base64url `challenge`, or members of creation options (`user`, `pubKeyCredParams`).
    public init?(json: JSONValue) {
        let options = json["publicKey"] ?? json
        guard options["user"] == nil, options["pubKeyCredParams"] == nil,
            let challenge = options["challenge"]?.stringValue.flatMap(WebAuthnBytes.decode), challenge.count >= 16
        else { return nil }
        self.challenge = challenge
        relyingPartyID = options["rpId"]?.stringValue
        allowedCredentialIDs = (options["allowCredentials"]?.arrayValue ?? []).compactMap {
            $0["id"]?.stringValue.flatMap(WebAuthnBytes.decode)
        }
    }
}

/// What a relying party asks of an authenticator when it registers a new credential: WebAuthn's
/// `PublicKeyCredentialCreationOptions` in its JSON form, with or without the `{"publicKey": …}` wrapper.
public struct PasskeyCreationOptions: Sendable, Equatable {
    /// The challenge to sign.
    public let challenge: [UInt8]
    /// The relying party's id; nil means the origin's host.
    public let relyingPartyID: String?
    /// The user handle the relying party gave the account.
    public let userHandle: [UInt8]
    /// The account's name, as the relying party shows it.
    public let userName: String
    /// The COSE algorithms the relying party accepts, in its order of preference.
    public let algorithms: [Int64]
    /// Whether the relying party asked for the `credProps` extension's answer.
    public let wantsCredentialProperties: Bool

    /// Reads `json` (the options, or an object holding them under `publicKey`); nil when it is not creation
    /// options: no base64url `challenge` or no `user.id`.
    public init?(json: JSONValue) {
        let options = json["publicKey"] ?? json
        guard let challenge = options["challenge"]?.stringValue.flatMap(WebAuthnBytes.decode), challenge.count >= 16,
            let user = options["user"], let handle = user["id"]?.stringValue.flatMap(WebAuthnBytes.decode),
            !handle.isEmpty
        else { return nil }
        self.challenge = challenge
        relyingPartyID = options["rp"]?["id"]?.stringValue
        userHandle = handle
        userName = user["name"]?.stringValue ?? ""
        algorithms = (options["pubKeyCredParams"]?.arrayValue ?? []).compactMap { $0["alg"]?.int64Value }
        wantsCredentialProperties = options["extensions"]?["credProps"]?.boolValue == true
    }
}

/// The bytes of a binary member of WebAuthn options as relying parties write them: base64url (the JSON form the
/// standard defines), or standard base64 that a page's script converts itself.
enum WebAuthnBytes {
    static func decode(_ text: String) -> [UInt8]? {
        if let bytes = Base64URL.decode(text) { return bytes }
        var standard = text
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { Array($0) }
    }
}
