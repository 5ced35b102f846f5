/// Something the user can change to get further, typed so that each front end words it in its own terms: the CLI
/// as one of its options, an embedding app as a setting of its own. ``SignInOutcome/hints`` lists them after an
/// outcome; ``SignInOutcome/message`` says what happened without naming any front end's options.
public enum SignInHint: Sendable, Equatable, CustomStringConvertible {
    /// Let credentials go to this host too (`HOST` or `HOST:PORT`, as ``SignInPolicy/allowedHosts`` takes it),
    /// if it is the user's.
    case allowHost(String)
    /// Sign in with one of these flows instead, the likelier first.
    case tryFlows([SignInFlow])
    /// Save a redacted copy of the page the sign-in stopped on (``SignIn/Options/dumpPagesDirectory``), for a report.
    case savePages
    /// Record the sign-in's steps (``SignIn/Options/trace``) to see where it stopped.
    case recordTrace
    /// Give the sign-in a source of one-time codes (``SignIn/Options/oneTimeCode``).
    case giveOneTimeCodeSource
    /// Allow plain http, to a loopback address only (``SignInPolicy/allowHTTPLoopback``).
    case allowPlainHTTPOnLoopback
    /// Answer the second factor with one of these methods instead (``SignInConfiguration/secondFactorMethod``).
    case chooseSecondFactorMethod([SecondFactorMethod])
    /// Get a Kerberos ticket first (`kinit`, or `kinit -kt KEYTAB` unattended): the server asks for Negotiate.
    case getKerberosTicket
    /// Put off the security-info registration Entra asks for, which it still allows for this many days
    /// (``SignInConfiguration/skipsSecurityInfoRegistration``).
    case skipRegistration(days: Int)

    /// The hint in words that name no front end's options.
    public var description: String {
        switch self {
        case .allowHost(let host): return "if \(host) is yours, allow credentials to go to it."
        case .tryFlows(let flows):
            return "sign in with the " + flows.map(\.rawValue).joined(separator: " or the ") + " flow instead."
        case .savePages: return "save a redacted copy of the page for a bug report."
        case .recordTrace: return "record the sign-in's steps to see where it stopped."
        case .giveOneTimeCodeSource: return "give a source of one-time codes."
        case .allowPlainHTTPOnLoopback: return "only loopback addresses may use plain http, and only when allowed."
        case .chooseSecondFactorMethod(let methods):
            return "answer the second factor with " + methods.map(\.rawValue).joined(separator: " or ") + "."
        case .getKerberosTicket: return "the server signs in with Kerberos: get a ticket for its realm first."
        case .skipRegistration(let days):
            return "Entra lets the registration be put off for \(days) more day(s): the sign-in can skip it when asked."
        }
    }
}

extension SignInOutcome {
    /// What the user can change to get further after this outcome, in the order a person would try them. Empty
    /// when the outcome's message is all there is to say (signed in, a wrong password, a step only a browser or an
    /// administrator can take).
    public var hints: [SignInHint] {
        switch self {
        case .signedIn, .invalidCredentials, .transport:
            return []
        case .interactionRequired(let kind, _, _, let dumpPath, let hints):
            var all = hints
            if kind == .federatedSignIn { all.append(.recordTrace) }
            if kind == .unknownInterrupt && dumpPath == nil { all.append(.savePages) }
            return all
        case .unknownPage(_, _, let dumpPath, let hints):
            return dumpPath == nil ? hints + [.savePages] : hints
        case .loop(_, _, let dumpPath):
            return dumpPath == nil ? [.savePages] : []
        case .secondFactorFailed(let failure):
            return failure.hints
        case .policyRefused(let refusal):
            return refusal.hints
        }
    }
}

extension SignInPolicy.Refusal {
    /// What the user can change to let the step through, when anything.
    public var hints: [SignInHint] {
        switch self {
        case .plainHTTP: return [.allowPlainHTTPOnLoopback]
        case .foreignHost(let action, _):
            return URLParts(action).map { [.allowHost($0.displayAuthority)] } ?? []
        case .passwordInURL, .notHTTP, .downgrade: return []
        }
    }
}
