/// The kinds of sign-in page, named as the shared corpus manifest names them.
public enum PageKind: String, Sendable, Equatable, CaseIterable {
    /// A form asking for a password (maybe with a username), or a username-only first step.
    case credentialForm = "credential-form"
    /// A form of hidden fields the page submits by itself (SAML/WS-Fed/OIDC form_post).
    case autoPost = "auto-post"
    /// An Entra ID page driven by `$Config` (with `urlPost`), no usable HTML form.
    case aadConfig = "aad-config"
    /// Entra ID's "stay signed in?" interrupt.
    case kmsi
    /// A second-factor step: one-time-code input, push/factor choice, or `$Config` of a TFA page.
    case mfa
    /// A sign-in page that carries an error message.
    case error
    /// Anything else; `PageClassification.navigation` tells whether the page moves on by itself
    /// (meta refresh, script redirect).
    case other
}

/// Where a page sends the browser by itself.
public enum PageNavigation: Sendable, Equatable {
    case metaRefresh(url: String, delay: Double)
    case scriptRedirect(url: String)
}

/// A page's kind, the form to act on, and a short human reason for the decision.
public struct PageClassification: Sendable, Equatable {
    /// The page kind (the manifest's names).
    public let kind: PageKind
    /// Index into `HTMLPage.forms` of the form the decision is about.
    public let formIndex: Int?
    /// Why: one short sentence naming the structural evidence.
    public let reason: String
    /// The page's own navigation (followed by a browser without user action), if any.
    public let navigation: PageNavigation?
}

extension FormControl {
    /// A one-time-code input: `autocomplete=one-time-code`, or a visible text-like input whose name or id
    /// says otp/totp/passcode/code/pin (numeric `inputmode` alone is not enough).
    public var isCodeField: Bool {
        guard element == "input", isTextLike, type != "password" || autocomplete == "one-time-code" else {
            return false
        }
        if autocomplete == "one-time-code" { return true }
        let codeWords: Set<String> = [
            "otp", "totp", "hotp", "passcode", "code", "pin", "otc", "mfa", "tfa", "2fa", "token", "oathcode",
            "verificationcode", "smscode",
        ]
        return [name ?? "", id ?? ""].contains { FormControl.words(in: $0).contains { codeWords.contains($0) } }
    }

    /// Splits an identifier into lower-case words at punctuation and camelCase boundaries.
    static func words(in identifier: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        for character in identifier {
            if !(character.isLetter || character.isNumber) {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                previousLower = false
                continue
            }
            if character.isUppercase && previousLower {
                words.append(current.lowercased())
                current = ""
            }
            current.append(character)
            previousLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }
}

/// Classifies pages by what they contain, not by vendor strings.
public enum PageClassifier {
    /// `$Config` page ids of second-factor steps.
    static let mfaPageIDs: Set<String> = [
        "ConvergedTFA", "ConvergedProofUpRedirect", "ConvergedProofs", "ConvergedProofUp", "ConvergedChangePassword",
    ]

