/// A second-factor method, by the name a user knows it under (`--mfa-method`).
public enum SecondFactorMethod: String, Sendable, CaseIterable, Equatable {
    /// An approval in the authenticator app (with number matching when the service shows a number).
    case push
    /// A code from an authenticator app (TOTP).
    case totp
    /// A code sent by text message.
    case sms
    /// A code read out by a phone call.
    case voice

    /// Entra's `authMethodId`s for the method, the likeliest first.
    var entraMethodIds: [String] {
        switch self {
        case .push: return ["PhoneAppNotification"]
        case .totp: return ["PhoneAppOTP"]
        case .sms: return ["OneWaySMS", "ConsolidatedTelephony"]
        case .voice: return ["TwoWayVoiceMobile", "TwoWayVoiceOffice", "TwoWayVoiceAlternateMobile"]
        }
    }

    /// The method an Entra `authMethodId` stands for, if it is one of these.
    static func entra(_ methodId: String) -> SecondFactorMethod? {
        allCases.first { $0.entraMethodIds.contains(methodId) }
    }

    /// What the person is asked for, in a few words.
    var codeDescription: String {
        switch self {
        case .push: return "an approval in the authenticator app"
        case .totp: return "the code from the authenticator app"
        case .sms: return "the code sent by text message"
        case .voice: return "the code read out by the phone call"
        }
    }
}

/// Why a second factor did not complete. Each case is its own outcome, with its own message (exit 4).
public enum SecondFactorFailure: Sendable, Equatable {
    /// The person denied the approval on the phone (or reported it as fraud).
    case denied
    /// Nobody answered the approval within the service's time.
    case timedOut(seconds: Int)
    /// The codes given were refused, `attempts` times (the service's own words in `message`).
    case wrongCode(attempts: Int, message: String?)
    /// The service blocked the method or the account (too many attempts, locked, fraud alert).
    case blocked(message: String)
    /// The method asked for is not among the account's (`offered`, the ones this engine can answer).
    case notOffered(wanted: SecondFactorMethod, offered: [SecondFactorMethod])
    /// The method needs a code and no code source was given.
    case noCode(method: SecondFactorMethod, offered: [SecondFactorMethod])
    /// The account's methods are ones this engine cannot answer (a security key, an unknown method).
    case unsupported(methods: [String])
    /// The service answered in a way the engine does not know (its result and message).
    case serviceError(result: String, message: String?)

    /// A sentence that says what happened.
    public var message: String {
        func list(_ methods: [SecondFactorMethod]) -> String {
            methods.isEmpty ? "none this engine can answer" : methods.map(\.rawValue).joined(separator: ", ")
        }
        switch self {
        case .denied:
            return "the second factor was denied on the phone; if that was not you, tell your administrator."
        case .timedOut(let seconds):
            return "the second factor was not approved within \(seconds) s; approve the request on the phone sooner."
        case .wrongCode(let attempts, let message):
            return "the second factor's code was refused \(attempts) time\(attempts == 1 ? "" : "s")"
                + (message.map { " (\($0))" } ?? "") + "."
        case .blocked(let message):
            return "the identity provider blocked the second factor: \(message)"
        case .notOffered(let wanted, let offered):
            return "the account does not offer \(wanted.rawValue) as a second factor; it offers \(list(offered))."
        case .noCode(let method, let offered):
            return "the second factor asks for \(method.codeDescription) and no code source was given "
                + "(the account offers \(list(offered)))."
        case .unsupported(let methods):
            return "the account's second factors (\(methods.joined(separator: ", "))) need a browser or a device "
                + "this engine cannot use; complete it once in a browser."
        case .serviceError(let result, let message):
            return "the second-factor service answered \(result)" + (message.map { ": \($0)" } ?? ".")
        }
    }

    /// What the user could change.
    var hints: [SignInHint] {
        switch self {
        case .notOffered(_, let offered): return offered.isEmpty ? [] : [.chooseSecondFactorMethod(offered)]
        case .noCode(let method, let offered):
            let others = offered.filter { $0 != method }
            return [.giveOneTimeCodeSource] + (others.isEmpty ? [] : [.chooseSecondFactorMethod(others)])
        default: return []
        }
    }

    /// The same failure with `scrub` applied to the service's words.
    package func scrubbed(by scrub: (String) -> String) -> SecondFactorFailure {
        switch self {
        case .wrongCode(let attempts, let message): return .wrongCode(attempts: attempts, message: message.map(scrub))
        case .blocked(let message): return .blocked(message: scrub(message))
        case .serviceError(let result, let message):
            return .serviceError(result: scrub(result), message: message.map(scrub))
        default: return self
        }
    }
}
