import Cryptography
import Foundation
import HTTPServer

/// Microsoft Graph's passkey registration (`../shared/docs/entra-passwordless.md` §2.8, documented), on the identity
/// provider's host under `/graph/v1.0/…` and `/graph/beta/…` (Graph's own host is `graph.microsoft.com`):
/// `GET /users/{id | UPN}/authentication/fido2Methods/creationOptions` (beta also
/// `creationOptions(challengeTimeoutInMinutes=N)`), `POST /users/{id}/authentication/fido2Methods`, and the list,
/// read and delete of the user's `fido2AuthenticationMethod`s. Callers bring an access token of this tenant for
/// Graph with `UserAuthMethod-Passkey.ReadWrite.All` or `UserAuthenticationMethod.ReadWrite.All`.
extension SimulatorCore {
    /// Application (`roles`) or delegated (`scp`) permissions that may register and delete passkeys.
    static let passkeyWriteRoles: Set = [
        "UserAuthMethod-Passkey.ReadWrite.All", "UserAuthenticationMethod.ReadWrite.All",
    ]
    /// Those that may list them.
    static let passkeyReadRoles: Set =
        passkeyWriteRoles.union(["UserAuthMethod-Passkey.Read.All", "UserAuthenticationMethod.Read.All"])

    /// Graph's audiences: its URL and its application id.
    static let graphAudiences: Set = ["https://graph.microsoft.com", "00000003-0000-0000-c000-000000000000"]

