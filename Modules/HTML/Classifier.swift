/// The kinds of sign-in page, each decided from generic signals (see ``PageClassifier``).
///
/// ``manifestName`` gives the coarser name the shared corpus manifest uses (`credential-form`, `auto-post`,
/// `aad-config`, `kmsi`, `mfa`, `error`, `other`).
public enum PageKind: String, Sendable, Equatable, CaseIterable {
    /// A form asking for the user name and the password.
    case credentialForm = "credential-form"
    /// An identifier-first step: the user name (or e-mail) only.
    case usernameStep = "username-step"
    /// A password-only step (the user name was given on an earlier page).
    case passwordStep = "password-step"
    /// A form of hidden fields the page submits by itself (SAML / WS-Fed / OIDC form_post).
    case autoPost = "auto-post"
    /// A page driven by a script configuration (`$Config`, `ServerData`) with a `urlPost`, no usable form.
    case aadConfig = "aad-config"
    /// "Stay signed in?".
    case kmsi
    /// A form asking for a one-time code (TOTP, SMS, token, PIN+token).
    case oneTimeCode = "one-time-code"
    /// A second factor with nothing to type: push approval or number matching, a security key (WebAuthn), a
    /// choice of device or method.
    case secondFactor = "second-factor"
    /// A page saying the sign-in (or the value just sent) failed.
    case error
    /// A forced password change, or a password that has expired: new-password fields.
    case passwordChange = "password-change"
    /// "Your password expires in N days": a notice with a way to continue.
    case passwordExpiring = "password-expiring"
    /// A notice or consent page with one obvious way on and nothing to type: "release these attributes? Yes,
    /// continue", terms to accept, "Continue".
    case notice
    /// Nothing to act on but the page's own navigation (meta refresh, script redirect), or nothing at all.
    case other

    /// The corpus manifest's name for this kind.
    public var manifestName: String {
        switch self {
        case .credentialForm, .usernameStep, .passwordStep: "credential-form"
        case .autoPost: "auto-post"
        case .aadConfig: "aad-config"
        case .kmsi: "kmsi"
        case .oneTimeCode, .secondFactor: "mfa"
        case .error: "error"
        case .passwordChange, .passwordExpiring, .notice, .other: "other"
        }
    }
}

/// Where a page sends the browser by itself.
public enum PageNavigation: Sendable, Equatable {
    case metaRefresh(url: String, delay: Double)
    case scriptRedirect(url: String)
}

/// A page's kind, the form to act on, the signals behind the decision and a short human reason.
public struct PageClassification: Sendable, Equatable {
    /// The page kind.
    public let kind: PageKind
    /// Index into `HTMLPage.forms` of the form the decision is about.
    public let formIndex: Int?
    /// Why: one short sentence naming the structural evidence.
    public let reason: String
    /// The generic signals that decided it, in the order they were weighed (`autocomplete=one-time-code`,
    /// `aria-invalid=true`, `protocol fields SAMLResponse`…).
    public let signals: [String]
    /// The page's own navigation (followed by a browser without user action), if any.
    public let navigation: PageNavigation?
}

/// Classifies pages by what they contain: HTML semantics, field roles, the protocols' fields, and the words a
/// page shows (``SignInLexicon``), never a vendor's element ids or one page's wording.
public enum PageClassifier {
    /// `$Config` page ids of second-factor steps (Entra ID's protocol, not a page's wording).
    static let mfaPageIDs: Set<String> = [
        "ConvergedTFA", "ConvergedProofUpRedirect", "ConvergedProofs", "ConvergedProofUp", "ConvergedChangePassword",
    ]

