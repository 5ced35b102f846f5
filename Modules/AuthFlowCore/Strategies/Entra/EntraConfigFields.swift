public import HTML

/// What Entra's script configuration (`$Config`, Microsoft account's `ServerData`) says, key by key: Entra's
/// protocol, kept in the Entra strategy's folder; the HTML module only finds the object and reads it as JSON.
extension AADConfig {
    /// The page id (`ConvergedSignIn`, `KmsiInterrupt`, `ConvergedTFA`…).
    public var pgid: String? { raw["pgid"]?.stringValue }
    /// The name the flow token is posted under: `sFTName`, else the `name` of the hidden input in `sFTTag`
    /// (Microsoft account pages post it as `PPFT`).
    public var flowTokenName: String? {
        raw["sFTName"]?.stringValue ?? flowTokenInput.flatMap { ScriptReading.inputAttributes(in: $0).name }
    }
    /// The flow token: `sFT`, else the `value` of the hidden input in `sFTTag`. A secret: never log it.
    public var flowToken: String? {
        raw["sFT"]?.stringValue ?? flowTokenInput.flatMap { ScriptReading.inputAttributes(in: $0).value }
    }
    /// The markup of the hidden flow-token input (`sFTTag`), when the page carries one.
    private var flowTokenInput: String? { raw["sFTTag"]?.stringValue }
    /// The request context (`sCtx`), absent on some interrupts.
    public var context: String? { raw["sCtx"]?.stringValue }
    /// The canary (`canary`). A secret: never log it.
    public var canary: String? { raw["canary"]?.stringValue }
    /// The name the canary is posted under (`sCanaryTokenName`), when the page gives one.
    public var canaryTokenName: String? { raw["sCanaryTokenName"]?.stringValue }
    /// The error code (`sErrorCode`); `50058` means "not signed in yet", not a failure.
    public var errorCode: String? { raw["sErrorCode"]?.stringValue }
    /// The error message (`sErrTxt`); empty when there is none.
    public var errorText: String? { raw["sErrTxt"]?.stringValue }
    /// The `authMethodId`s of `arrUserProofs` (second-factor methods offered).
    public var proofMethods: [String] {
        raw["arrUserProofs"]?.arrayValue?.compactMap { $0["authMethodId"]?.stringValue } ?? []
    }

    /// The `authMethodId` of the proof marked `isDefault` in `arrUserProofs`, if one is.
    public var defaultProofMethod: String? {
        raw["arrUserProofs"]?.arrayValue?.first { $0["isDefault"]?.boolValue == true }?["authMethodId"]?.stringValue
    }

    /// The seconds between polls for `method` in `oPerAuthPollingInterval`, when the page gives them.
    public func pollingInterval(for method: String) -> Double? {
        switch raw["oPerAuthPollingInterval"]?[method] {
        case .double(let seconds)?: return seconds
        case .integer(let seconds)?: return Double(seconds)
        default: return nil
        }
    }

    /// The same configuration with the flow token `sFT` replaced (a service call answered with a newer one).
    public func replacingFlowToken(with token: String) -> AADConfig {
        guard case .object(var members) = raw else { return self }
        if let index = members.firstIndex(where: { $0.0 == "sFT" }) {
            members[index].1 = .string(token)
        } else {
            members.append(("sFT", .string(token)))
        }
        return AADConfig(raw: .object(members))
    }
}

extension HTMLPage {
    /// The page with its `$Config` error text (`sErrTxt`, which Entra's script writes into the page) among the
    /// errors it shows, as a browser user would read it.
    var showingEntraConfigError: HTMLPage {
        guard let text = aadConfig?.errorText?.collapsingWhitespace(), !text.isEmpty else { return self }
        return showing(errorMessage: text)
    }
}
