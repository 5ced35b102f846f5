import Foundation
import HTTPServer

/// A Temporary Access Pass issued to a user (`accessPass` in `--users` JSON): Entra's time-limited passcode that
/// stands for the password and the second factor. Documented: one-time or multi-use within its lifetime (default one
/// hour); a tenant policy may require one-time passes; usable as the first factor and for MFA.
public struct AccessPassProfile: Sendable, Equatable, Codable {
    /// The pass.
    public var value: String
    /// A one-time pass: a second use is refused (130505).
    public var usableOnce: Bool
    /// Seconds from the simulator's start; after them the pass has expired (130504).
    public var lifetimeSeconds: Int
    /// The account prefers the pass (`GetCredentialType`'s `PrefCredential` 13): the page shows the pass view first.
    public var preferred: Bool
    /// The tenant's policy requires one-time passes: a multi-use one is blocked (130502).
    public var policyRequiresOneTime: Bool

    public init(
        value: String, usableOnce: Bool = true, lifetimeSeconds: Int = 3600, preferred: Bool = true,
        policyRequiresOneTime: Bool = false
    ) {
        self.value = value
        self.usableOnce = usableOnce
        self.lifetimeSeconds = lifetimeSeconds
        self.preferred = preferred
        self.policyRequiresOneTime = policyRequiresOneTime
    }

    enum CodingKeys: String, CodingKey {
        case value, usableOnce, lifetimeSeconds, preferred, policyRequiresOneTime
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            value: try container.decode(String.self, forKey: .value),
            usableOnce: try container.decodeIfPresent(Bool.self, forKey: .usableOnce) ?? true,
            lifetimeSeconds: try container.decodeIfPresent(Int.self, forKey: .lifetimeSeconds) ?? 3600,
            preferred: try container.decodeIfPresent(Bool.self, forKey: .preferred) ?? true,
            policyRequiresOneTime: try container.decodeIfPresent(Bool.self, forKey: .policyRequiresOneTime) ?? false)
    }
}

/// The pass view of the converged sign-in page: `accesspass` posted to `urlPost` with `ps=56` (observed), checked
/// against the user's pass, and Entra's refusals by their documented codes.
extension SimulatorCore {
    /// The refusal texts (the code names are observed in the page's constants; the sentences are written here, but
    /// for 130502's, which is documented).
    static let accessPassRefusals: [String: String] = [
        "130502": "Temporary Access Pass sign in was blocked due to User Credential Policy.",
        "130503": "The Temporary Access Pass is not valid. Check it, or ask your administrator for a new one.",
        "130504": "The Temporary Access Pass has expired. Ask your administrator for a new one.",
        "130505": "The Temporary Access Pass was already used. Ask your administrator for a new one.",
    ]

    /// `POST /{tenant}/login` with `accesspass`: the pass stands for the password and any second factor.
    func entraAccessPassLogin(flow: EntraFlow, login: String, pass: String)
        -> HTTPServerResponse
    {
        guard let index = userIndex(login: login) else {
            return signInPage(advance(flow, stage: "signin", user: nil), errorCode: "50034", username: login)
        }
        let refusal: String? = state.withLock { state in
            guard let issued = users[index].accessPass, issued.value == pass else { return "130503" }
            if issued.policyRequiresOneTime && !issued.usableOnce { return "130502" }
            if Double((ContinuousClock.now - started) / .seconds(1)) > Double(issued.lifetimeSeconds) {
                return "130504"
            }
            let key = users[index].email.lowercased()
            if issued.usableOnce && state.usedAccessPasses.contains(key) { return "130505" }
            if issued.usableOnce { state.usedAccessPasses.insert(key) }
            return nil
        }
        if let refusal {
            return signInPage(advance(flow, stage: "signin", user: nil), errorCode: refusal, username: login)
        }
        return afterPassword(flow, index, strongAuthentication: true)
    }
}