    /// Classifies a page. The order of evidence: a script configuration (`$Config`: KMSI, second factor, error,
    /// plain), a password-change form, a second-factor step with no code to type, a hidden-only self-submitting
    /// form, a one-time-code form (an error when its field is marked invalid), a password form (an error when the
    /// page shows one), a username-only step, an error page, a password-expiry notice, then navigation or nothing.
    /// Pure; safe from any thread.
    public static func classify(_ page: HTMLPage) -> PageClassification {
        let navigation: PageNavigation? =
            if let refresh = page.metaRefresh {
                .metaRefresh(url: refresh.url, delay: refresh.delay)
            } else if let target = page.scriptRedirect {
                .scriptRedirect(url: target)
            } else {
                nil
            }
        func result(_ kind: PageKind, _ form: Int?, _ reason: String, _ signals: [String]) -> PageClassification {
            PageClassification(kind: kind, formIndex: form, reason: reason, signals: signals, navigation: navigation)
        }
        let errorSignal = page.errorText.map { "error text shown" + ($0.isEmpty ? "" : ": \($0)") }

        // 1. Script-configured pages (Entra's $Config, Microsoft account's ServerData).
        if let config = page.aadConfig, let urlPost = config.urlPost {
            let pgid = config.pgid ?? "?"
            // The stay-signed-in question (`KmsiInterrupt`, and any page id naming KMSI): read here only, the Entra
            // strategy acts on the kind.
            if pgid.lowercased().contains("kmsi") {
                return result(
                    .kmsi, nil, "$Config page id \(pgid): the stay-signed-in question, posts to urlPost",
                    ["$Config pgid \(pgid)"])
            }
            if mfaPageIDs.contains(pgid) || (!config.proofMethods.isEmpty && config.raw["urlBeginAuth"] != nil) {
                let methods =
                    config.proofMethods.isEmpty ? "" : " (" + config.proofMethods.joined(separator: ", ") + ")"
                return result(
                    .secondFactor, nil, "$Config page id \(pgid) asks for a second factor\(methods)",
                    ["$Config pgid \(pgid)", "$Config proofs"])
            }
            if let text = config.errorText, !text.trimmingASCIIWhitespace().isEmpty {
                let code = config.errorCode.map { ", code \($0)" } ?? ""
                return result(
                    .error, nil, "$Config (page id \(pgid)) carries an error text (sErrTxt\(code))", ["$Config sErrTxt"]
                )
            }
            return result(
                .aadConfig, nil, "script configuration with urlPost \(urlPost) (page id \(pgid))", ["urlPost"])
        }

        // Of several password forms (a token passcode form beside the user + password one), the one that also
        // asks for the user name.
        // A password input that is one by itself beats one read as the sign-in password only because it is a lone
        // "new"-named input beside a user field (a sign-up form above the sign-in form).
        let passwordForms = page.forms.filter { $0.passwordField != nil }
        let passwordForm =
            passwordForms.first { $0.usernameField != nil && $0.hasOwnPasswordField }
            ?? passwordForms.first { $0.hasOwnPasswordField } ?? passwordForms.first { $0.usernameField != nil }
            ?? passwordForms.first
        let codeForm = page.forms.first { $0.codeField != nil && $0.passwordField == nil }

        // 2. A password change: new-password fields (old, new, repeat).
        if let form = page.forms.first(where: { !$0.newPasswordFields.isEmpty }) {
            let names = form.newPasswordFields.compactMap(\.name).joined(separator: ", ")
            return result(
                .passwordChange, form.index, "form \(form.index) asks for a new password (\(names))",
                ["new-password fields: \(names)"] + (errorSignal.map { [$0] } ?? []))
        }

        // 3. A second factor with nothing to type (push, number matching, security key, a choice of methods).
        if passwordForm == nil, codeForm == nil, let (form, signals) = secondFactorWithoutCode(page) {
            return result(
                .secondFactor, form, "a second-factor step with no code to type (\(signals.joined(separator: "; ")))",
                signals)
        }

        // 4. A form of hidden fields the page submits by itself.
        // A load-time script submits its form whatever it holds, even nothing at all (a Kerberos fallback page).
        if passwordForm == nil, let submit = page.selfSubmit,
            page.forms[submit.formIndex].hasOnlyHiddenFields
                || ([.script, .bodyOnload].contains(submit.trigger) && page.forms.allSatisfy(\.hasNothingToType))
        {
            let form = page.forms[submit.formIndex]
            let how =
                switch submit.trigger {
                case .script: "an inline script submits it"
                case .bodyOnload: "body onload submits it"
                case .noscriptButton: "its only submit button sits in <noscript>"
                case .protocolFields: "it carries \(form.protocolFieldNames.joined(separator: ", ")) to post on"
                }
            let fields = form.hiddenFields.compactMap(\.name).joined(separator: ", ")
            let holds = fields.isEmpty ? "has no field" : "has only hidden fields (\(fields))"
            return result(
                .autoPost, form.index, "form \(form.index) \(holds) and \(how)",
                ["hidden-only form", "trigger: \(submit.trigger.rawValue)"]
                    + (form.carriesProtocolMessage
                        ? ["protocol fields: \(form.protocolFieldNames.joined(separator: ", "))"] : []))
        }

        // 5. A one-time code asked for without a password; marked invalid, the code was rejected.
        if passwordForm == nil, let form = codeForm, let field = form.codeField {
            let signal = "code field \"\(field.name ?? "")\": \(field.roleAndSignal?.signal ?? "")"
            if field.ariaInvalid, let error = page.errorText {
                return result(
                    .error, form.index, "the one-time code in \"\(field.name ?? "")\" was rejected: \(error)",
                    [signal, "aria-invalid=true"] + (errorSignal.map { [$0] } ?? []))
            }
            return result(
                .oneTimeCode, form.index, "form \(form.index) asks for a one-time code in \"\(field.name ?? "")\"",
                [signal])
        }

        // 6. Password forms (an error message makes it an error page).
        if let form = passwordForm, let password = form.passwordField {
            let user = form.usernameField
            let fields = [user?.name, password.name].compactMap { $0 }.map { "\"\($0)\"" }.joined(separator: " and ")
            var signals = [
                "password field \"\(password.name ?? "")\": \(form.roleAndSignal(of: password)?.signal ?? "")"
            ]
            if let user {
                signals.append(
                    "user field \"\(user.name ?? "")\": \(user.roleAndSignal?.signal ?? "the only text input before the password")"
                )
            }
            if let error = page.errorText {
                return result(
                    .error, form.index, "login form \(form.index) (\(fields)) with an error message: \(error)",
                    signals + (errorSignal.map { [$0] } ?? []))
            }
            if user == nil {
                return result(
                    .passwordStep, form.index, "form \(form.index) asks for the password only (\(fields))", signals)
            }
            return result(.credentialForm, form.index, "form \(form.index) has a password input: \(fields)", signals)
        }

        // 7. A username-only first step: a form that looks like one (not a search, no text area).
        if let form = page.forms.first(where: { $0.usernameField != nil && !$0.looksLikeSearch && !$0.hasTextArea }),
            let field = form.usernameField
        {
            let signal = "user field \"\(field.name ?? "")\": \(field.roleAndSignal?.signal ?? "")"
            if let error = page.errorText {
                return result(
                    .error, form.index, "username form \(form.index) with an error message: \(error)",
                    [signal] + (errorSignal.map { [$0] } ?? []))
            }
            return result(
                .usernameStep, form.index,
                "form \(form.index) asks for a username in \"\(field.name ?? "")\" (first step)",
                [signal])
        }

        // 8. An error page: an error message and no sign-in form to act on.
        if let error = page.errorText {
            let form = page.forms.first?.index
            return result(
                .error, form, "no sign-in form; the page shows an error: \(error)", errorSignal.map { [$0] } ?? [])
        }

        // 9. A password-expiry notice with a way on.
        if let (form, signal) = passwordExpiryNotice(page) {
            return result(
                .passwordExpiring, form, "a notice that the password expires, with a way to continue", [signal])
        }

        // 10. A second factor to set up first: no field to fill, and the page speaks of enrolling one.
        if let signal = secondFactorEnrolment(page) {
            return result(
                .secondFactor, page.forms.first?.index, "the page asks to set up a second factor first", [signal])
        }

        // 11. A notice or consent page: nothing to type, and exactly one button that says go on.
        if let (form, signal) = noticeWithOneWayOn(page) {
            return result(.notice, form, "a notice or consent page with one way on and nothing to type", [signal])
        }

        // 12. Navigation or nothing recognisable.
        switch navigation {
        case .metaRefresh(let url, let delay):
            return result(
                .other, nil, "no sign-in form; a meta refresh moves on to \(url) after \(delay)s", ["meta refresh"])
        case .scriptRedirect(let url):
            return result(.other, nil, "no sign-in form; a script redirects to \(url)", ["script redirect"])
        case nil:
            return result(
                .other, nil,
                page.forms.isEmpty ? "no form and no redirect" : "no password, code, username or self-submitting form",
                [])
        }
    }

