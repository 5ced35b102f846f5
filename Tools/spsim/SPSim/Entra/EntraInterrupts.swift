import HTTPServer

/// An Entra state every password sign-in ends in, after the password was accepted: a Conditional Access page
/// (`ConvergedConditionalAccess`) or a registration interrupt (`ConvergedProofUpRedirect`), with the code and Entra's
/// documented words (`../shared/docs/entra-passwordless.md` §4; the page's fields are observed, the sentences are
/// the AADSTS descriptions). Set with ``SimulatorOptions/entraInterrupt``.
public struct EntraInterrupt: Sendable, Equatable {
    /// The `AADSTS` code: 53000–53003, 50072, 50203 after the password; 500121, 50089, 50196 as `ConvergedError`
    /// after a second factor's code (`mfa` users); 50199, the confirmation `CmsiInterrupt`, which a client passes.
    public var code: String
    /// A registration interrupt (50072, 50203) the user may still skip for this many days (`urlSkipMfaRegistration`,
    /// `iRemainingDaysToSkipMfaRegistration`, observed); nil or 0: it cannot be skipped.
    public var skipDays: Int?

    public init(code: String, skipDays: Int? = nil) {
        self.code = code
        self.skipDays = skipDays
    }

    /// The codes the simulator words, for tests that go through each.
    public static let documentedCodes = ["53000", "53001", "53002", "53003", "50072", "50203"]
    /// The codes of a `ConvergedError` page right after the second factor's code (observed: saml2aws #1448).
    public static let afterCodeCodes = ["500121", "50089", "50196"]

    /// Whether the state comes after the second factor's code instead of after the password.
    var comesAfterSecondFactor: Bool { Self.afterCodeCodes.contains(code) }

    /// Whether an `mfa` user meets it after the second factor's code (the confirmation too), not after the password.
    var waitsForSecondFactor: Bool { comesAfterSecondFactor || code == "50199" }

    /// Entra's words for the code.
    var words: String {
        switch code {
        case "53000":
            "AADSTS53000: Device is not in required device state: compliant. Conditional Access policy requires a "
                + "compliant device, and the device is not compliant. The user must enroll their device with an "
                + "approved MDM provider like Intune."
        case "53001":
            "AADSTS53001: Device is not in required device state: domain_joined. Conditional Access policy requires a "
                + "domain joined device, and the device is not domain joined."
        case "53002":
            "AADSTS53002: Application used is not an approved application. The user needs to use one of the apps from "
                + "the list of approved applications to get access."
        case "53003":
            "AADSTS53003: Access has been blocked by Conditional Access policies. The access policy does not allow "
                + "token issuance."
        case "50072":
            "AADSTS50072: User needs to enroll for second factor authentication (interactive)."
        case "50203":
            "AADSTS50203: User has not registered the authenticator app and must register or snooze this notification."
        case "500121":
            "AADSTS500121: Authentication failed during strong authentication request."
        case "50089":
            "AADSTS50089: Authentication failed due to flow token expired."
        case "50196":
            "AADSTS50196: The server terminated an operation because it encountered a client request loop. Please "
                + "contact your app vendor."
        case "50199":
            "For security reasons, user confirmation is required for this request. Please repeat the request allowing "
                + "user interaction."
        default: "AADSTS\(code): the sign-in was interrupted."
        }
    }

    /// The page Entra shows: registration codes on the proof-up redirect, the others on the Conditional Access page.
    var pageId: String {
        if comesAfterSecondFactor { return "ConvergedError" }
        if code == "50199" { return "CmsiInterrupt" }
        return ["50072", "50203"].contains(code) ? "ConvergedProofUpRedirect" : "ConvergedConditionalAccess"
    }
}

