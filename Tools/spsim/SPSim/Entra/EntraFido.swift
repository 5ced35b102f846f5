import Cryptography
import Foundation
import HTTPServer

/// Entra's FIDO2/passkey sign-in (`../shared/docs/entra-passwordless.md` §2): the FIDO keys of the converged pages
/// for FIDO-capable user agents, `POST /{tenant}/fido/get` (served here on the identity provider's own host, where
/// Entra uses `login.microsoft.com`), and the assertion posted to `/login` (first factor, `type=23`) or to
/// `/SAS/ProcessAuth` (second factor), verified as WebAuthn §7.2 says.
extension SimulatorCore {
    // MARK: Pages

    /// The `$Config` keys Entra gives a FIDO-capable browser on `ConvergedSignIn` (observed), and for a flow started
    /// with `login_hint` the embedded `GetCredentialType` answer, with a challenge when the account has a credential.
    func fidoSignInConfig(_ flow: EntraFlow) -> [(String, JSON)] {
        var config: [(String, JSON)] = []
        if flow.fidoCapable {
            config += [
                ("fIsFidoSupported", .bool(true)), ("fIsPasskeySupportEnabled", .bool(true)),
                ("urlFidoLogin", .string(identityProviderURL + "/common/fido/get?uiflavor=Web")),
                ("urlPostAad", .string(identityProviderURL + "/\(tenantId)/login")),
                // There is no Microsoft account here: MSA's post goes to the tenant's too.
                ("urlPostMsa", .string(identityProviderURL + "/\(tenantId)/login")),
                ("urlResume", .string(resumeURL(flow))), ("urlRefresh", .string(resumeURL(flow))),
                ("iAllowedIdentities", .int(2)),
            ]
        }
        guard let hint = flow.loginHint else { return config }
        config.append(
            (
                "oGetCredTypeResult",
                credentialTypeResult(
                    username: hint, ctx: flow.ctx, accessPassSupported: true, fidoSupported: flow.fidoCapable,
                    flowToken: flow.flowToken)
            ))
        if flow.fidoCapable, let index = userIndex(login: hint), !fidoCredentials(of: index).isEmpty {
            let challenge = issueFidoChallenge(ctx: flow.ctx, crossDomainCanary: nil, secondFactor: false)
            config += [("sFidoChallenge", .string(challenge)), ("arrFidoAllowList", fidoAllowList(of: index))]
        }
        return config
    }

    /// `ConvergedTFA`'s FIDO keys (observed) for a user with a credential on a FIDO-capable agent; nil otherwise.
    func fidoSecondFactorConfig(_ flow: EntraFlow, _ index: Int) -> [(String, JSON)]? {
        guard flow.fidoCapable, !fidoCredentials(of: index).isEmpty else { return nil }
        return [
            ("urlFidoLogin", .string(identityProviderURL + "/common/fido/get?uiflavor=Web")),
            ("arrFidoAllowList", fidoAllowList(of: index)), ("iAllowedIdentities", .int(2)),
            ("fIsFidoSupported", .bool(true)), ("urlResume", .string(resumeURL(flow))),
        ]
    }

    /// The user's credential ids, standard base64 (as Entra's allow lists carry them).
    func fidoAllowList(of user: Int) -> JSON {
        .array(fidoCredentials(of: user).map { .string($0.standardBase64Id) })
    }

    func resumeURL(_ flow: EntraFlow) -> String {
        identityProviderURL + "/common/resume?ctx=" + percentEncode(flow.ctx)
    }

    /// `GET /{tenant}/resume?ctx=…` (`urlResume`, the FIDO page's cancel): the flow's page again.
    func entraResume(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let flow = state.withLock({ $0.flows[request.queryValue("ctx") ?? ""] }) else {
            return flowTokenExpired()
        }
        if flow.stage == "mfa", let user = flow.user { return secondFactorPage(flow, user) }
        guard flow.stage == "signin" else { return flowTokenExpired() }
        return signInPage(advance(flow, stage: "signin", user: nil))
    }

    func flowTokenExpired() -> HTTPServerResponse {
        entraError("50089", "AADSTS50089: Authentication failed due to flow token expired. Please sign in again.")
    }

    // MARK: fido/get