    // MARK: Second factors without a code

    /// A second factor the page waits for or offers a choice of, with its signals; nil otherwise.
    static func secondFactorWithoutCode(_ page: HTMLPage) -> (form: Int?, signals: [String])? {
        // A form naming a second factor (Duo's factor choice, an ADFS MFA adapter's AuthMethod).
        if let form = page.forms.first(where: { $0.secondFactorChoice != nil }), let choice = form.secondFactorChoice {
            return (form.index, ["second-factor choice \(choice.name ?? "")=\(choice.value)"])
        }
        let scripts = page.scripts.joined(separator: "\n")
        // WebAuthn: the page asks the browser for a credential (a security key or passkey), or a form with nothing
        // to type starts that ceremony (its action or fields name WebAuthn, FIDO, U2F or a passkey).
        if scripts.contains("navigator.credentials.get") || scripts.contains("PublicKeyCredential") {
            return (page.forms.first?.index, ["WebAuthn (navigator.credentials)"])
        }
        if page.forms.allSatisfy(\.hasNothingToType),
            let form = page.forms.first(where: { form in
                form.hasNothingToType
                    && ([form.action ?? ""] + form.hiddenFields.compactMap(\.name)).contains { words in
                        ["webauthn", "fido", "fido2", "u2f", "passkey"].contains {
                            SignInLexicon.tokens(of: words).contains($0)
                        }
                    }
            })
        {
            return (form.index, ["WebAuthn (a form with nothing to type starts it)"])
        }
        // A choice of methods or devices: several submitters of one name, labelled with methods.
        for form in page.forms {
            let byName = Dictionary(grouping: form.submitButtons.filter { $0.name != nil }, by: { $0.name ?? "" })
            for (name, buttons) in byName where buttons.count >= 2 && Set(buttons.map(\.value)).count >= 2 {
                let labels = buttons.map { [$0.label ?? "", $0.value].joined(separator: " ") }
                let saysMethod = labels.filter { label in
                    [.code, .device, .approve, .verify].contains { SignInLexicon.says($0, in: label) }
                        || label.lowercased().contains("sms") || label.lowercased().contains("key")
                }
                if saysMethod.count >= 2 {
                    return (form.index, ["\(buttons.count) submitters named \(name), one per method"])
                }
            }
        }
        // Several ways to answer, each its own button (whatever their names): "Send SMS", "Call me", "Push".
        let methodButtons = page.forms.flatMap { form in
            form.submitButtons.filter { button in
                let words = [button.label ?? "", button.value, button.name ?? ""].joined(separator: " ")
                return SignInLexicon.says(.secondFactorMethod, in: words) || SignInLexicon.says(.device, in: words)
            }
        }
        let nothingToTypeAnywhere = page.forms.allSatisfy(\.hasNothingToType)
        if methodButtons.count >= 2, nothingToTypeAnywhere, noticeWithOneWayOn(page) == nil {
            let labels = methodButtons.map { ($0.label ?? $0.value).collapsingWhitespace() }.filter { !$0.isEmpty }
            return (
                page.forms.first?.index,
                ["\(methodButtons.count) buttons, one per method: " + labels.joined(separator: ", ")]
            )
        }
        // A push / number-matching wait: the page tells the user to approve on a device (or shows the number to
        // match), and offers no field.
        let text = page.visibleText
        // The number to match stands out as a heading of two digits (what Entra, Okta, Duo and Google show).
        let showsNumber = page.headings.contains { heading in
            let trimmed = heading.trimmingASCIIWhitespace()
            return trimmed.count == 2 && trimmed.allSatisfy { $0.isASCII && $0.isNumber }
        }
        let approves =
            SignInLexicon.says(.approve, in: text) && (SignInLexicon.says(.device, in: text) || showsNumber)
        let nothingToType = page.forms.allSatisfy { form in
            !form.controls.contains { $0.isTextLike && $0.type != "password" && !$0.disabled }
        }
        // With no form at all (a script polls for the approval), the page's heading or first lines must say it.
        let leading = page.headings + [page.title ?? ""] + text.split(separator: "\n").prefix(6).map(String.init)
        let saysItUpFront =
            leading.contains { SignInLexicon.says(.approve, in: $0) }
            && leading.contains { SignInLexicon.says(.device, in: $0) }
        if approves && nothingToType && (!page.forms.isEmpty || showsNumber || saysItUpFront) {
            return (
                page.forms.first?.index,
                [
                    showsNumber
                        ? "asks to approve on a device, showing a number to match; nothing to type"
                        : "asks to approve on a device; nothing to type"
                ]
            )
        }
        return nil
    }

