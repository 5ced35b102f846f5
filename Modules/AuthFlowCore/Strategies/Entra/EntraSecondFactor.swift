import Foundation
import HTML
import JSON
import TransportValues

/// Entra's second factor on its `ConvergedTFA` page, as the page's script does it: `BeginAuth` starts the chosen
/// method (a push, an SMS or call, or an app code session); `EndAuth` is polled at the page's interval for a push, or
/// given the code for the others; `ProcessAuth` (the page's `urlPost`) then carries the last flow token on to the
/// pages after it ("Stay signed in?", the auto-post). Every answer renews the flow token and context, and each call
/// sends the page's canary and request ids as the browser does.
///
/// The method is the configuration's (``SignInConfiguration/secondFactorMethod``), else the account's default
/// (`isDefault`), else the first one this engine can answer. Denied, timed out, refused codes, a blocked method and
/// a method the account lacks end as ``SecondFactorFailure``s.
struct EntraSecondFactor: Sendable {
    /// What the exchange waits for.
    private enum Stage: Sendable {
        case begun, polling, codeChecked
    }

    private let page: PageFacts
    private let config: AADConfig
    private let methodId: String
    private let method: SecondFactorMethod
    private let offered: [SecondFactorMethod]
    private var flowToken: String
    private var context: String
    private var sessionId = ""
    private var stage = Stage.begun
    private var polls = 0
    private var codesSent = 0

    // MARK: Starting

