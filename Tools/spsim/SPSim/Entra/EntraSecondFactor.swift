import Cryptography
import Foundation
import HTTPServer

/// How one simulated user's second factor behaves on Entra's `ConvergedTFA` page.
public struct SecondFactorProfile: Sendable, Equatable, Codable {
    /// What the phone does with a push (`PhoneAppNotification`).
    public enum PushAnswer: String, Sendable, Equatable, Codable {
        /// Approved after ``pendingPolls`` polls.
        case approve
        /// Denied after ``pendingPolls`` polls (`PhoneAppDenied`).
        case deny
        /// Never answered: the service gives up after ``SecondFactorProfile/unansweredPolls`` polls
        /// (`PhoneAppNoResponse`).
        case noAnswer = "no-answer"
    }

    /// The `authMethodId`s offered, in `arrUserProofs` order.
    public var methods: [String]
    /// The default method (`isDefault`); nil makes the first one the default.
    public var defaultMethod: String?
    /// The phone's answer to a push.
    public var push: PushAnswer
    /// Polls answered `AuthenticationPending` before the phone answers.
    public var pendingPolls: Int
    /// The number the sign-in page shows for number matching (`Entropy`); 0 for none.
    public var numberMatch: Int
    /// The user's TOTP secret (base32) for `PhoneAppOTP`; nil means no authenticator-app code is offered.
    public var totpSecret: String?
    /// Wrong codes accepted before the method is locked (`SMSAuthFailedMaxAllowedCodeRetryReached`).
    public var codeAttempts: Int

    /// Polls after which an unanswered push is given up (`PhoneAppNoResponse`).
    public static let unansweredPolls = 4

    /// The code an SMS or a voice call gives (the same for every user).
    public static let phoneCode = "123456"

    /// A profile: push (default) and SMS unless `methods` says otherwise; `PhoneAppOTP` added when a TOTP secret
    /// is given and `methods` does not list it.
    public init(
        methods: [String] = ["PhoneAppNotification", "OneWaySMS"], defaultMethod: String? = nil,
        push: PushAnswer = .approve, pendingPolls: Int = 2, numberMatch: Int = 0, totpSecret: String? = nil,
        codeAttempts: Int = 3
    ) {
        self.methods = totpSecret != nil && !methods.contains("PhoneAppOTP") ? methods + ["PhoneAppOTP"] : methods
        self.defaultMethod = defaultMethod
        self.push = push
        self.pendingPolls = pendingPolls
        self.numberMatch = numberMatch
        self.totpSecret = totpSecret
        self.codeAttempts = codeAttempts
    }
}

extension SecondFactorProfile {
    /// Whether `code` is the user's TOTP code within one 30 s step of now.
    func acceptsAppCode(_ code: String) -> Bool {
        guard let secret = totpSecret, let totp = try? TOTP(text: secret) else { return false }
        let now = Date()
        return [-30.0, 0, 30].contains { totp.code(at: now.addingTimeInterval($0)) == code }
    }
}

/// Entra's second-factor timing and its single-sign-on cookies.
public struct EntraSessionOptions: Sendable, Equatable {
    /// `oPerAuthPollingInterval` for push, in seconds (Entra's page says 1).
    public var pollIntervalSeconds: Double = 1
    /// How long `ESTSAUTHPERSISTENT` (after "Stay signed in? Yes") lets a browser in without a password, in seconds
    /// (Entra: up to 180 days).
    public var persistentLifetimeSeconds: Int = 90 * 86_400
    /// How long `ESTSAUTH` (a session cookie, "Stay signed in? No") lasts on the server's side, in seconds.
    public var sessionLifetimeSeconds: Int = 86_400

    /// The defaults.
    public init() {}
}

/// A second-factor exchange under way on one Entra flow.
struct SecondFactorExchange {
    var method: String
    var sessionId: String
    var polls = 0
    var wrongCodes = 0
    var verified = false
}

extension Simulator {
    /// How many password posts Entra accepted for `email` (every sign-in that was not silent).
    public func passwordSignIns(for email: String) -> Int {
        core.state.withLock { $0.passwordSignIns[email.lowercased()] ?? 0 }
    }

    /// Ends every Entra single-sign-on session (as a password change or an administrator's revocation does): the
    /// next sign-in is asked for the password again.
    public func revokeIdentityProviderSessions() {
        core.state.withLock { $0.idpSessions.removeAll() }
    }
}

