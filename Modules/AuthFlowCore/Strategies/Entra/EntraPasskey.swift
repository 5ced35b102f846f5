import Cryptography
import Foundation
import HTML
import JSON
import TransportValues

/// Entra's FIDO2 view answered with the sign-in's software passkey (../shared/docs/entra-passwordless.md §2,
/// observed): the converged page (or `ConvergedTFA`, as a second factor) names `urlFidoLogin`; the form its script
/// posts there answers with a page whose `$Config` carries `sFidoChallenge`; the assertion, signed for that page's
/// host as relying party and origin (`login.microsoft.com` at Microsoft) over the ASCII characters of the challenge,
/// goes to that page's `urlPost` with `type=23` as five flat base64url members.
enum EntraPasskey {
    /// Whether the sign-in answers `page`'s `$Config` with its passkey: it has one, and the page offers FIDO (on a
    /// `ConvergedTFA` page, as one of the account's proofs). As the first factor only when no password was given: a
    /// password and a passkey sign in with the password, then the passkey as the second factor.
    static func isOffered(on config: AADConfig, state: FlowState, secondFactor: Bool) -> Bool {
        guard state.configuration.passkey != nil, let address = config.text("urlFidoLogin"), !address.isEmpty else {
            return false
        }
        if secondFactor { return config.proofMethods.contains { $0.lowercased().contains("fido") } }
        // With a password too, the password goes first and the passkey answers the second factor.
        return config.text("fIsFidoSupported") != "false" && state.configuration.password.revealedValue().isEmpty
    }

    /// The post to `urlFidoLogin` the page's script makes (§2.2 step 3; `flow=mfa` as a second factor). It carries
    /// the user name and flow token, and no password.
    static func challengeRequest(page: PageFacts, config: AADConfig, state: FlowState, secondFactor: Bool)
        -> SignInRequest?
    {
        guard let address = config.text("urlFidoLogin") else { return nil }
        let flowToken = config.flowToken ?? ""
        let urlPost = config.text("urlPost").map { URLResolution.resolve($0, against: page.url) } ?? ""
        let allowList =
            (config.raw["arrFidoAllowList"]?.arrayValue ?? config.raw["oGetCredTypeResult"]?["Credentials"]?[
                "FidoParams"]?["AllowList"]?.arrayValue ?? []).compactMap(\.stringValue)
        let username =
            state.configuration.username.isEmpty
            ? (state.configuration.passkey?.userName ?? "") : state.configuration.username
        var fields: [(name: String, value: String)] = [
            ("allowedIdentities", config.text("iAllowedIdentities") ?? "2"), ("canary", flowToken),
            ("serverChallenge", flowToken), ("postBackUrl", urlPost),
            ("postBackUrlAad", config.text("urlPostAad") ?? urlPost),
            ("postBackUrlMsa", config.text("urlPostMsa") ?? ""),
            ("cancelUrl", config.text("urlRefresh") ?? config.text("urlLogin") ?? page.url),
            ("resumeUrl", config.text("urlResume") ?? ""),
            ("correlationId", config.text("correlationId") ?? ""),
            ("credentialsJson", secondFactor ? (allowList.first ?? "") : allowList.joined(separator: ",")),
            ("ctx", config.text("sCtx") ?? ""), ("username", username),
            ("loginCanary", config.text("canary") ?? ""),
        ]
        if secondFactor { fields.append(("flow", "mfa")) }
        // It carries the user name and flow token: the credential rules (Microsoft's sign-in hosts are one service).
        var request = SignInRequest(
            method: "POST", url: URLResolution.resolve(address, against: page.url), form: fields,
            purpose: secondFactor ? .secondFactor : .username, carriesCredentials: true)
        request.carriesPassword = false
        return request
    }