    /// "Set up two-factor authentication to continue": a page with nothing to type whose headings or first lines
    /// name a second factor and setting it up.
    static func secondFactorEnrolment(_ page: HTMLPage) -> String? {
        guard page.metaRefresh == nil, page.scriptRedirect == nil,
            page.forms.allSatisfy({ form in !form.controls.contains { $0.isTextLike && !$0.disabled } })
        else { return nil }
        if let methods = enrolmentLinks(page), noticeWithOneWayOn(page) == nil {
            return "asks to set up a second factor: links to register " + methods.joined(separator: ", ")
        }
        let lines =
            page.headings + [page.title ?? ""] + page.visibleText.split(separator: "\n").prefix(12).map(String.init)
        guard
            lines.contains(where: { SignInLexicon.says(.secondFactor, in: $0) && SignInLexicon.says(.enroll, in: $0) })
        else { return nil }
        return "asks to set up a second factor (no field to fill)"
    }

    /// A registration page whose words a script writes: links whose paths say enrol or register, beside links or
    /// images naming second-factor methods (TOTP, U2F, WebAuthn…). The methods named, or nil.
    static func enrolmentLinks(_ page: HTMLPage) -> [String]? {
        let paths = page.links.map { URLResolver.components(of: $0).path }
        guard paths.contains(where: { SignInLexicon.says(.enroll, in: $0) }) else { return nil }
        var methods: [String] = []
        for text in paths + page.imageNames {
            for word in SignInLexicon.tokens(of: text)
            where SignInLexicon.says(.secondFactorMethod, in: word) && !methods.contains(word) {
                methods.append(word)
            }
        }
        return methods.isEmpty ? nil : methods
    }

