import HTML
import JSON
import TransportValues

extension InteractionKind {
    /// A page asked for a passkey the given one cannot answer (another relying party, an insecure origin, not in
    /// the page's list), or gave no way to return it.
    public static let passkey = InteractionKind(
        "passkey", explanation: "a passkey the given passkey file cannot answer", stops: true,
        advice: ". Give the passkey registered for this site (--passkey FILE), or sign in another way.")
}

/// Answers WebAuthn with the sign-in's software passkey (``SignInConfiguration/passkey``) on any page that asks,
/// the way a browser's script would: it reads the request options where the page carries them (a script, a JSON
/// block, an attribute; ``PasskeyOptionsReading``) or asks the return form's own endpoint for them as JSON (what
/// `fetch(form.action, {headers: {Accept: 'application/json'}})` does), signs with the passkey, and submits the
/// form that takes the credential back (``PasskeyReturnForm``). On the way there it clicks a "passkey" button and
/// submits the passkey page's first form (an optional user name).
///
/// Asked before every other strategy, and only when a passkey is given: a page it does not recognise goes on to
/// the password strategies, and so does a page with a password field when a password is given too (the passkey then
/// answers the second factor). A relying party that shows the passkey ceremony again after an assertion refused it.
struct PasskeyStrategy: SignInStrategy {
    let name = "passkey"
    /// Assertions sent so far.
    private var answered = 0
    /// The return form whose endpoint was asked for options, and the page it is on.
    private var awaiting: (form: PasskeyReturnForm, pageURL: String)?
    /// Pages whose passkey button or first form was already used (each once).
    private var stepped: Set<String> = []

    mutating func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision? {
        guard let passkey = state.configuration.passkey else { return nil }
        if awaiting != nil {
            // The options were asked for as JSON and a page came back (a redirect to the sign-in page, an error).
            awaiting = nil
            return .finish(
                .interactionRequired(
                    .passkey, pageId: nil,
                    message: "the passkey form's endpoint answered with a page, not the passkey options (\(page.title))"
                ))
        }
        // A password given too goes first where the page takes one: the passkey then answers the second factor.
        if !state.configuration.password.revealedValue().isEmpty, !state.passwordSubmitted,
            page.forms.contains(where: { $0.passwordField != nil })
        {
            return nil
        }
        let returnForms = PasskeyReturnForm.all(on: page)
        let options = page.passkeyOptions.lazy.compactMap(PasskeyRequestOptions.init(json:)).first
        let entry = options == nil && returnForms.isEmpty ? Self.entry(on: page) : nil
        if answered > 0, options != nil || !returnForms.isEmpty || entry != nil {
            return .finish(
                .invalidCredentials(
                    message: "the site did not accept the passkey"
                        + (page.errorText.map { ": \($0)" } ?? " (it asked for one again)"), code: nil))
        }
        if let options, let returnForm = returnForms.first {
            return answer(
                options, into: returnForm, pageURL: page.url, passkey: passkey,
                allowsHTTPLoopback: state.configuration.policy.allowHTTPLoopback)
        }
        if let returnForm = returnForms.first {
            guard awaiting == nil else { return nil }
            awaiting = (returnForm, page.url)
            var request = SignInRequest(
                url: returnForm.form.action, headers: [("Accept", "application/json")], purpose: .secondFactor)
            request.referrer = page.url
            return .send(request, note: "ask the passkey form's endpoint for its options (JSON)")
        }
        if let (form, clicking) = entry, stepped.insert(page.url).inserted {
            let name = Self.userName(form, state)
            let built = form.submission(name, clicking)
            // A user name typed on the way is a credential too (the user-name rules: any method, the origin rule).
            var request = SignInRequest(
                method: built.method, url: built.url, form: built.method == "POST" ? built.fields : nil,
                purpose: name.isEmpty ? .providerChoice : .username, carriesCredentials: !name.isEmpty)
            request.carriesPassword = false
            return .send(request, note: "choose the passkey sign-in (form \(form.label))")
        }
        return nil
    }

