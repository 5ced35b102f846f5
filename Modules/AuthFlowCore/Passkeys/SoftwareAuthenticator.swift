internal import Cryptography
public import JSON
import TransportValues

/// A WebAuthn authenticator in software (W3C WebAuthn Level 2, §6): makes ES256 credentials with attestation
/// "none" and signs assertions with them, for an origin it checks against the relying party id.
///
/// It verifies the user by possession: whoever can read the passkey file is the user, so assertions carry the UP
/// and UV flags. The credential is device-bound (no backup flags). Every assertion raises the signature counter by
/// one; the caller saves the raised counter before sending the assertion, so a failed send never reuses a count.
public enum SoftwareAuthenticator {
    /// COSE's ES256 (ECDSA with SHA-256 on P-256).
    static let es256: Int64 = -7
    /// Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data included.
    static let userPresent: UInt8 = 0x01
    static let userVerified: UInt8 = 0x04
    static let attestedCredentialData: UInt8 = 0x40

    /// A new credential for `options` at `origin`, and the `PublicKeyCredential` JSON (registration response, as
    /// `toJSON()` writes it) to give the relying party.
    public static func register(options: PasskeyCreationOptions, origin: PasskeyOrigin) throws(PasskeyError)
        -> (credential: PasskeyCredential, response: JSONValue)
    {
        let relyingParty = try origin.relyingPartyID(asked: options.relyingPartyID)
        guard options.algorithms.isEmpty || options.algorithms.contains(es256) else {
            throw .noSupportedAlgorithm(options.algorithms)
        }
        let credentialID = randomBytes(32)
        do {
            let key = try P256PrivateKey()
            let point = try key.publicPoint()
            let publicKey: CBOR.Item = .map([
                (.integer(1), .integer(2)),  // kty: EC2
                (.integer(3), .integer(es256)),  // alg
                (.integer(-1), .integer(1)),  // crv: P-256
                (.integer(-2), .bytes(Array(point[1...32]))),
                (.integer(-3), .bytes(Array(point[33...64]))),
            ])
            let authenticatorData =
                MessageDigest.hash(.sha256, Array(relyingParty.utf8))
                + [userPresent | userVerified | attestedCredentialData] + CBOR.bigEndian(0, bytes: 4)
                + [UInt8](repeating: 0, count: 16)  // AAGUID: none, with attestation "none"
                + CBOR.bigEndian(UInt64(credentialID.count), bytes: 2) + credentialID + CBOR.encode(publicKey)
            let attestation = CBOR.encode(
                .map([
                    (.text("fmt"), .text("none")), (.text("attStmt"), .map([])),
                    (.text("authData"), .bytes(authenticatorData)),
                ]))
            let clientData = clientDataJSON(type: "webauthn.create", challenge: options.challenge, origin: origin)
            let credential = PasskeyCredential(
                relyingPartyID: relyingParty, credentialID: credentialID, userHandle: options.userHandle,
                userName: options.userName,
                privateKey: Secret(String(decoding: try key.pkcs8PEM(), as: UTF8.self)), signCount: 0)
            var extensions: [(String, JSONValue)] = []
            if options.wantsCredentialProperties { extensions.append(("credProps", .object([("rk", true)]))) }
            let response: JSONValue = .object([
                ("clientDataJSON", .string(Base64URL.encode(clientData))),
                ("attestationObject", .string(Base64URL.encode(attestation))),
                ("authenticatorData", .string(Base64URL.encode(authenticatorData))),
                ("transports", .array(["internal"])),
                ("publicKeyAlgorithm", .integer(es256)),
                ("publicKey", .string(Base64URL.encode(try key.subjectPublicKeyInfo()))),
            ])
            return (credential, publicKeyCredential(id: credentialID, response: response, extensions: extensions))
        } catch {
            throw .key(error.description)
        }
    }

    /// The assertion `credential` gives for `options` at `origin` (the `PublicKeyCredential` JSON, authentication
    /// response), and the credential with its counter raised: save it before sending the assertion.
    public static func assert(
        _ credential: PasskeyCredential, options: PasskeyRequestOptions, origin: PasskeyOrigin
    ) throws(PasskeyError) -> (response: JSONValue, used: PasskeyCredential) {
        let relyingParty = try origin.relyingPartyID(asked: options.relyingPartyID)
        guard relyingParty == credential.relyingPartyID.lowercased() else {
            throw .otherRelyingParty(passkey: credential.relyingPartyID, page: relyingParty)
        }
        guard options.allowedCredentialIDs.isEmpty || options.allowedCredentialIDs.contains(credential.credentialID)
        else { throw .notAllowed(relyingParty: relyingParty) }
        guard credential.signCount < UInt32.max else {
            throw .key("its signature counter is used up; register a new passkey")
        }
        var used = credential
        used.signCount += 1
        let authenticatorData =
            MessageDigest.hash(.sha256, Array(relyingParty.utf8)) + [userPresent | userVerified]
            + CBOR.bigEndian(UInt64(used.signCount), bytes: 4)
        let clientData = clientDataJSON(type: "webauthn.get", challenge: options.challenge, origin: origin)
        let signature: [UInt8]
        do {
            let key = try P256PrivateKey(pem: Array(credential.privateKey.revealedValue().utf8))
            signature = try key.sign(authenticatorData + MessageDigest.hash(.sha256, clientData))
        } catch {
            throw .key(error.description)
        }
        let response: JSONValue = .object([
            ("clientDataJSON", .string(Base64URL.encode(clientData))),
            ("authenticatorData", .string(Base64URL.encode(authenticatorData))),
            ("signature", .string(Base64URL.encode(signature))),
            ("userHandle", .string(Base64URL.encode(credential.userHandle))),
        ])
        return (publicKeyCredential(id: credential.credentialID, response: response, extensions: []), used)
    }

    /// `CollectedClientData` (WebAuthn §5.8.1) in the member order browsers write.
    static func clientDataJSON(type: String, challenge: [UInt8], origin: PasskeyOrigin) -> [UInt8] {
        let object: JSONValue = .object([
            ("type", .string(type)), ("challenge", .string(Base64URL.encode(challenge))),
            ("origin", .string(origin.description)), ("crossOrigin", false),
        ])
        return Array(object.serialized().utf8)
    }

    private static func publicKeyCredential(id: [UInt8], response: JSONValue, extensions: [(String, JSONValue)])
        -> JSONValue
    {
        .object([
            ("id", .string(Base64URL.encode(id))), ("rawId", .string(Base64URL.encode(id))),
            ("type", "public-key"), ("authenticatorAttachment", "platform"), ("response", response),
            ("clientExtensionResults", .object(extensions)),
        ])
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
