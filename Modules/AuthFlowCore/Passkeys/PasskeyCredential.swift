internal import Cryptography
internal import JSON
public import TransportValues

/// A software passkey: one WebAuthn credential, its P-256 private key and its signature counter. A value; what is
/// secret in it (the key) never shows in its description. ``fileContents()`` and ``init(fileContents:)`` are the
/// passkey file's format (a JSON object); where that file lives and who may read it is the caller's business.
public struct PasskeyCredential: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The relying party the credential belongs to (a domain: `example.com`).
    public let relyingPartyID: String
    /// The credential id the relying party knows it by.
    public let credentialID: [UInt8]
    /// The relying party's handle for the account.
    public let userHandle: [UInt8]
    /// The account's name, as the relying party gave it at registration (may be empty).
    public let userName: String
    /// The private key as PKCS#8 PEM: the secret.
    let privateKey: Secret
    /// How many assertions the credential has made; the next one carries this plus one.
    public internal(set) var signCount: UInt32

    init(
        relyingPartyID: String, credentialID: [UInt8], userHandle: [UInt8], userName: String, privateKey: Secret,
        signCount: UInt32
    ) {
        self.relyingPartyID = relyingPartyID
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.userName = userName
        self.privateKey = privateKey
        self.signCount = signCount
    }

    /// The file format's version; a file of another version is refused.
    static let fileVersion: Int64 = 1

    /// The credential as the passkey file holds it: secret bytes, for a file only the user can read.
    public func fileContents() -> [UInt8] {
        let object: JSONValue = .object([
            ("spconnectPasskey", .integer(Self.fileVersion)),
            ("rpId", .string(relyingPartyID)),
            ("credentialId", .string(Base64URL.encode(credentialID))),
            ("userHandle", .string(Base64URL.encode(userHandle))),
            ("userName", .string(userName)),
            ("signCount", .integer(Int64(signCount))),
            ("privateKey", .string(privateKey.revealedValue())),
        ])
        return Array(object.serialized(options: .prettyPrinted).utf8) + [0x0a]
    }

    /// Reads a passkey file's contents; throws ``PasskeyError/unreadableFile(_:)`` saying what is wrong (never
    /// quoting the file).
    public init(fileContents: [UInt8]) throws(PasskeyError) {
        guard let json = try? JSONValue.parse(String(decoding: fileContents, as: UTF8.self)) else {
            throw .unreadableFile("it is not JSON")
        }
        guard json["spconnectPasskey"]?.int64Value == Self.fileVersion else {
            throw .unreadableFile("it is not a version-\(Self.fileVersion) spconnect passkey file")
        }
        guard let rpID = json["rpId"]?.stringValue, !rpID.isEmpty,
            let credentialID = json["credentialId"]?.stringValue.flatMap(Base64URL.decode), !credentialID.isEmpty,
            let userHandle = json["userHandle"]?.stringValue.flatMap(Base64URL.decode),
            let count = json["signCount"]?.int64Value, let signCount = UInt32(exactly: count),
            let key = json["privateKey"]?.stringValue
        else { throw .unreadableFile("a member is missing or malformed (rpId, credentialId, userHandle, signCount)") }
        do {
            _ = try P256PrivateKey(pem: Array(key.utf8))
        } catch {
            throw .unreadableFile("its private key is not a P-256 key")
        }
        self.init(
            relyingPartyID: rpID, credentialID: credentialID, userHandle: userHandle,
            userName: json["userName"]?.stringValue ?? "", privateKey: Secret(key), signCount: signCount)
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The relying party, the account and the counter: `dump` and `Mirror` never reach the key.
    public var customMirror: Mirror {
        Mirror(self, children: ["relyingPartyID": relyingPartyID, "userName": userName, "signCount": signCount])
    }

    /// The relying party, the credential id's start and the counter; never the key.
    public var description: String {
        "PasskeyCredential(\(relyingPartyID), id \(Base64URL.encode(credentialID.prefix(6)))…, count \(signCount))"
    }
}