    mutating func decide(onJSON response: SignInResponse, state: inout FlowState) -> StrategyDecision? {
        guard let (returnForm, pageURL) = awaiting, let passkey = state.configuration.passkey else { return nil }
        awaiting = nil
        let json = try? JSONValue.parse(String(decoding: response.body, as: UTF8.self))
        guard let json, let options = Self.requestOptions(in: json) else {
            return .finish(
                .interactionRequired(
                    .passkey, pageId: nil,
                    message: "the passkey form's endpoint gave no passkey options (HTTP \(response.status))"))
        }
        return answer(
            options, into: returnForm, pageURL: pageURL, passkey: passkey,
            allowsHTTPLoopback: state.configuration.policy.allowHTTPLoopback)
    }

    /// The assertion for `options`, in `returnForm`, as the page at `pageURL` would submit it.
    private mutating func answer(
        _ options: PasskeyRequestOptions, into returnForm: PasskeyReturnForm, pageURL: String,
        passkey: PasskeyCredential, allowsHTTPLoopback: Bool
    ) -> StrategyDecision {
        let assertion: JSONValue
        let used: PasskeyCredential
        do {
            (assertion, used) = try SoftwareAuthenticator.assert(
                passkey, options: options,
                origin: try PasskeyOrigin(pageURL: pageURL, allowsHTTPLoopback: allowsHTTPLoopback))
        } catch {
            return .finish(.interactionRequired(.passkey, pageId: nil, message: error.description))
        }
        answered += 1
        let built = returnForm.form.submission(returnForm.fields(for: assertion), nil)
        // The assertion is a credential: in a POST body only, to the page's own origin or an allowed host.
        guard built.method == "POST" else {
            return .finish(
                .interactionRequired(
                    .passkey, pageId: nil,
                    message: "the page would send the passkey's answer in a URL (a GET form); nothing was sent"))
        }
        var request = SignInRequest(
            method: built.method, url: built.url, form: built.fields, purpose: .secondFactor, carriesCredentials: true)
        request.carriesPassword = false
        request.passkeyUsed = used
        return .send(
            request, note: "answer WebAuthn with the passkey for \(used.relyingPartyID) (form \(returnForm.form.label))"
        )
    }

    /// A form to go on with toward the passkey ceremony: a submitter saying passkey, else (on a page whose title
    /// names passkeys) the only form with a button and no password input (its user name is optional). The form and
    /// the submitter to click.
    private static func entry(on page: PageFacts) -> (PageForm, Int?)? {
        for form in page.forms {
            if let index = form.submitters.firstIndex(where: { submitter in
                SignInLexicon.says(
                    .passkey, in: [submitter.name ?? "", submitter.value, submitter.label].joined(separator: " "))
            }) {
                return (form, index)
            }
        }
        let candidates = page.forms.filter {
            $0.passwordField == nil && $0.passwordFieldCount == 0 && !$0.submitters.isEmpty
        }
        guard SignInLexicon.says(.passkey, in: page.title), candidates.count == 1, let form = candidates.first else {
            return nil
        }
        return (form, form.signInSubmitter)
    }

    /// The user name for `form`'s user-name field, when it has one and the sign-in has a name.
    private static func userName(_ form: PageForm, _ state: FlowState) -> [String: String] {
        guard let field = form.userField(for: state.configuration.username), !state.configuration.username.isEmpty
        else { return [:] }
        return [field: state.configuration.username]
    }

    /// The request options in a JSON answer: the object itself, or one nested in it (`{"request_options":
    /// {"publicKey": …}}`), depth first.
    static func requestOptions(in json: JSONValue, depth: Int = 0) -> PasskeyRequestOptions? {
        if let options = PasskeyRequestOptions(json: json) { return options }
        guard depth < 4, let members = json.objectValue else { return nil }
        return members.lazy.compactMap { requestOptions(in: $0.1, depth: depth + 1) }.first
    }
}