    /// The first move on a `ConvergedTFA` page: `BeginAuth` for the chosen method, or the failure that says why no
    /// method can be used. Nil when the page names no `BeginAuth` service (then it is an interaction as before).
    static func start(on page: PageFacts, state: FlowState) -> (
        exchange: EntraSecondFactor?, decision: StrategyDecision
    )? {
        guard let config = page.config, let beginAuth = config.text("urlBeginAuth"), config.text("urlEndAuth") != nil
        else { return nil }
        let methodIds = config.proofMethods
        let offered = methodIds.compactMap(SecondFactorMethod.entra).reduce(into: [SecondFactorMethod]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        let chosenId: String
        if let wanted = state.configuration.secondFactorMethod {
            guard let id = methodIds.first(where: { wanted.entraMethodIds.contains($0) }) else {
                return (nil, .finish(.secondFactorFailed(.notOffered(wanted: wanted, offered: offered))))
            }
            chosenId = id
        } else if let id = config.defaultProofMethod, SecondFactorMethod.entra(id) != nil {
            chosenId = id
        } else if let id = methodIds.first(where: { SecondFactorMethod.entra($0) != nil }) {
            chosenId = id
        } else {
            return (nil, .finish(.secondFactorFailed(.unsupported(methods: methodIds))))
        }
        guard let method = SecondFactorMethod.entra(chosenId) else { return nil }
        let exchange = EntraSecondFactor(
            page: page, config: config, methodId: chosenId, method: method, offered: offered,
            flowToken: config.flowToken ?? "", context: config.text("sCtx") ?? "")
        let body: [String: JSONValue] = [
            "AuthMethodId": .string(chosenId), "Method": "BeginAuth", "ctx": .string(exchange.context),
            "flowToken": .string(exchange.flowToken),
        ]
        let request = exchange.jsonCall(URLResolution.resolve(beginAuth, against: page.url), body: body)
        return (exchange, .send(request, note: "second factor: BeginAuth with \(chosenId) (\(method.rawValue))"))
    }

    // MARK: Answers

    /// The next move after a `BeginAuth` or `EndAuth` answer.
    mutating func receive(_ response: SignInResponse, state: inout FlowState) -> StrategyDecision {
        guard (200...299).contains(response.status),
            let answer = try? JSONValue.parse(bytes: response.body), answer.objectValue != nil
        else {
            return .finish(
                .secondFactorFailed(.serviceError(result: "HTTP \(response.status)", message: "not a JSON answer")))
        }
        if let token = answer["FlowToken"]?.stringValue, !token.isEmpty { flowToken = token }
        if let ctx = answer["Ctx"]?.stringValue, !ctx.isEmpty { context = ctx }
        if let session = answer["SessionId"]?.stringValue, !session.isEmpty { sessionId = session }
        let success = answer["Success"]?.boolValue ?? false
        let result = answer["ResultValue"]?.stringValue ?? (success ? "Success" : "an unknown result")
        let message = answer["Message"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        switch stage {
        case .begun:
            guard success else { return .finish(.secondFactorFailed(failure(result, message))) }
            if method == .push {
                stage = .polling
                let number = answer["Entropy"]?.intValue ?? 0
                var poll = pollRequest()
                poll.notice =
                    number > 0
                    ? "Approve the sign-in on your phone: enter \(number)"
                    : "Approve the sign-in request on your phone (authenticator app)"
                return .send(poll, note: "second factor: push sent, polling EndAuth")
            }
            stage = .codeChecked
            return askCode(attempt: 1)
        case .polling:
            if success { return processAuth() }
            let pending = result == "AuthenticationPending" || (answer["Retry"]?.boolValue ?? false)
            guard pending else { return .finish(.secondFactorFailed(failure(result, message))) }
            guard polls < maximumPolls else {
                return .finish(.secondFactorFailed(.timedOut(seconds: Int(pollingTimeout.rounded()))))
            }
            return .send(pollRequest(), note: "second factor: waiting for the approval (poll \(polls + 1))")
        case .codeChecked:
            if success { return processAuth() }
            let retry = answer["Retry"]?.boolValue ?? false
            guard retry, Self.isWrongCode(result) else {
                return .finish(.secondFactorFailed(failure(result, message)))
            }
            // The service may lock the method sooner than the sign-in's own limit.
            guard codesSent < SignInBudget.codeAttempts else {
                return .finish(.secondFactorFailed(.wrongCode(attempts: codesSent, message: message)))
            }
            return askCode(attempt: codesSent + 1)
        }
    }

    /// The failure a SAS result stands for.
    private func failure(_ result: String, _ message: String?) -> SecondFactorFailure {
        switch result {
        case "PhoneAppDenied", "PhoneAppFraud": return .denied
        case "PhoneAppNoResponse": return .timedOut(seconds: max(Int((Double(polls) * pollingInterval).rounded()), 1))
        case "AuthenticationMethodLocked", "SMSAuthFailedMaxAllowedCodeRetryReached", "UserIsBlocked":
            return .blocked(message: message ?? result)
        case "AuthMethodNotSupported", "AuthenticationMethodNotSupported":
            return .serviceError(result: result, message: message)
        default:
            return Self.isWrongCode(result)
                ? .wrongCode(attempts: codesSent, message: message) : .serviceError(result: result, message: message)
        }
    }

    private static func isWrongCode(_ result: String) -> Bool {
        ["OathCodeIncorrect", "SMSAuthFailedWrongCodeEntered", "PhoneAppOtpAuthFailedDuplicateCodeEntered"].contains(
            result)
    }

    // MARK: Requests

    /// A JSON call to a SAS service with the page's headers. It carries the flow token (and a code), so the policy
    /// checks where it goes as for credentials.
    private func jsonCall(_ url: String, body: [String: JSONValue]) -> SignInRequest {
        let bytes = JSONValue.object(body.map { ($0.key, $0.value) }).encoded(options: .sortedKeys)
        var request = SignInRequest(
            method: "POST", url: url, rawBody: ("application/json; charset=UTF-8", Array(bytes)),
            headers: serviceHeaders(), purpose: .secondFactor, carriesCredentials: true)
        request.carriesPassword = body["AdditionalAuthData"] != nil
        return request
    }

    private func serviceHeaders() -> [(name: String, value: String)] { EntraStrategy.serviceHeaders(config) }

    /// Seconds between polls: the page's `oPerAuthPollingInterval` for the method, else `iPollingInterval` (ms).
    private var pollingInterval: Double {
        let seconds = config.pollingInterval(for: methodId) ?? config.number("iPollingInterval").map { $0 / 1000 } ?? 2
        return min(max(seconds, 0.01), 10)
    }

    /// How long an approval may take: the page's `iPollingTimeout` (ms), at most 300 s.
    private var pollingTimeout: Double {
        min(config.number("iPollingTimeout").map { $0 / 1000 } ?? 120, 300)
    }

    private var maximumPolls: Int { max(Int((pollingTimeout / pollingInterval).rounded(.up)), 1) }

    /// The next `GET urlEndAuth?authMethodId=…&pollCount=N` with the flow in `x-ms-*` headers, after the interval.
    private mutating func pollRequest() -> SignInRequest {
        polls += 1
        let endAuth = URLResolution.resolve(config.text("urlEndAuth") ?? "", against: page.url)
        let separator = endAuth.contains("?") ? "&" : "?"
        var request = SignInRequest(
            url: endAuth + separator + "authMethodId=\(methodId)&pollCount=\(polls)",
            headers: serviceHeaders() + [
                ("x-ms-ctx", context), ("x-ms-flowToken", flowToken), ("x-ms-sessionId", sessionId),
            ], purpose: .secondFactor, carriesCredentials: true)
        request.carriesPassword = false
        request.delay = .milliseconds(Int(pollingInterval * 1000))
        return request
    }

    /// Asks the driver for the code, to be sent with `EndAuth`.
    private mutating func askCode(attempt: Int) -> StrategyDecision {
        let endAuth = URLResolution.resolve(config.text("urlEndAuth") ?? "", against: page.url)
        let exchange = self
        let question = OneTimeCodeRequest(
            pageURL: Redaction.url(page.url), fieldName: "otc", label: method.codeDescription, attempt: attempt)
        codesSent = attempt
        return .askCode(
            PendingCode(
                request: question, pageURL: page.url,
                withoutCode: .secondFactorFailed(.noCode(method: method, offered: offered)),
                answer: { code in
                    let body: [String: JSONValue] = [
                        "Method": "EndAuth", "AuthMethodId": .string(exchange.methodId),
                        "Ctx": .string(exchange.context), "FlowToken": .string(exchange.flowToken),
                        "SessionId": .string(exchange.sessionId), "AdditionalAuthData": .string(code), "PollCount": 1,
                    ]
                    return (
                        exchange.jsonCall(endAuth, body: body),
                        "second factor: EndAuth with the \(exchange.method.rawValue) code (attempt \(attempt))"
                    )
                }))
    }

    /// The final post to `ProcessAuth` (`urlPost`) with the last flow token and context.
    private func processAuth() -> StrategyDecision {
        let action = URLResolution.resolve(config.text("urlPost") ?? "", against: page.url)
        var fields: [(name: String, value: String)] = [
            ("type", "22"), ("request", context), ("mfaAuthMethod", methodId),
            ("login", config.text("sPOST_Username") ?? ""),
            (config.flowTokenName ?? "flowToken", flowToken),
        ]
        if let canary = config.text("canary") { fields.append((config.text("sCanaryTokenName") ?? "canary", canary)) }
        if let requestId = config.text("sessionId") { fields.append(("hpgrequestid", requestId)) }
        fields.append(("rememberMFA", "false"))
        return .send(
            SignInRequest(method: "POST", url: action, form: fields, purpose: .secondFactor, carriesCredentials: true),
            note: "second factor verified (\(method.rawValue)): posted to $Config.urlPost (ProcessAuth)")
    }
}