    /// Classifies a page. Order of evidence: `$Config` (KMSI, second factor, error, plain), a second-factor
    /// choice without a code field, a hidden-only self-submitting form, a one-time-code form, a password form
    /// (error when the page shows an error message), a username-only form, then navigation or nothing. Pure; safe
    /// from any thread.
    public static func classify(_ page: HTMLPage) -> PageClassification {
        let navigation: PageNavigation? =
            if let refresh = page.metaRefresh {
                .metaRefresh(url: refresh.url, delay: refresh.delay)
            } else if let target = page.scriptRedirect {
                .scriptRedirect(url: target)
            } else {
                nil
            }
        func result(_ kind: PageKind, _ form: Int?, _ reason: String) -> PageClassification {
            PageClassification(kind: kind, formIndex: form, reason: reason, navigation: navigation)
        }

        let passwordForm = page.forms.first { $0.passwordField != nil }
        let codeForm = page.forms.first { $0.codeField != nil && $0.passwordField == nil }

        // 1. Entra ID $Config pages.
        if let config = page.aadConfig, let urlPost = config.urlPost {
            let pgid = config.pgid ?? "?"
            if pgid == "KmsiInterrupt" {
                return result(
                    .kmsi, nil, "$Config page id KmsiInterrupt: the stay-signed-in question, posts to urlPost")
            }
            if mfaPageIDs.contains(pgid) || (!config.proofMethods.isEmpty && config.raw["urlBeginAuth"] != nil) {
                let methods =
                    config.proofMethods.isEmpty ? "" : " (" + config.proofMethods.joined(separator: ", ") + ")"
                return result(.mfa, nil, "$Config page id \(pgid) asks for a second factor\(methods)")
            }
            if let text = config.errorText, !text.trimmingASCIIWhitespace().isEmpty {
                let code = config.errorCode.map { ", code \($0)" } ?? ""
                return result(.error, nil, "$Config (page id \(pgid)) carries an error text (sErrTxt\(code))")
            }
            return result(.aadConfig, nil, "$Config object with urlPost \(urlPost) (page id \(pgid))")
        }

        // 2. A second-factor step without a code field (push, call, an MFA adapter), even if it posts itself
        //    (adapters poll by re-posting their form): nothing a headless client can answer.
        if passwordForm == nil, codeForm == nil,
            let form = page.forms.first(where: { $0.secondFactorChoice != nil }),
            let choice = form.secondFactorChoice
        {
            return result(
                .mfa, form.index,
                "form \(form.index) is a second-factor step (\(choice.name ?? "")=\(choice.value)) with no code field")
        }

        // 3. A form of hidden fields the page submits by itself.
        if passwordForm == nil, let submit = page.selfSubmit, page.forms[submit.formIndex].hasOnlyHiddenFields {
            let form = page.forms[submit.formIndex]
            let how =
                switch submit.trigger {
                case .script: "an inline script submits it"
                case .bodyOnload: "body onload submits it"
                case .noscriptButton: "its only submit button sits in <noscript>"
                }
            return result(
                .autoPost, form.index,
                "form \(form.index) has only hidden fields (\(form.hiddenFields.compactMap(\.name).joined(separator: ", "))) and \(how)"
            )
        }

        // 4. A one-time code asked for without a password.
        if passwordForm == nil, let form = codeForm, let field = form.codeField {
            return result(.mfa, form.index, "form \(form.index) asks for a one-time code in \"\(field.name ?? "")\"")
        }

        // 5. Password forms (an error message makes it an error page).
        if let form = passwordForm {
            let fields = [form.usernameField?.name, form.passwordField?.name].compactMap { $0 }
                .map { "\"\($0)\"" }.joined(separator: " and ")
            if let error = page.errorText {
                return result(
                    .error, form.index, "login form \(form.index) (\(fields)) with an error message: \(error)")
            }
            return result(.credentialForm, form.index, "form \(form.index) has a password input: \(fields)")
        }

        // 6. A username-only first step.
        if let form = page.forms.first(where: { $0.usernameField != nil }), let field = form.usernameField {
            if let error = page.errorText {
                return result(.error, form.index, "username form \(form.index) with an error message: \(error)")
            }
            return result(
                .credentialForm, form.index,
                "form \(form.index) asks for a username in \"\(field.name ?? "")\" (first step)")
        }

        // 7. Navigation or nothing recognisable (an error message without a sign-in form is only reported).
        let shown = page.errorText.map { "; the page shows an error: \($0)" } ?? ""
        switch navigation {
        case .metaRefresh(let url, let delay):
            return result(.other, nil, "no sign-in form; a meta refresh moves on to \(url) after \(delay)s" + shown)
        case .scriptRedirect(let url):
            return result(.other, nil, "no sign-in form; a script redirects to \(url)" + shown)
        case nil where !shown.isEmpty:
            return result(.other, nil, "no sign-in form" + shown)
        case nil:
            return result(
                .other, nil,
                page.forms.isEmpty ? "no form and no redirect" : "no password, code, username or self-submitting form")
        }
    }
}