    // MARK: Notices and consent

    /// A page whose forms ask for nothing to be typed (hidden fields, boxes, choices) and offer exactly one submit
    /// button that says go on (continue, accept, allow, agree… in the lexicon's languages) without saying stop
    /// (no, cancel, deny…): the form and what the button says. Nil when there is none, or more than one.
    static func noticeWithOneWayOn(_ page: HTMLPage) -> (form: Int, signal: String)? {
        var found: [(form: Int, label: String)] = []
        for form in page.forms {
            let asksForText = form.controls.contains { control in
                !control.disabled && (control.isTextLike || control.element == "textarea" || control.type == "file")
            }
            guard !asksForText else { continue }
            for button in form.submitButtons {
                let words = [button.label ?? "", button.value, button.name ?? "", button.id ?? ""].joined(
                    separator: " ")
                let goesOn = SignInLexicon.says(.continue, in: words) || SignInLexicon.says(.accept, in: words)
                if goesOn && !SignInLexicon.says(.decline, in: words) {
                    found.append((form.index, (button.label ?? button.value).collapsingWhitespace()))
                }
            }
        }
        guard found.count == 1 else { return nil }
        return (found[0].form, "one way on, nothing to type: \"\(found[0].label)\"")
    }

    // MARK: Password expiry

    /// "Your password expires in N days" with a form to continue: the notice and its form.
    static func passwordExpiryNotice(_ page: HTMLPage) -> (form: Int?, signal: String)? {
        let texts =
            page.headings + [page.title ?? ""] + page.visibleText.split(separator: "\n").prefix(20).map(String.init)
        guard texts.contains(where: { SignInLexicon.says(.expired, in: $0) && SignInLexicon.says(.password, in: $0) })
        else { return nil }
        let form = page.forms.first { form in
            form.submitButtons.contains { SignInLexicon.says(.continue, in: ($0.label ?? "") + " " + $0.value) }
        }
        return form.map { ($0.index, "the page says the password expires; a continue button") }
    }
}
