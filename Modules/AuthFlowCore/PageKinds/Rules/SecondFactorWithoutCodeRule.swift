import HTML

/// A second factor with nothing to type: a form naming the factor to use, a security key (WebAuthn), a choice of
/// methods or devices, or a push / number-matching wait. Only on a page with no password and no code form.
struct SecondFactorWithoutCodeRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        guard evidence.passwordForm == nil, evidence.codeForm == nil,
            let (form, signals) = Self.secondFactorWithoutCode(evidence.page)
        else { return nil }
        return evidence.classified(
            .secondFactor, form: form, "a second-factor step with no code to type (\(signals.joined(separator: "; ")))",
            signals)
    }

    /// Whether an option's label names a second factor's method or device.
    static func namesMethod(_ label: String) -> Bool {
        [.secondFactorMethod, .device, .code, .approve].contains { SignInLexicon.says($0, in: label) }
    }

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
        // A choice of methods or devices by radio buttons or a list, in a form with nothing to type: two or more of
        // one group's options name a method or a device ("Text message (sms)", "Phone call", "Authenticator app").
        for form in page.forms
        where !form.controls.contains(where: { $0.isTextLike && !$0.disabled && form.isSeen($0) }) {
            let radios = Dictionary(
                grouping: form.controls.filter { $0.type == "radio" && !$0.disabled && $0.name != nil },
                by: { $0.name ?? "" })
            for (name, group) in radios where group.count >= 2 {
                let labels = group.map { [$0.labelText ?? "", $0.value].joined(separator: " ") }
                if labels.filter(namesMethod).count >= 2 {
                    return (form.index, ["\(group.count) choices of \(name), one per method or device"])
                }
            }
            for list in form.controls where list.element == "select" && !list.disabled {
                let labels = list.options.map { $0.label + " " + $0.value }
                if labels.filter(namesMethod).count >= 2 {
                    return (form.index, ["a list of \(list.options.count) methods or devices (\(list.name ?? ""))"])
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
        if methodButtons.count >= 2, nothingToTypeAnywhere, NoticeRule.oneWayOn(page) == nil {
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
        // Approve on what: a device ("your phone"), or a method by its name ("a push notification", "Okta Verify").
        let onSomething = { (text: String) in
            SignInLexicon.says(.device, in: text) || SignInLexicon.says(.secondFactorMethod, in: text)
        }
        let approves = SignInLexicon.says(.approve, in: text) && (onSomething(text) || showsNumber)
        let nothingToType = page.forms.allSatisfy { form in
            !form.controls.contains { $0.isTextLike && $0.type != "password" && !$0.disabled }
        }
        // With no form at all (a script polls for the approval), the page's heading or first lines must say it.
        let leading = page.headings + [page.title ?? ""] + text.split(separator: "\n").prefix(6).map(String.init)
        let saysItUpFront =
            leading.contains { SignInLexicon.says(.approve, in: $0) }
            && leading.contains(where: onSomething)
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
}