/// `ConvergedTFA`: the second-factor page, `BeginAuth`, `EndAuth` (a code, or polls for a push) and `ProcessAuth`,
/// after Microsoft's shapes (docs/simulator.md); and the single-sign-on cookies Entra sets after KMSI.
extension SimulatorCore {
    /// The `ConvergedTFA` page after the right password of a user with `mfa`.
    func secondFactorPage(_ flow: EntraFlow, _ index: Int) -> HTTPServerResponse {
        let user = users[index]
        let profile = user.secondFactor
        let next = advance(flow, stage: "mfa", user: index)
        var config = baseConfig(
            pgid: "ConvergedTFA", flow: next, urlPost: "/common/SAS/ProcessAuth", hpgid: 1114, hpgact: 2202)
        // A FIDO credential is offered as `FidoKey` to a FIDO-capable agent (observed), with the keys of `fido/get`.
        let fido = fidoSecondFactorConfig(next, index)
        let methods =
            fido != nil && !profile.methods.contains("FidoKey") ? profile.methods + ["FidoKey"] : profile.methods
        let defaultMethod = profile.defaultMethod ?? methods.first
        config += fido ?? []
        config += [
            ("urlBeginAuth", .string(identityProviderURL + "/common/SAS/BeginAuth")),
            ("urlEndAuth", .string(identityProviderURL + "/common/SAS/EndAuth")),
            ("sPOST_Username", .string(user.email)),
            (
                "oPerAuthPollingInterval",
                .object([("PhoneAppNotification", .double(options.entraSessions.pollIntervalSeconds))])
            ),
            ("iMaxPollAttempts", .int(10)), ("iPollingTimeout", .int(120_000)), ("iPollingInterval", .int(5_000)),
            ("sAuthMethodInputFieldName", .string("mfaAuthMethod")), ("iSAOtcLength", .int(6)),
            ("iTotpOtcLength", .int(6)),
            (
                "arrUserProofs",
                .array(
                    methods.map { method in
                        .object([
                            ("authMethodId", .string(method)), ("data", .string(method)),
                            (
                                "display",
                                .string(
                                    method == "PhoneAppOTP"
                                        ? "" : method == "FidoKey" ? "Security key" : "+XX XXX XXXX X42")
                            ),
                            ("isDefault", .bool(method == defaultMethod)), ("isLocationAware", .bool(false)),
                        ])
                    })
            ),
        ]
        return html(200, convergedPage(pgid: "ConvergedTFA", config: config))
    }

    func sasResponse(_ members: [(String, JSON)]) -> HTTPServerResponse {
        HTTPServerResponse(
            status: 200, contentType: "application/json; charset=utf-8", text: JSON.object(members).serialized())
    }

    /// The flow of a SAS call: `Ctx` and `FlowToken` from the JSON body (either casing) or, for a GET poll, from the
    /// `x-ms-ctx` and `x-ms-flowToken` headers.
    func sasFlow(_ request: HTTPServerRequest, _ body: [String: Any]) -> EntraFlow? {
        let ctx = body["Ctx"] as? String ?? body["ctx"] as? String ?? request.header("x-ms-ctx") ?? ""
        let token =
            body["FlowToken"] as? String ?? body["flowToken"] as? String ?? request.header("x-ms-flowToken") ?? ""
        guard let flow = state.withLock({ $0.flows[ctx] }), flow.stage == "mfa", flow.flowToken == token else {
            return nil
        }
        return flow
    }

    /// A SAS answer for `flow`, with the flow's new token and context.
    func sasAnswer(
        _ flow: EntraFlow, success: Bool, result: String, message: String? = nil, retry: Bool = false,
        entropy: Int = 0
    ) -> HTTPServerResponse {
        let next = advance(flow, stage: "mfa", user: flow.user)
        return sasResponse([
            ("Success", .bool(success)), ("ResultValue", .string(result)),
            ("Message", message.map(JSON.string) ?? .null),
            ("AuthMethodId", .string(flow.secondFactor?.method ?? "")),
            ("ErrCode", .int(success || retry ? 0 : 500121)),
            ("Retry", .bool(retry)), ("FlowToken", .string(next.flowToken)), ("Ctx", .string(next.ctx)),
            ("SessionId", .string(flow.secondFactor?.sessionId ?? "")), ("Entropy", .int(entropy)),
            ("Timestamp", .string(CivilTime(nowEpoch()).iso)),
        ])
    }

    func sasFailure(_ message: String) -> HTTPServerResponse {
        sasResponse([
            ("Success", .bool(false)), ("ResultValue", .string("InvalidSessionId")), ("Message", .string(message)),
            ("ErrCode", .int(500121)), ("Retry", .bool(false)),
        ])
    }

    /// `POST /common/SAS/BeginAuth {"AuthMethodId", "Method":"BeginAuth", "ctx", "flowToken"}`: starts the push,
    /// SMS or call (or opens a session for an app code). A method the user does not have is refused.
    func entraBeginAuth(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = parseJSONObject(request.body) ?? [:]
        guard var flow = sasFlow(request, body), let user = flow.user else {
            return sasFailure("Flow token or context is not valid.")
        }
        let method = body["AuthMethodId"] as? String ?? ""
        let profile = users[user].secondFactor
        guard profile.methods.contains(method) else {
            return sasResponse([
                ("Success", .bool(false)), ("ResultValue", .string("AuthMethodNotSupported")),
                ("Message", .string("The selected verification method is not available for this account.")),
                ("ErrCode", .int(500121)), ("Retry", .bool(false)),
            ])
        }
        flow.secondFactor = SecondFactorExchange(method: method, sessionId: Tokens.guid())
        state.withLock { $0.flows[flow.ctx] = flow }
        let entropy = method == "PhoneAppNotification" ? profile.numberMatch : 0
        return sasAnswer(flow, success: true, result: "Success", entropy: entropy)
    }