    /// Everything below `/graph/`.
    func graphEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let segments = request.path.split(separator: "/").map(String.init)
        guard segments.count >= 2, ["v1.0", "beta"].contains(segments[1]) else {
            return graphError(400, "BadRequest", "Invalid version.")
        }
        let version = segments[1]
        guard segments.count >= 6, segments[2].lowercased() == "users",
            segments[4].lowercased() == "authentication", segments[5].lowercased() == "fido2methods"
        else {
            return graphError(
                400, "BadRequest", "Resource not found for the segment '\(segments.dropFirst(2).first ?? "")'.")
        }
        let rest = Array(segments.dropFirst(6))
        let writes =
            request.method != "GET"
            || rest.first.map { $0.lowercased().hasPrefix("creationoptions") } == true
        if let refusal = graphPermissionRefusal(
            request, allowed: writes ? Self.passkeyWriteRoles : Self.passkeyReadRoles)
        {
            return refusal
        }
        guard let user = graphUser(segments[3]) else {
            return graphError(
                404, "Request_ResourceNotFound",
                "Resource '\(segments[3])' does not exist or one of its queried reference-property objects are not present."
            )
        }
        switch (request.method, rest.count) {
        case ("GET", 0): return graphFido2Methods(user: user, version: version)
        case ("POST", 0): return graphRegisterFido2Method(request, user: user, version: version)
        case ("GET", 1) where rest[0].lowercased().hasPrefix("creationoptions"):
            return graphCreationOptions(rest[0], user: user, version: version)
        case ("GET", 1), ("DELETE", 1): return graphFido2Method(request, id: rest[0], user: user, version: version)
        default:
            return graphError(405, "Request_BadRequest", "The request method is not supported for this resource.")
        }
    }

    // MARK: Authorization

    /// Nil when the bearer token is this tenant's, for Graph, alive, and holds one of `allowed`; else Graph's 401 or
    /// 403.
    func graphPermissionRefusal(_ request: HTTPServerRequest, allowed: Set<String>) -> HTTPServerResponse? {
        guard let token = bearerToken(request), !token.isEmpty else {
            return graphError(401, "InvalidAuthenticationToken", "Access token is empty.")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let payloadBytes = Base64URL.decode(parts[1]),
            let claims = (try? JSONSerialization.jsonObject(with: Data(payloadBytes))) as? [String: Any],
            state.withLock({ $0.entra.signingKeyPEM != nil }), let key = try? signingKey().publicKey(),
            let signature = Base64URL.decode(parts[2]),
            key.verify(signature, of: Array("\(parts[0]).\(parts[1])".utf8), algorithm: .rs256),
            (claims["iss"] as? String) == "https://sts.windows.net/\(tenantId)/"
        else {
            return graphError(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid signature.")
        }
        guard Self.graphAudiences.contains((claims["aud"] as? String ?? "").lowercased()) else {
            return graphError(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.")
        }
        let expires = (claims["exp"] as? NSNumber)?.intValue ?? 0
        let revoked = state.withLock { $0.entra.revokedTokenIds.contains(claims["uti"] as? String ?? "") }
        guard expires > nowEpoch(), !revoked else {
            return graphError(401, "InvalidAuthenticationToken", "Lifetime validation failed, the token is expired.")
        }
        let granted =
            (claims["roles"] as? [String] ?? [])
            + (claims["scp"] as? String ?? "").split(separator: " ").map(String.init)
        guard !allowed.isDisjoint(with: granted) else {
            return graphError(403, "accessDenied", "Request Authorization failed")
        }
        return nil
    }

    /// The user named by object id or user principal name.
    func graphUser(_ name: String) -> Int? {
        let wanted = (name.removingPercentEncoding ?? name).lowercased()
        return users.indices.first { users[$0].email.lowercased() == wanted || userObjectId($0) == wanted }
    }

    // MARK: creationOptions

    /// `creationOptions` (v1.0: a five-minute challenge) or, in beta, `creationOptions(challengeTimeoutInMinutes=N)`
    /// with N in 5…43200: `webauthnCredentialCreationOptions`.
    func graphCreationOptions(_ segment: String, user: Int, version: String) -> HTTPServerResponse {
        var minutes = 5
        if segment.lowercased() != "creationoptions" {
            let prefix = "creationoptions(challengetimeoutinminutes="
            guard version == "beta", segment.lowercased().hasPrefix(prefix), segment.hasSuffix(")") else {
                return graphError(400, "BadRequest", "Resource not found for the segment '\(segment)'.")
            }
            guard let asked = Int(segment.dropFirst(prefix.count).dropLast()), (5...43_200).contains(asked) else {
                return graphError(400, "badRequest", "challengeTimeoutInMinutes must be between 5 and 43200.")
            }
            minutes = asked
        }
        let challenge = Tokens.random(bytes: 32)
        let expires = nowEpoch() + minutes * 60
        state.withLock { $0.fido.creationChallenges[challenge] = (user, expires) }
        let person = users[user]
        let body = JSON.object([
            (
                "@odata.context",
                .string(
                    "https://graph.microsoft.com/\(version)/$metadata#microsoft.graph.webauthnCredentialCreationOptions"
                )
            ),
            ("challengeTimeoutDateTime", .string(CivilTime(expires).iso)),
            (
                "publicKey",
                .object([
                    ("challenge", .string(challenge)), ("timeout", .int(minutes * 60_000)),
                    ("attestation", .string("direct")),
                    ("rp", .object([("id", .string(fidoRelyingPartyID)), ("name", .string("Microsoft"))])),
                    (
                        "user",
                        .object([
                            ("id", .string(base64URL(entraUserHandle(user)))), ("name", .string(person.email)),
                            ("displayName", .string(person.displayName)),
                        ])
                    ),
                    ("pubKeyCredParams", .array([.object([("type", .string("public-key")), ("alg", .int(-7))])])),
                    (
                        "excludeCredentials",
                        .array(
                            fidoCredentials(of: user).map {
                                .object([
                                    ("id", .string(base64URL($0.idBytes))), ("type", .string("public-key")),
                                    ("transports", .array([])),
                                ])
                            })
                    ),
                    (
                        "authenticatorSelection",
                        .object([("requireResidentKey", .bool(true)), ("userVerification", .string("required"))])
                    ),
                ])
            ),
        ])
        return graphJSON(200, body)
    }

    // MARK: Registration

    /// `POST …/fido2Methods` with `{"displayName", "publicKeyCredential": {"id", "response": {"clientDataJSON",
    /// "attestationObject"}, "clientExtensionResults"}}`: the credential checked (a challenge this user was given,
    /// `webauthn.create`, the origin, the relying party, UP, UV and AT, an ES256 COSE key; `none` or `packed`
    /// attestation) and stored; `201` with the new `fido2AuthenticationMethod`.
    func graphRegisterFido2Method(_ request: HTTPServerRequest, user: Int, version: String) -> HTTPServerResponse {
        func refuse(_ message: String) -> HTTPServerResponse { graphError(400, "badRequest", message) }
        let body = parseJSONObject(request.body) ?? [:]
        guard let credential = body["publicKeyCredential"] as? [String: Any],
            let idText = credential["id"] as? String, let id = Base64URL.decode(idText), !id.isEmpty,
            let response = credential["response"] as? [String: Any],
            let clientData = (response["clientDataJSON"] as? String).flatMap(Base64URL.decode),
            let attestationBytes = (response["attestationObject"] as? String).flatMap(Base64URL.decode)
        else {
            return refuse(
                "publicKeyCredential with id, response.clientDataJSON and response.attestationObject is required.")
        }
        guard let collected = parseJSONObject(clientData), collected["type"] as? String == "webauthn.create" else {
            return refuse("The client data is not a WebAuthn registration's (webauthn.create).")
        }
        let challenge = collected["challenge"] as? String ?? ""
        let now = nowEpoch()
        let issued = state.withLock { state -> Bool in
            guard let issued = state.fido.creationChallenges[challenge], issued.user == user else { return false }
            state.fido.creationChallenges[challenge] = nil
            return issued.expires >= now
        }
        guard issued else { return refuse("The challenge was not issued for this user, was used, or has expired.") }
        let rpId = fidoRelyingPartyID
        let origins = options.fido.registrationOrigins ?? ["https://" + rpId]
        guard let origin = collected["origin"] as? String, origins.contains(origin) else {
            return refuse("The origin of the client data is not the relying party's.")
        }
        guard let attestation = CBORReader.whole(attestationBytes), let format = attestation["fmt"]?.textValue,
            let statement = attestation["attStmt"], let authenticatorData = attestation["authData"]?.bytesValue
        else { return refuse("The attestation object could not be read.") }
        guard authenticatorData.count >= 37,
            Array(authenticatorData[0..<32]) == MessageDigest.hash(.sha256, Array(rpId.utf8))
        else { return refuse("The authenticator data is not for the relying party '\(rpId)'.") }
        guard authenticatorData[32] & 0x45 == 0x45 else {
            return refuse("The authenticator data must have the UP, UV and AT flags set.")
        }
        guard let parsed = AttestedCredential(authenticatorData) else {
            return refuse("The attested credential data could not be read.")
        }
        guard parsed.credentialId == id else { return refuse("The credential id is not the attested credential's.") }
        guard let point = FidoCredentialProfile.ec2Point(parsed.publicKey) else {
            return refuse("Only ES256 keys on P-256 (COSE alg -7) are supported.")
        }
        let attested: Bool
        switch format {
        case "none":
            guard statement.mapMembers?.isEmpty == true else { return refuse("A none attestation has no statement.") }
            attested = false
        case "packed":
            guard statement["alg"]?.integerValue == -7, let signature = statement["sig"]?.bytesValue else {
                return refuse("The packed attestation statement is not ES256.")
            }
            if statement["x5c"] != nil {
                attested = true  // Accepted without checking the certificate chain (docs/simulator.md).
            } else {
                guard let key = try? P256PublicKey(point: point),
                    key.verify(signature, of: authenticatorData + MessageDigest.hash(.sha256, clientData))
                else { return refuse("The packed self attestation does not verify.") }
                attested = false
            }
        default:
            return refuse("The attestation format '\(format)' is not supported: only packed and none are.")
        }
        if options.fido.enforceAttestation && !attested {
            return graphError(
                400, "badRequest",
                "The FIDO2 security key policy enforces attestation: the key's attestation could not be verified.")
        }
        let profile = FidoCredentialProfile(
            credentialId: base64URL(id), publicKey: base64URL(point), userHandle: base64URL(entraUserHandle(user)),
            signCount: parsed.signCount, displayName: body["displayName"] as? String ?? "Passkey",
            aaGuid: Self.guidText(parsed.aaguid))
        let method = GraphFidoMethod(
            created: now, attested: attested, synced: parsed.flags & 0x08 != 0)
        // The check and the insert under one lock: two registrations of one credential at once make one.
        let provisioned = users.contains { $0.fido.contains { $0.idBytes == id } }
        let added = state.withLock { state -> Bool in
            guard !provisioned, state.fido.methods[base64URL(id)] == nil else { return false }
            state.fido.registered[user, default: []].append(profile)
            state.fido.methods[base64URL(id)] = method
            return true
        }
        guard added else { return graphError(409, "conflict", "The credential is already registered.") }
        var entity = fido2MethodJSON(profile)
        entity.insert(
            (
                "@odata.context",
                .string(
                    "https://graph.microsoft.com/\(version)/$metadata#users('\(userObjectId(user))')/authentication/fido2Methods/$entity"
                )
            ), at: 0)
        return graphJSON(201, .object(entity))
    }

    // MARK: Reading and deleting

    func graphFido2Methods(user: Int, version: String) -> HTTPServerResponse {
        graphJSON(
            200,
            .object([
                (
                    "@odata.context",
                    .string(
                        "https://graph.microsoft.com/\(version)/$metadata#users('\(userObjectId(user))')/authentication/fido2Methods"
                    )
                ),
                ("value", .array(fidoCredentials(of: user).map { .object(fido2MethodJSON($0)) })),
            ]))
    }

    /// `GET` or `DELETE …/fido2Methods/{id}` (the id is the credential id, base64url).
    func graphFido2Method(_ request: HTTPServerRequest, id: String, user: Int, version: String) -> HTTPServerResponse {
        guard let bytes = Base64URL.decode(id),
            let credential = fidoCredentials(of: user).first(where: { $0.idBytes == bytes })
        else {
            return graphError(404, "itemNotFound", "The requested authentication method was not found.")
        }
        guard request.method == "DELETE" else { return graphJSON(200, .object(fido2MethodJSON(credential))) }
        state.withLock { state in
            state.fido.registered[user]?.removeAll { $0.idBytes == bytes }
            state.fido.removed.insert(base64URL(bytes))
        }
        return HTTPServerResponse(status: 204, contentType: "text/plain", text: "")
    }

    /// A `fido2AuthenticationMethod`: `id` (the credential id, base64url), `displayName`, `createdDateTime`,
    /// `aaGuid`, `model`, `attestationCertificates`, `attestationLevel`, `passkeyType`.
    func fido2MethodJSON(_ credential: FidoCredentialProfile) -> [(String, JSON)] {
        let method = state.withLock { $0.fido.methods[base64URL(credential.idBytes)] }
        return [
            ("id", .string(base64URL(credential.idBytes))), ("displayName", .string(credential.displayName)),
            ("createdDateTime", .string(CivilTime(method?.created ?? SiteContent.baseEpoch).iso)),
            ("aaGuid", .string(credential.aaGuid)), ("model", .null), ("attestationCertificates", .array([])),
            ("attestationLevel", .string(method?.attested == true ? "attested" : "notAttested")),
            ("passkeyType", .string(method?.synced == true ? "synced" : "deviceBound")),
        ]
    }

    // MARK: Answers

    func graphJSON(_ status: Int, _ body: JSON) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status,
            contentType:
                "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8",
            text: body.serialized())
    }

    /// Graph's error body: `{"error": {"code", "message", "innerError": {"date", "request-id", "client-request-id"}}}`.
    func graphError(_ status: Int, _ code: String, _ message: String) -> HTTPServerResponse {
        let body = JSON.object([
            (
                "error",
                .object([
                    ("code", .string(code)), ("message", .string(message)),
                    (
                        "innerError",
                        .object([
                            ("date", .string(CivilTime(nowEpoch()).iso)), ("request-id", .string(Tokens.guid())),
                            ("client-request-id", .string(Tokens.guid())),
                        ])
                    ),
                ])
            )
        ])
        return HTTPServerResponse(status: status, contentType: "application/json", text: body.serialized())
    }

    /// 16 bytes as a GUID's text (in byte order, as AAGUIDs are written).
    static func guidText(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
        guard hex.count == 32 else { return "00000000-0000-0000-0000-000000000000" }
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}

/// What Graph keeps of a registration besides the credential.
struct GraphFidoMethod {
    var created: Int
    var attested: Bool
    var synced: Bool
}

/// Authenticator data with attested credential data (WebAuthn §6.5.1): the flags, the counter, the AAGUID, the
/// credential id and its COSE public key.
struct AttestedCredential {
    var flags: UInt8
    var signCount: UInt32
    var aaguid: [UInt8]
    var credentialId: [UInt8]
    var publicKey: CBORItem

    init?(_ data: [UInt8]) {
        guard data.count >= 55 else { return nil }
        flags = data[32]
        signCount = data[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        aaguid = Array(data[37..<53])
        let length = Int(data[53]) << 8 | Int(data[54])
        guard data.count >= 55 + length, let (key, _) = CBORReader.item(in: data, at: 55 + length) else { return nil }
        credentialId = Array(data[55..<55 + length])
        publicKey = key
    }
}