    /// `POST /{common|tenant}/fido/get?uiflavor=Web|Host` (form: `allowedIdentities`, `canary` and
    /// `serverChallenge` = the page's `sFT` or its `sFidoChallenge`, `postBackUrl…`, `cancelUrl`, `resumeUrl`,
    /// `correlationId`, `credentialsJson`, `ctx`, `username`, `loginCanary`, and `flow=mfa` for the second factor):
    /// a page whose `$Config` has a fresh `sFidoChallenge`, `arrFidoAllowList`, `sCrossDomainCanary`, `sFT`, `sCtx`,
    /// `canary` and the `urlPost` the assertion goes to.
    func entraFidoGet(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let secondFactor = request.formValue("flow")?.lowercased() == "mfa"
        let ctx = request.formValue("ctx") ?? ""
        guard let flow = state.withLock({ $0.flows[ctx] }), flow.stage == (secondFactor ? "mfa" : "signin"),
            fidoGetIsFromFlow(request, flow)
        else { return flowTokenExpired() }
        let username = request.formValue("username") ?? ""
        let allowList: JSON
        if secondFactor, let user = flow.user {
            allowList = fidoAllowList(of: user)
        } else if !username.isEmpty, let index = userIndex(login: username) {
            allowList = fidoAllowList(of: index)
        } else {
            // Username-less: the list the page sent, if any (a discoverable credential needs none).
            let given = (request.formValue("credentialsJson") ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            allowList = .array(given.filter { !$0.isEmpty }.map(JSON.string))
        }
        let next = advance(flow, stage: flow.stage, user: flow.user)
        let crossDomainCanary = Tokens.random(bytes: 48)
        let challenge = issueFidoChallenge(
            ctx: flow.ctx, crossDomainCanary: crossDomainCanary, secondFactor: secondFactor)
        let tenant = request.lowercasedSegments.first ?? "common"
        let urlPost =
            secondFactor ? identityProviderURL + "/common/SAS/ProcessAuth" : identityProviderURL + "/\(tenant)/login"
        var config = baseConfig(pgid: "ConvergedFido", flow: next, urlPost: urlPost, hpgid: 1104, hpgact: 1800)
        config += [
            ("sFidoChallenge", .string(challenge)), ("arrFidoAllowList", allowList),
            ("sCrossDomainCanary", .string(crossDomainCanary)), ("urlPostAad", .string(urlPost)),
            ("urlPostMsa", .string(urlPost)), ("iAllowedIdentities", .int(2)), ("fIsFidoSupported", .bool(true)),
            ("sPOST_Username", .string(secondFactor ? flow.user.map { users[$0].email } ?? "" : username)),
            ("urlResume", .string(resumeURL(next))), ("urlCancel", .string(resumeURL(next))),
        ]
        return html(200, convergedPage(pgid: "ConvergedFido", config: config))
    }

    /// Whether `fido/get` was asked by the page of `flow`: its `canary` or `serverChallenge` is the flow's token or a
    /// challenge its page gave, and `loginCanary`, when sent, is its canary.
    func fidoGetIsFromFlow(_ request: HTTPServerRequest, _ flow: EntraFlow) -> Bool {
        if let loginCanary = request.formValue("loginCanary"), !loginCanary.isEmpty, loginCanary != flow.canary {
            return false
        }
        let pageChallenges = state.withLock { state in
            Set(state.fido.challenges.filter { $0.value.ctx == flow.ctx && $0.value.crossDomainCanary == nil }.keys)
        }
        let sent = [
            request.formValue("canary"), request.formValue("serverChallenge"), request.formValue("ServerChallenge"),
        ]
        return sent.contains { value in value.map { $0 == flow.flowToken || pageChallenges.contains($0) } ?? false }
    }

    // MARK: The assertion

    /// `POST /{tenant}/login` with `type=23`, `ps=23`, `assertion` (compact JSON: `id`, `clientDataJSON`,
    /// `authenticatorData`, `signature`, `userHandle`), `lmcCanary`, `hpgrequestid`, `ctx`, `canary`, `flowToken`:
    /// a verified assertion signs the user in and goes on like a password would; with the user verified (UV) it is
    /// a multifactor sign-in, which satisfies MFA too (without UV, allowed only by ``FidoOptions/requireUserVerification``
    /// off, an `mfa` user still meets `ConvergedTFA`).
    func entraFidoLogin(_ request: HTTPServerRequest, flow: EntraFlow) -> HTTPServerResponse {
        switch verifyFidoAssertion(request, flow: flow, secondFactor: false) {
        case .refused(let page): return page
        case .accepted(let user, let verified): return afterPassword(flow, user, strongAuthentication: verified)
        }
    }

    /// The same post to `ConvergedTFA`'s `urlPost` (`/common/SAS/ProcessAuth`) after `fido/get` with `flow=mfa`:
    /// the user's own credential completes the second factor.
    func entraFidoSecondFactor(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let ctx = request.formValue("ctx") ?? request.formValue("request") ?? ""
        guard var flow = state.withLock({ $0.flows[ctx] }), flow.stage == "mfa", let user = flow.user,
            request.formValue("flowToken") == flow.flowToken, request.formValue("canary") == flow.canary
        else { return flowTokenExpired() }
        switch verifyFidoAssertion(request, flow: flow, secondFactor: true) {
        case .refused(let page): return page
        case .accepted:
            flow.secondFactor = SecondFactorExchange(method: "FidoKey", sessionId: Tokens.guid(), verified: true)
            state.withLock { $0.flows[flow.ctx] = flow }
            return afterSecondFactor(flow, user)
        }
    }

    enum FidoVerdict {
        /// The user, and whether the authenticator verified them (UV).
        case accepted(Int, userVerified: Bool)
        case refused(HTTPServerResponse)
    }

    /// The checks of WebAuthn §7.2 on the posted assertion, in Entra's order as far as it shows: a known credential
    /// (500344), the policy (135016), the device (135011), then the ceremony; a challenge is spent by the first
    /// assertion that names it, and the counter is stored only when everything holds.
    func verifyFidoAssertion(_ request: HTTPServerRequest, flow: EntraFlow, secondFactor: Bool) -> FidoVerdict {
        guard let text = request.formValue("assertion"), let assertion = parseJSONObject(Array(text.utf8)),
            let idText = assertion["id"] as? String, let id = Base64URL.decode(idText), !id.isEmpty,
            let clientData = (assertion["clientDataJSON"] as? String).flatMap(Base64URL.decode),
            let authenticatorData = (assertion["authenticatorData"] as? String).flatMap(Base64URL.decode),
            let signature = (assertion["signature"] as? String).flatMap(Base64URL.decode)
        else { return .refused(fidoRefusal("The security key's answer could not be read.", check: "format")) }
        guard let (user, credential) = fidoCredential(id: id) else {
            return .refused(
                fidoCodedError(
                    "500344",
                    "AADSTS500344: UserAccountNotFoundForFidoSignIn - No account in this directory has the security key or passkey that was used."
                ))
        }
        if secondFactor && flow.user != user {
            return .refused(fidoRefusal("The security key or passkey belongs to another account.", check: "user"))
        }
        if options.fido.blockedByPolicy {
            return .refused(
                fidoCodedError(
                    "135016",
                    "AADSTS135016: FidoBlockedByPolicy - Sign-in with a security key or passkey is blocked by your organization's authentication methods policy."
                ))
        }
        if credential.disabled {
            return .refused(
                fidoCodedError("135011", "AADSTS135011: Device used during the authentication is disabled."))
        }
        guard let collected = parseJSONObject(clientData), collected["type"] as? String == "webauthn.get" else {
            return .refused(fidoRefusal("The client data is not a WebAuthn assertion's.", check: "type"))
        }
        if let refusal = spendFidoChallenge(collected["challenge"] as? String ?? "", request, flow, secondFactor) {
            return .refused(refusal)
        }
        let origins = options.fido.signInOrigins ?? [identityProviderURL]
        guard let origin = collected["origin"] as? String, origins.contains(origin) else {
            return .refused(fidoRefusal("The assertion was made for another origin.", check: "origin"))
        }
        guard authenticatorData.count >= 37,
            Array(authenticatorData[0..<32]) == MessageDigest.hash(.sha256, Array(fidoRelyingPartyID.utf8))
        else { return .refused(fidoRefusal("The assertion was made for another relying party.", check: "rpid")) }
        let flags = authenticatorData[32]
        guard flags & 0x01 != 0 else {
            return .refused(fidoRefusal("The security key did not see the user (UP not set).", check: "up"))
        }
        guard flags & 0x04 != 0 || !options.fido.requireUserVerification else {
            return .refused(fidoRefusal("The security key did not verify the user (UV not set).", check: "uv"))
        }
        let message = authenticatorData + MessageDigest.hash(.sha256, clientData)
        guard let point = credential.point, let key = try? P256PublicKey(point: point),
            key.verify(signature, of: message)
        else { return .refused(fidoRefusal("The security key's signature does not verify.", check: "signature")) }
        if let handleText = assertion["userHandle"] as? String, !handleText.isEmpty, !credential.userHandle.isEmpty,
            Base64URL.decode(handleText) != Base64URL.decode(credential.userHandle)
        {
            return .refused(fidoRefusal("The user handle is not the credential's.", check: "userhandle"))
        }
        let count = authenticatorData[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let email = users[user].email.lowercased()
        let key64 = base64URL(id)
        let stored = credential.signCount
        let counted = state.withLock { state -> Bool in
            let current = state.fido.signCounts[key64] ?? stored
            guard count > current || (count == 0 && current == 0) else { return false }
            state.fido.signCounts[key64] = count
            state.fido.signIns[email, default: 0] += 1
            return true
        }
        guard counted else {
            return .refused(
                fidoRefusal(
                    "The signature counter did not rise: the security key may have been cloned.", check: "counter"))
        }
        return .accepted(user, userVerified: flags & 0x04 != 0)
    }

    /// Spends the challenge `encoded` (base64url of the ASCII text given out) when this flow was given it, for this
    /// factor, within its lifetime, with the cross-domain canary of its `fido/get`; nil when it was, else the
    /// generic refusal (a stale or foreign challenge).
    func spendFidoChallenge(_ encoded: String, _ request: HTTPServerRequest, _ flow: EntraFlow, _ secondFactor: Bool)
        -> HTTPServerResponse?
    {
        let text = Base64URL.decode(encoded).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let lmcCanary = request.formValue("lmcCanary") ?? ""
        let now = nowEpoch()
        let fido = options.fido
        let spent = state.withLock { state -> Bool in
            guard let issued = state.fido.challenges[text], issued.ctx == flow.ctx else { return false }
            state.fido.challenges[text] = nil
            guard issued.secondFactor == secondFactor, issued.expires >= now else { return false }
            if let canary = issued.crossDomainCanary {
                return !fido.requireCrossDomainCanary || canary == lmcCanary
            }
            guard fido.acceptsPageChallenge else { return false }
            return !fido.requireCrossDomainCanary || state.fido.answeredCanaries[flow.ctx]?.contains(lmcCanary) == true
        }
        return spent ? nil : fidoRefusal("The sign-in challenge is not valid for this session.", check: "challenge")
    }

    // MARK: Error pages

    /// Entra's generic "trouble signing in" page (`ConvergedError`, no AADSTS code unless
    /// ``FidoOptions/refusalCode`` sets one; observed for a challenge from another session). `sSPSimCheck` names
    /// the check that failed, for tests (Entra has no such key).
    func fidoRefusal(_ reason: String, check: String) -> HTTPServerResponse {
        var config: [(String, JSON)] = [
            ("pgid", .string("ConvergedError")),
            ("strMainMessage", .string("Sorry, but we\u{2019}re having trouble signing you in.")),
            ("strServiceExceptionMessage", .string(reason)), ("sSPSimCheck", .string(check)),
            ("correlationId", .string(Tokens.guid())),
        ]
        if let code = options.fido.refusalCode {
            config += [("sErrorCode", .string(code)), ("iErrorCode", .string(code))]
        }
        return html(200, convergedPage(pgid: "ConvergedError", config: config))
    }

    /// A `ConvergedError` page for an AADSTS code, in both observed shapes at once: `sErrorCode` and `sErrTxt`, and
    /// `iErrorCode` (a string-typed number) and `strServiceExceptionMessage`.
    func fidoCodedError(_ code: String, _ text: String) -> HTTPServerResponse {
        html(
            200,
            convergedPage(
                pgid: "ConvergedError",
                config: [
                    ("pgid", .string("ConvergedError")), ("sErrorCode", .string(code)), ("sErrTxt", .string(text)),
                    ("iErrorCode", .string(code)), ("strServiceExceptionMessage", .string(text)),
                    ("correlationId", .string(Tokens.guid())),
                ]))
    }
}
