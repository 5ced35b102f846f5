import HTTPServer

/// An Entra state every password sign-in ends in, after the password was accepted: a Conditional Access page
/// (`ConvergedConditionalAccess`) or a registration interrupt (`ConvergedProofUpRedirect`), with the code and Entra's
/// documented words (`../shared/docs/entra-passwordless.md` §4; the page's fields are observed, the sentences are
/// the AADSTS descriptions). Set with ``SimulatorOptions/entraInterrupt``.
public struct EntraInterrupt: Sendable, Equatable {
    /// The `AADSTS` code: 53000–53003, 50072, 50203.
    public var code: String

    public init(code: String) {
        self.code = code
    }

    /// The codes the simulator words, for tests that go through each.
    public static let documentedCodes = ["53000", "53001", "53002", "53003", "50072", "50203"]

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
        default: "AADSTS\(code): the sign-in was interrupted."
        }
    }

    /// The page Entra shows: registration codes on the proof-up redirect, the others on the Conditional Access page.
    var pageId: String {
        ["50072", "50203"].contains(code) ? "ConvergedProofUpRedirect" : "ConvergedConditionalAccess"
    }
}

extension SimulatorCore {
    /// The page of `interrupt` after `user`'s password: its `$Config` with `sErrorCode`, `sErrTxt` and the user,
    /// posting nowhere a headless client could go on from.
    func entraInterruptPage(_ interrupt: EntraInterrupt, flow: EntraFlow, user index: Int) -> HTTPServerResponse {
        let next = advance(flow, stage: "interrupt", user: index)
        var config = baseConfig(
            pgid: interrupt.pageId, flow: next, urlPost: "/\(tenantId)/ProofUp", hpgid: 1129, hpgact: 1800)
        config += [
            ("sPOST_Username", .string(users[index].email)), ("sErrorCode", .string(interrupt.code)),
            ("sErrTxt", .string(interrupt.words)),
        ]
        return html(200, convergedPage(pgid: interrupt.pageId, config: config))
    }
}
