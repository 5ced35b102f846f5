import HTML
public import JSON

/// How a form takes a WebAuthn credential back once a script has one, read from the names of its empty hidden
/// inputs: one field for the whole `PublicKeyCredential` as JSON (`credential`, `assertion`, `webauthn_response`…),
/// or one field per member (`clientDataJSON`, `authenticatorData`, `signature`, `userHandle`, `credentialId`).
package struct PasskeyReturnFields: Sendable {
    /// The return fields among a form's hidden inputs (name and value): those left for a script to fill, empty or
    /// JSON's `null`; nil when none takes a credential.
    package init?(hiddenFields: [(name: String, value: String)]) {
        self.init(emptyHiddenFields: hiddenFields.filter { $0.value.isEmpty || $0.value == "null" }.map(\.name))
    }

    /// What a field takes from the credential.
    enum Member: Sendable {
        /// The whole `PublicKeyCredential`, as JSON.
        case whole
        /// A member of its `response` (base64url).
        case response(String)
        /// Its raw id (base64url).
        case rawID
    }

    /// Each field and what it takes.
    private let fill: [(field: String, member: Member)]

    /// The return fields among `names` (a form's empty hidden inputs); nil when none takes a credential.
    init?(emptyHiddenFields names: [String]) {
        let members = names.compactMap { name in Self.member(named: name).map { (field: name, member: $0) } }
        // The separate fields: the client data and at least one more member (the authenticator's data or
        // attestation).
        if members.count >= 2, members.contains(where: { $0.field.lowercased().contains("clientdata") }) {
            fill = members
            return
        }
        guard let whole = names.first(where: Self.namesWholeCredential) else { return nil }
        fill = [(whole, .whole)]
    }

    /// The fields to set for `credential` (a `PublicKeyCredential` JSON, registration or assertion).
    package func values(for credential: JSONValue) -> [String: String] {
        var fields: [String: String] = [:]
        for (field, member) in fill where fields[field] == nil {
            switch member {
            case .whole: fields[field] = credential.serialized()
            case .response(let name): fields[field] = credential["response"]?[name]?.stringValue ?? ""
            case .rawID: fields[field] = credential["rawId"]?.stringValue ?? ""
            }
        }
        return fields
    }

    /// A field holding the whole credential: its name says credential, assertion or a passkey's name.
    private static func namesWholeCredential(_ name: String) -> Bool {
        SignInLexicon.says(.credentials, in: name) || SignInLexicon.says(.passkey, in: name)
            || name.lowercased().contains("assertion")
    }

    /// The credential member a field of that name takes (WebAuthn's own member names, case and separators aside).
    private static func member(named name: String) -> Member? {
        let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
        let response: [String: String] = [
            "clientdatajson": "clientDataJSON", "authenticatordata": "authenticatorData", "signature": "signature",
            "userhandle": "userHandle", "attestationobject": "attestationObject",
        ]
        if let member = response[key] { return .response(member) }
        if ["credentialid", "rawid", "keyhandle", "publickeycredentialid"].contains(key) { return .rawID }
        return nil
    }
}
