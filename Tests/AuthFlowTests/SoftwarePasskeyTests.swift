import AuthFlow
import AuthFlowCore
import Cryptography
import Foundation
import JSON
import TestSupport
import Testing

/// The software passkey's WebAuthn arithmetic and its file's rules. The relying parties' own verification libraries
/// check the same credentials end to end in `LivePasskeyTests`; here each part is taken apart by hand.
@Suite struct SoftwarePasskeyTests {
    static let challenge = Base64URL.encode((0..<32).map { UInt8($0) })

    static func creation(rpID: String = "rp.example", algorithms: [Int64] = [-8, -7]) throws -> PasskeyCreationOptions {
        let json = try JSONValue.parse(
            """
            {"publicKey": {"challenge": "\(challenge)", "rp": {"id": "\(rpID)", "name": "RP"},
             "user": {"id": "dXNlci1oYW5kbGU", "name": "alice", "displayName": "Alice"},
             "pubKeyCredParams": [\(algorithms.map { "{\"type\": \"public-key\", \"alg\": \($0)}" }.joined(separator: ","))],
             "extensions": {"credProps": true}}}
            """)
        return try #require(PasskeyCreationOptions(json: json))
    }

    static func request(rpID: String? = "rp.example", allow: [[UInt8]] = []) throws -> PasskeyRequestOptions {
        let allowed = allow.map { "{\"type\": \"public-key\", \"id\": \"\(Base64URL.encode($0))\"}" }
        let rp = rpID.map { "\"rpId\": \"\($0)\"," } ?? ""
        let json = try JSONValue.parse(
            """
            {"challenge": "\(challenge)", \(rp) "allowCredentials": [\(allowed.joined(separator: ","))],
             "userVerification": "preferred"}
            """)
        return try #require(PasskeyRequestOptions(json: json))
    }

    static func bytes(_ value: JSONValue?) throws -> [UInt8] {
        try #require(value?.stringValue.flatMap(Base64URL.decode))
    }

    @Test func registrationAndAssertionsCheckOutByHand() throws {
        let origin = try PasskeyOrigin(pageURL: "https://login.rp.example:8443/accounts/passkeys/add?next=%2F")
        #expect(origin.description == "https://login.rp.example:8443")
        let (credential, registration) = try SoftwareAuthenticator.register(
            options: try Self.creation(), origin: origin)
        #expect(credential.relyingPartyID == "rp.example")
        #expect(credential.userHandle == Array("user-handle".utf8))
        #expect(credential.signCount == 0)
        #expect(registration["type"]?.stringValue == "public-key")
        #expect(registration["clientExtensionResults"]?["credProps"]?["rk"]?.boolValue == true)
        let created = try JSONValue.parse(
            String(decoding: try Self.bytes(registration["response"]?["clientDataJSON"]), as: UTF8.self))
        #expect(created["type"]?.stringValue == "webauthn.create")
        #expect(created["origin"]?.stringValue == "https://login.rp.example:8443")
        #expect(created["challenge"]?.stringValue == Self.challenge)
        // Attested credential data: rpIdHash, flags UP|UV|AT, counter 0, AAGUID, id length, id, then the COSE key.
        let data = try Self.bytes(registration["response"]?["authenticatorData"])
        #expect(Array(data[0..<32]) == MessageDigest.hash(.sha256, Array("rp.example".utf8)))
        #expect(data[32] == 0x45)
        #expect(Array(data[33..<37]) == [0, 0, 0, 0])
        #expect(Int(data[53]) << 8 | Int(data[54]) == credential.credentialID.count)
        #expect(Array(data[55..<(55 + credential.credentialID.count)]) == credential.credentialID)
        let attestation = try Self.bytes(registration["response"]?["attestationObject"])
        // {"fmt": "none", "attStmt": {}, "authData": <data>}, as CBOR.
        #expect(
            Array(attestation.prefix(19)) == [0xa3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8)
                + [0x67] + Array("attStmt".utf8) + [0xa0])
        #expect(Array(attestation.suffix(data.count)) == data)
        let spki = try Self.bytes(registration["response"]?["publicKey"])
        let publicKey = try P256PublicKey(point: Array(spki.suffix(65)))
        // The COSE key's x and y are the public point's.
        #expect(data.suffix(64 + 3).prefix(32) == spki.suffix(64).prefix(32)[...])