    /// The assertion for the FIDO page `page` (its `$Config` has `sFidoChallenge`), posted to its `urlPost`.
    static func assertion(on page: PageFacts, config: AADConfig, passkey: PasskeyCredential, policy: SignInPolicy)
        -> StrategyDecision?
    {
        guard let challenge = config.text("sFidoChallenge"), !challenge.isEmpty, let urlPost = config.text("urlPost")
        else { return nil }
        let origin: PasskeyOrigin
        let asserted: (response: JSONValue, used: PasskeyCredential)
        do {
            origin = try PasskeyOrigin(pageURL: page.url, allowsHTTPLoopback: policy.allowHTTPLoopback)
            let allowed = (config.raw["arrFidoAllowList"]?.arrayValue ?? []).compactMap(\.stringValue)
                .compactMap(standardBase64)
            // The challenge is signed as the characters Entra sent, not as base64 decoded.
            let options = JSONValue.object([
                ("challenge", .string(Base64URL.encode(Array(challenge.utf8)))), ("rpId", .string(origin.host)),
                ("allowCredentials", .array(allowed.map { .object([("type", "public-key"), ("id", .string($0))]) })),
            ])
            guard let request = PasskeyRequestOptions(json: options) else {
                return .finish(
                    .interactionRequired(
                        .passkey, pageId: config.pgid, message: "Entra's FIDO challenge is too short to sign"))
            }
            asserted = try SoftwareAuthenticator.assert(passkey, options: request, origin: origin)
        } catch let error as PasskeyError {
            return .finish(.interactionRequired(.passkey, pageId: config.pgid, message: error.description))
        } catch {
            return .finish(.interactionRequired(.passkey, pageId: config.pgid, message: "\(error)"))
        }
        let response = asserted.response["response"]
        let flat = JSONValue.object([
            ("id", asserted.response["rawId"] ?? ""),
            ("clientDataJSON", response?["clientDataJSON"] ?? ""),
            ("authenticatorData", response?["authenticatorData"] ?? ""),
            ("signature", response?["signature"] ?? ""), ("userHandle", response?["userHandle"] ?? ""),
        ])
        var fields: [(name: String, value: String)] = [("type", "23"), ("ps", "23"), ("assertion", flat.serialized())]
        if let canary = config.text("sCrossDomainCanary") { fields.append(("lmcCanary", canary)) }
        if let session = config.text("sessionId") { fields.append(("hpgrequestid", session)) }
        if let context = config.text("sCtx") { fields.append(("ctx", context)) }
        if let canary = config.text("canary") { fields.append(("canary", canary)) }
        if let flowToken = config.flowToken { fields.append((config.flowTokenName ?? "flowToken", flowToken)) }
        var request = SignInRequest(
            method: "POST", url: URLResolution.resolve(urlPost, against: page.url), form: fields,
            purpose: .secondFactor, carriesCredentials: true)
        request.carriesPassword = false
        request.passkeyUsed = asserted.used
        return .send(
            request, note: "answered Entra's FIDO view with the passkey for \(asserted.used.relyingPartyID) (type=23)")
    }

    /// A credential id Entra lists in standard base64 (`arrFidoAllowList`), as base64url.
    private static func standardBase64(_ text: String) -> String? {
        WebAuthnBytes.decode(text).map { Base64URL.encode($0) }
    }

    /// The outcome of a FIDO error code (§2.7), with what to do; nil for another code.
    static func refusal(code: String, message: String) -> SignInOutcome? {
        let words = message.isEmpty ? "Entra refused the passkey" : message
        switch code {
        case "500344":
            return .invalidCredentials(
                message: "\(words) (code 500344: Entra knows no passkey with this credential for the account; "
                    + "register it, or give the passkey registered there)", code: code)
        case "135016":
            return .interactionRequired(
                .passkey, pageId: nil,
                message: "\(words) (code 135016: the tenant's policy blocks FIDO2 security keys and passkeys; "
                    + "sign in another way, or ask the administrator)")
        case "135011":
            return .interactionRequired(
                .passkey, pageId: nil,
                message: "\(words) (code 135011: this passkey is disabled in Entra; ask the administrator, or "
                    + "register a new one)")
        default: return nil
        }
    }
}