    /// `EndAuth`: a code (`AdditionalAuthData`, POST) is checked; a push is polled (GET with `x-ms-*` headers, or a
    /// POST without a code) and answers `AuthenticationPending` until the phone answers.
    func entraEndAuth(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = parseJSONObject(request.body) ?? [:]
        guard var flow = sasFlow(request, body), let user = flow.user, var exchange = flow.secondFactor else {
            return sasFailure("Flow token or context is not valid.")
        }
        let profile = users[user].secondFactor
        // The answer stores the flow with its new token: the exchange's progress goes in with it.
        func answer(success: Bool, result: String, message: String? = nil, retry: Bool = false) -> HTTPServerResponse {
            flow.secondFactor = exchange
            return sasAnswer(flow, success: success, result: result, message: message, retry: retry)
        }
        if exchange.method == "PhoneAppNotification" {
            exchange.polls += 1
            switch profile.push {
            case .approve where exchange.polls > profile.pendingPolls:
                exchange.verified = true
                return answer(success: true, result: "Success")
            case .deny where exchange.polls > profile.pendingPolls:
                return answer(success: false, result: "PhoneAppDenied", message: "You've denied the sign-in request.")
            case .noAnswer where exchange.polls > SecondFactorProfile.unansweredPolls:
                return answer(
                    success: false, result: "PhoneAppNoResponse",
                    message: "We didn't receive a response. Please try again.")
            default:
                return answer(success: false, result: "AuthenticationPending", retry: true)
            }
        }
        let code = body["AdditionalAuthData"] as? String ?? ""
        if isRight(code, method: exchange.method, profile: profile) {
            exchange.verified = true
            return answer(success: true, result: "Success")
        }
        exchange.wrongCodes += 1
        guard exchange.wrongCodes < profile.codeAttempts else {
            return answer(
                success: false, result: "SMSAuthFailedMaxAllowedCodeRetryReached",
                message: "You've tried too many times with an incorrect code. Please try again later.")
        }
        let result = exchange.method == "PhoneAppOTP" ? "OathCodeIncorrect" : "SMSAuthFailedWrongCodeEntered"
        return answer(
            success: false, result: result,
            message: "You didn't enter the expected verification code. Please try again.",
            retry: true)
    }

    /// A TOTP code of the user's secret within one 30 s step of now, or the phone code for SMS and calls.
    private func isRight(_ code: String, method: String, profile: SecondFactorProfile) -> Bool {
        method == "PhoneAppOTP" ? profile.acceptsAppCode(code) : code == SecondFactorProfile.phoneCode
    }

    /// `POST /common/SAS/ProcessAuth` (form: `request` or `ctx`, `flowToken`, `mfaAuthMethod`, `type` 22 or 19 with
    /// `otc`) after a verified second factor → KMSI; with `assertion`, the FIDO second factor (`Entra/EntraFido.swift`).
    func entraProcessAuth(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if request.formValue("assertion") != nil { return entraFidoSecondFactor(request) }
        let ctx = request.formValue("request") ?? request.formValue("ctx") ?? ""
        guard let flow = state.withLock({ $0.flows[ctx] }), flow.stage == "mfa", flow.secondFactor?.verified == true,
            request.formValue("flowToken") == flow.flowToken, let user = flow.user
        else {
            return entraError(
                "50076",
                "AADSTS50076: Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access this resource."
            )
        }
        return afterSecondFactor(flow, user)
    }

    /// The page after a verified second factor: an interrupt waiting for it, else KMSI.
    func afterSecondFactor(_ flow: EntraFlow, _ user: Int) -> HTTPServerResponse {
        if let interrupt = options.entraInterrupt, interrupt.waitsForSecondFactor {
            return entraInterruptPage(interrupt, flow: flow, user: user)
        }
        return staySignedInPage(flow, user)
    }

    // MARK: Single-sign-on cookies

    /// The cookie Entra sets after KMSI: `ESTSAUTHPERSISTENT` (with an expiry) for "yes", `ESTSAUTH` (a session
    /// cookie) for "no"; each lets a browser in without a password until its server-side lifetime ends.
    func identityProviderSessionCookie(user: Int, persistent: Bool) -> (name: String, value: String) {
        let value = Tokens.random(bytes: 64)
        let lifetime =
            persistent ? options.entraSessions.persistentLifetimeSeconds : options.entraSessions.sessionLifetimeSeconds
        let expires = nowEpoch() + lifetime
        state.withLock { $0.idpSessions[value] = (user, expires) }
        return persistent ? cookie("ESTSAUTHPERSISTENT", value, expires: expires) : cookie("ESTSAUTH", value)
    }

    /// The user of a live single-sign-on cookie among `cookies`, if any.
    func liveIdentityProviderSession(_ cookies: [String: String]) -> Int? {
        let now = nowEpoch()
        for name in ["ESTSAUTHPERSISTENT", "ESTSAUTH"] {
            guard let value = cookies[name], let session = state.withLock({ $0.idpSessions[value] }) else { continue }
            if session.expires > now { return session.user }
        }
        return nil
    }
}