        var current = credential
        for expected in 1...2 {
            let (assertion, used) = try SoftwareAuthenticator.assert(
                current, options: try Self.request(), origin: origin)
            #expect(used.signCount == UInt32(expected))
            let authenticatorData = try Self.bytes(assertion["response"]?["authenticatorData"])
            let clientData = try Self.bytes(assertion["response"]?["clientDataJSON"])
            let signature = try Self.bytes(assertion["response"]?["signature"])
            #expect(authenticatorData.count == 37)
            #expect(authenticatorData[32] == 0x05)
            #expect(Array(authenticatorData[33..<37]) == [0, 0, 0, UInt8(expected)])
            #expect(publicKey.verify(signature, of: authenticatorData + MessageDigest.hash(.sha256, clientData)))
            #expect(!publicKey.verify(signature, of: authenticatorData + MessageDigest.hash(.sha256, clientData + [0])))
            let got = try JSONValue.parse(String(decoding: clientData, as: UTF8.self))
            #expect(got["type"]?.stringValue == "webauthn.get")
            #expect(got["origin"]?.stringValue == "https://login.rp.example:8443")
            #expect(try Self.bytes(assertion["response"]?["userHandle"]) == credential.userHandle)
            #expect(try Self.bytes(assertion["rawId"]) == credential.credentialID)
            current = used
        }
        // No rpId in the options: the origin's host, which is not the passkey's relying party here.
        #expect(throws: PasskeyError.otherRelyingParty(passkey: "rp.example", page: "login.rp.example")) {
            try SoftwareAuthenticator.assert(current, options: try Self.request(rpID: nil), origin: origin)
        }
    }

    @Test func anotherOriginGetsNoAssertion() throws {
        let home = try PasskeyOrigin(pageURL: "https://rp.example/")
        let (credential, _) = try SoftwareAuthenticator.register(options: try Self.creation(), origin: home)
        // A look-alike site asking for the real relying party's id: not its own domain.
        let phishing = try PasskeyOrigin(pageURL: "https://rp.example.evil.test/login")
        #expect(throws: PasskeyError.relyingPartyNotForOrigin(relyingParty: "rp.example", origin: phishing.description))
        {
            try SoftwareAuthenticator.assert(credential, options: try Self.request(), origin: phishing)
        }
        // A site asking for its own id with a passkey of another.
        let other = try PasskeyOrigin(pageURL: "https://other.test/")
        #expect(throws: PasskeyError.otherRelyingParty(passkey: "rp.example", page: "other.test")) {
            try SoftwareAuthenticator.assert(credential, options: try Self.request(rpID: "other.test"), origin: other)
        }
        // A top-level domain is never a relying party id.
        #expect(throws: PasskeyError.relyingPartyNotForOrigin(relyingParty: "example", origin: home.description)) {
            try SoftwareAuthenticator.assert(credential, options: try Self.request(rpID: "example"), origin: home)
        }
        #expect(throws: PasskeyError.insecureOrigin("http://rp.example")) {
            try PasskeyOrigin(pageURL: "http://rp.example/login")
        }
        #expect(
            try PasskeyOrigin(pageURL: "http://localhost:8000/login", allowsHTTPLoopback: true).description
                == "http://localhost:8000")
        // Plain http on loopback only when the policy allows it, and a name that merely starts with 127. is no address.
        #expect(throws: PasskeyError.self) { try PasskeyOrigin(pageURL: "http://localhost:8000/login") }
        #expect(throws: PasskeyError.self) {
            try PasskeyOrigin(pageURL: "http://127.0.0.1.evil.test/", allowsHTTPLoopback: true)
        }
        // An address is its own relying party only.
        let address = try PasskeyOrigin(pageURL: "https://10.0.0.1/")
        #expect(throws: PasskeyError.relyingPartyNotForOrigin(relyingParty: "0.0.1", origin: "https://10.0.0.1")) {
            try SoftwareAuthenticator.register(options: try Self.creation(rpID: "0.0.1"), origin: address)
        }
        #expect(throws: PasskeyError.notAllowed(relyingParty: "rp.example")) {
            try SoftwareAuthenticator.assert(credential, options: try Self.request(allow: [[1, 2, 3]]), origin: home)
        }
        #expect(throws: Never.self) {
            try SoftwareAuthenticator.assert(
                credential, options: try Self.request(allow: [[1, 2, 3], credential.credentialID]), origin: home)
        }
        #expect(throws: PasskeyError.noSupportedAlgorithm([-257])) {
            try SoftwareAuthenticator.register(options: try Self.creation(algorithms: [-257]), origin: home)
        }
    }

    @Test func optionsOfTheOtherCeremonyAreNotTaken() throws {
        let creation = try JSONValue.parse(
            #"{"challenge": "\#(Self.challenge)", "user": {"id": "dQ", "name": "a"}, "pubKeyCredParams": []}"#)
        #expect(PasskeyRequestOptions(json: creation) == nil)
        #expect(PasskeyCreationOptions(json: creation) != nil)
        #expect(PasskeyRequestOptions(json: try JSONValue.parse(#"{"challenge": "c2hvcnQ"}"#)) == nil)
        #expect(PasskeyRequestOptions(json: try JSONValue.parse(#"{"challenge": 5}"#)) == nil)
    }

    @Test func theFileIsPrivateAtomicAndKeepsTheCounter() throws {
        let folder = try temporaryDirectory("passkey")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let origin = try PasskeyOrigin(pageURL: "https://rp.example/")
        let (credential, _) = try SoftwareAuthenticator.register(options: try Self.creation(), origin: origin)
        let file = PasskeyFile(path: folder + "/alice.passkey")
        #expect(throws: PasskeyFileError.missing(path: file.path)) { try file.load() }
        try file.save(credential, replacing: false)
        #expect(throws: PasskeyFileError.exists(path: file.path)) { try file.save(credential, replacing: false) }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try file.load() == credential)
        let (_, used) = try SoftwareAuthenticator.assert(credential, options: try Self.request(), origin: origin)
        try file.save(used)
        #expect(try file.load().signCount == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["alice.passkey"])
        // The key is in the file, and never in what the credential or its errors say.
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file.path)), as: UTF8.self)
        #expect(text.contains("BEGIN PRIVATE KEY"))
        let keyLine = try #require(text.split(separator: "\n").dropFirst().first.map(String.init))
        #expect(!credential.description.contains(keyLine) && !credential.description.contains("PRIVATE"))

        chmod(file.path, 0o644)
        #expect(throws: PasskeyFileError.self) { try file.load() }
        do {
            _ = try file.load()
        } catch {
            #expect(error.description.contains("chmod 600"))
            #expect(!error.description.contains(keyLine))
        }
        chmod(file.path, 0o600)
        let link = folder + "/link.passkey"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file.path)
        #expect(throws: PasskeyFileError.self) { try PasskeyFile(path: link).load() }
        #expect(throws: PasskeyFileError.self) { try PasskeyFile(path: link).save(used) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == file.path)
        try Data("{\"spconnectPasskey\": 1}".utf8).write(to: URL(fileURLWithPath: folder + "/bad.passkey"))
        chmod(folder + "/bad.passkey", 0o600)
        #expect(throws: PasskeyFileError.self) { try PasskeyFile(path: folder + "/bad.passkey").load() }
    }
}