extension SimulatorCore {
    /// The page of `interrupt` after `user`'s password: its `$Config` with `sErrorCode`, `sErrTxt` and the user,
    /// posting nowhere a headless client could go on from.
    func entraInterruptPage(_ interrupt: EntraInterrupt, flow: EntraFlow, user index: Int) -> HTTPServerResponse {
        if interrupt.code == "50199" { return confirmationPage(flow: flow, user: index) }
        if interrupt.comesAfterSecondFactor {
            // The observed shape: the code as `iErrorCode`, the words as `strServiceExceptionMessage`, no `urlPost`.
            return html(
                200,
                convergedPage(
                    pgid: "ConvergedError",
                    config: [
                        ("pgid", .string("ConvergedError")), ("iErrorCode", .string(interrupt.code)),
                        ("strServiceExceptionMessage", .string(interrupt.words)),
                        ("correlationId", .string(Tokens.guid())),
                    ]))
        }
        let next = advance(flow, stage: "interrupt", user: index)
        var config = baseConfig(
            pgid: interrupt.pageId, flow: next, urlPost: "/\(tenantId)/ProofUp", hpgid: 1129, hpgact: 1800)
        config += [
            ("sPOST_Username", .string(users[index].email)), ("sErrorCode", .string(interrupt.code)),
            ("sErrTxt", .string(interrupt.words)),
        ]
        if let days = interrupt.skipDays, days > 0, interrupt.pageId == "ConvergedProofUpRedirect" {
            config += [
                ("urlSkipMfaRegistration", .string("/\(tenantId)/SkipMfaRegistration")),
                ("iRemainingDaysToSkipMfaRegistration", .int(days)),
            ]
        }
        return html(200, convergedPage(pgid: interrupt.pageId, config: config))
    }
}

extension SimulatorCore {
    /// `CmsiInterrupt` (AADSTS50199): "user confirmation is required", continued by `POST /appverify` with
    /// `ContinueAuth=true` and the page's tokens (observed), after which the sign-in goes on to "Stay signed in?".
    func confirmationPage(flow: EntraFlow, user index: Int) -> HTTPServerResponse {
        let next = advance(flow, stage: "confirm", user: index)
        var config = baseConfig(pgid: "CmsiInterrupt", flow: next, urlPost: "/appverify", hpgid: 1190, hpgact: 1800)
        config += [
            ("sPOST_Username", .string(users[index].email)), ("sAppName", .string("SharePoint Online Web Client")),
        ]
        return html(200, convergedPage(pgid: "CmsiInterrupt", config: config))
    }

    /// `POST /{tenant}/SkipMfaRegistration` (`flowtoken`, `ctx`, `canary`, as libhimmelblau posts them): the
    /// registration is put off, on to "Stay signed in?".
    func entraSkipRegistration(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let ctx = request.formValue("ctx") ?? ""
        guard let flow = state.withLock({ $0.flows[ctx] }), flow.stage == "interrupt", let user = flow.user,
            (request.formValue("flowtoken") ?? request.formValue("flowToken")) == flow.flowToken,
            request.formValue("canary") == flow.canary, (options.entraInterrupt?.skipDays ?? 0) > 0
        else {
            return entraError(
                "50089", "AADSTS50089: Authentication failed due to flow token expired. Please sign in again.")
        }
        state.withLock { $0.skippedRegistrations += 1 }
        return staySignedInPage(flow, user)
    }

    /// `POST /appverify` (`ContinueAuth=true`, ctx, flowToken, canary): on to "Stay signed in?".
    func entraConfirmation(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let flow = validatedFlow(request, stage: "confirm"), let user = flow.user,
            request.formValue("ContinueAuth") == "true"
        else {
            return entraError(
                "50089", "AADSTS50089: Authentication failed due to flow token expired. Please sign in again.")
        }
        return staySignedInPage(flow, user)
    }

    /// `/common/wrongplace`: Microsoft's anti-phishing page (observed since December 2025), shown where a browser
    /// was sent to the native-client reply address; and `/common/oauth2/nativeclient`, whose script moves there.
    /// For negative tests: no SharePoint sign-in leads here.
    func wrongPlacePage() -> HTTPServerResponse {
        html(
            200,
            "<!DOCTYPE html><html><head><title>Sign in to your account</title></head><body><div id=\"wrongplace\">"
                + "<h1>You have reached a page that is not normally shown.</h1><p>This is not the correct page. "
                + "Microsoft will never ask you to copy or share this URL.</p></div></body></html>")
    }

    func nativeClientPage() -> HTTPServerResponse {
        html(
            200,
            "<!DOCTYPE html><html><head><title>Sign in to your account</title></head><body><script>"
                + "setTimeout(function(){window.location.replace('/common/wrongplace');},1500);</script>"
                + "<noscript>JavaScript is required.</noscript></body></html>")
    }
}
