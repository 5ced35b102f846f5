/// What a sign-in field asks for, decided from generic signals: the `autocomplete` token, the input type,
/// `inputmode`/`maxlength`/`pattern` of a short code, and the words of its name, id and labels
/// (``SignInLexicon``). A password-type input whose name or label says code is a code field, never the password.
public enum FieldRole: String, Sendable, Equatable, CaseIterable {
    /// The user name or e-mail address.
    case username
    /// The account's current password.
    case password
    /// A new password (or its confirmation) on a password-change form.
    case newPassword = "new-password"
    /// A one-time code: TOTP, SMS, e-mail, token, PIN+token.
    case oneTimeCode = "one-time-code"
}

extension FormControl {
    /// The role of this control in a sign-in, or nil for anything else (search boxes, checkboxes, buttons).
    public var role: FieldRole? { roleAndSignal?.role }

    /// The role and the signal that decided it (for `inspect` and traces).
    public var roleAndSignal: (role: FieldRole, signal: String)? {
        guard isTextLike, !(name ?? "").isEmpty, type != "search" else { return nil }
        let tokens = Set((autocomplete ?? "").split(separator: " ").map(String.init))
        if tokens.contains("one-time-code") { return (.oneTimeCode, "autocomplete=one-time-code") }
        if tokens.contains("new-password") { return (.newPassword, "autocomplete=new-password") }
        let identifiers = [name ?? "", id ?? ""].joined(separator: " ")
        let labels = labelText ?? ""
        let saysCode = SignInLexicon.says(.code, in: identifiers) || SignInLexicon.says(.code, in: labels)
        let saysPassword =
            SignInLexicon.says(.password, in: identifiers) || SignInLexicon.says(.password, in: labels)
        if type == "password" {
            let codeByName = SignInLexicon.says(.code, in: identifiers)
            let codeByLabel = SignInLexicon.says(.code, in: labels) && !SignInLexicon.says(.password, in: labels)
            if codeByName || codeByLabel {
                return (.oneTimeCode, "a password-type input named or labelled as a code")
            }
            if tokens.contains("current-password") { return (.password, "autocomplete=current-password") }
            if SignInLexicon.says(.newPassword, in: identifiers) || SignInLexicon.says(.newPassword, in: labels) {
                return (.newPassword, "a password input named or labelled new/confirm")
            }
            return (.password, "input type=password")
        }
        if tokens.contains("username") { return (.username, "autocomplete=username") }
        if tokens.contains("email") || type == "email" { return (.username, "an e-mail input") }
        if saysCode && !saysPassword { return (.oneTimeCode, "an input named or labelled as a code") }
        if isShortNumericEntry { return (.oneTimeCode, "a short numeric entry (inputmode/pattern/maxlength)") }
        if ["text", "tel", "url"].contains(type),
            SignInLexicon.says(.user, in: identifiers) || SignInLexicon.says(.user, in: labels)
        {
            return (.username, "an input named or labelled as the user name")
        }
        return nil
    }

    /// A password-type input whose name, id, labels and `autocomplete` (none, or `off`) say nothing: neither password
    /// nor code.
    var isBarePasswordInput: Bool {
        guard type == "password", ["", "off"].contains(autocomplete ?? "") else { return false }
        let words = [name ?? "", id ?? "", labelText ?? ""]
        return !words.contains { SignInLexicon.says(.password, in: $0) || SignInLexicon.says(.code, in: $0) }
    }

    /// A numeric entry of code length: `inputmode=numeric` or a digits-only `pattern`, with a `maxlength`
    /// of 4 to 10. (Numeric input mode alone is not enough: phone numbers and PINs of other kinds use it too.)
    var isShortNumericEntry: Bool {
        let numeric =
            inputMode == "numeric" || inputMode == "decimal"
            || (pattern.map { $0.contains("0-9") || $0.contains("\\d") } ?? false) || type == "number"
        guard numeric, let maxLength else { return false }
        return (4...10).contains(maxLength)
    }
}

extension HTMLForm {
    /// The controls with a sign-in role, in tree order (enabled ones only).
    public var roledControls: [(control: FormControl, role: FieldRole)] {
        let roles = controlRoles
        guard let lone = loneNewNamedPassword(in: roles) else { return roles }
        return roles.map { $0.control.index == lone.index ? ($0.control, .password) : $0 }
    }

    /// Whether the form has a current-password input by that input's own signals (not only as a lone "new"-named
    /// input beside a user field).
    public var hasOwnPasswordField: Bool { controlRoles.contains { $0.role == .password } }

    /// Each enabled control's own role, judged alone; a concealed control has none where a person sees another
    /// input of the form (``isSeen(_:)``), and a bare password-type input is the code's where the page asks for
    /// one (``isCodeByPage(_:)``).
    private var controlRoles: [(control: FormControl, role: FieldRole)] {
        let decoysPossible = hasSeenInput
        return controls.compactMap { control in
            guard !control.disabled, !(decoysPossible && control.concealed), let role = control.role else {
                return nil
            }
            return (control, isCodeByPage(control) ? .oneTimeCode : role)
        }
    }

    /// A password-type input that says nothing of itself (no password or code word in its name, id or labels, no
    /// `autocomplete`), in a form where a person sees no user name to type (the user is known already: carried
    /// hidden, shown disabled, or not asked), on a page that asks for a code and not for a password
    /// (``pageAsksForCode``): "Enter the passcode shown on your token" above a "Response" field.
    func isCodeByPage(_ control: FormControl) -> Bool {
        guard pageAsksForCode, control.type == "password", control.isBarePasswordInput else { return false }
        return !controls.contains { other in
            other.index != control.index && other.isTextLike && other.type != "password" && !other.disabled
                && isSeen(other)
        }
    }

    /// Whether a person sees at least one enabled input to type into here.
    private var hasSeenInput: Bool { controls.contains { $0.isTextLike && !$0.disabled && !$0.concealed } }

    /// Whether the sign-in treats `control` as something a person fills: not concealed (``FormControl/concealed``),
    /// unless the whole form is (a form its script reveals on load hides every input alike). A concealed password
    /// input beside a visible user field is a decoy, and the password never goes there.
    public func isSeen(_ control: FormControl) -> Bool { !control.concealed || !hasSeenInput }

    /// The password inputs a person sees, in tree order (decoys left out).
    public var seenPasswordInputs: [FormControl] {
        controls.filter { $0.element == "input" && $0.type == "password" && isSeen($0) }
    }

    /// A password input called "new" only by its words (`NewLoginPassword`), when it is the form's one password
    /// input and the form asks for the user name too: a sign-in, since a password change asks for the new
    /// password twice (or says so with `autocomplete=new-password`).
    private func loneNewNamedPassword(in roles: [(control: FormControl, role: FieldRole)]) -> FormControl? {
        let passwordInputs = seenPasswordInputs.filter { !$0.disabled }
        guard passwordInputs.count == 1, let only = passwordInputs.first,
            !(only.autocomplete ?? "").split(separator: " ").contains("new-password"),
            roles.contains(where: { $0.control.index == only.index && $0.role == .newPassword }),
            roles.contains(where: { $0.role == .username })
        else { return nil }
        return only
    }

    /// The role of `control` in this form and the signal behind it: ``FormControl/roleAndSignal``, except where
    /// the form as a whole decides (a lone "new"-named password beside a user field is the sign-in password).
    public func roleAndSignal(of control: FormControl) -> (role: FieldRole, signal: String)? {
        if isCodeByPage(control) {
            return (.oneTimeCode, "a bare password-type input where the page asks for a code, the user known")
        }
        if let lone = loneNewNamedPassword(in: controlRoles),
            lone.index == control.index
        {
            return (.password, "the form's only password input, beside a user field (a change asks twice)")
        }
        return control.roleAndSignal
    }

    /// The current-password input of a sign-in form; nil on a password-change form (one with new-password
    /// inputs: its "old password" is not where the sign-in password goes).
    public var passwordField: FormControl? {
        let roles = roledControls
        guard !roles.contains(where: { $0.role == .newPassword }) else { return nil }
        return roles.first { $0.role == .password }?.control
    }

    /// The new-password inputs (and confirmations) of a password-change form.
    public var newPasswordFields: [FormControl] { roledControls.filter { $0.role == .newPassword }.map(\.control) }

    /// The user-name input: one with the username role; on a form with a password input, else the only
    /// visible text input before it (the classic "user ID + password" pair, whatever its name).
    public var usernameField: FormControl? {
        let roles = roledControls
        if let user = roles.first(where: { $0.role == .username }) { return user.control }
        // The pair without a recognisable name: not when the user name is already carried hidden (a password
        // step beside some other field), and never a search box.
        guard let password = passwordField,
            !hiddenFields.contains(where: { SignInLexicon.says(.user, in: $0.name ?? "") })
        else { return nil }
        let before = controls.filter {
            $0.index < password.index && $0.isTextLike && $0.type != "password" && !$0.disabled && isSeen($0)
                && !($0.name ?? "").isEmpty && $0.role == nil
                && !["q", "query", "search", "s"].contains(($0.name ?? "").lowercased())
        }
        return before.count == 1 ? before[0] : nil
    }

    /// Every input with the user-name role, in form order (a form may ask for an e-mail address or a user name).
    public var usernameFields: [FormControl] { roledControls.filter { $0.role == .username }.map(\.control) }

    /// The one-time-code input, if any.
    public var codeField: FormControl? { roledControls.first { $0.role == .oneTimeCode }?.control }

    /// The "remember me" / "keep me signed in" checkbox of a sign-in form: a checkbox whose name, id or label says
    /// so, and not "remember my user name" (which keeps a name, not a session).
    public var staySignedInCheckbox: FormControl? {
        controls.first { control in
            guard control.type == "checkbox", !control.disabled, control.name != nil else { return false }
            let words = [control.name, control.id, control.labelText].compactMap { $0 }
            return words.contains { SignInLexicon.says(.staySignedIn, in: $0) }
                && !words.contains { SignInLexicon.says(.user, in: $0) }
        }
    }

    /// Whether the form is a search box (`role=search`, a search input, or a GET form whose only input is
    /// `q`/`query`/`search`): never given a user name.
    public var looksLikeSearch: Bool {
        if isSearchLandmark { return true }
        if controls.contains(where: { $0.type == "search" }) { return true }
        let visible = controls.filter { $0.isTextLike }
        return method == .get && visible.count == 1
            && ["q", "query", "search", "s", "keyword", "keywords"].contains((visible[0].name ?? "").lowercased())
    }

    /// Whether a person would have to write more than a name here (a `<textarea>`: feedback, error reports).
    public var hasTextArea: Bool { controls.contains { $0.type == "textarea" && !$0.disabled } }
}

extension HTMLForm {
    /// The hidden fields of a protocol's message: SAML (`SAMLResponse`, `SAMLRequest`), WS-Federation
    /// (`wresult`), OAuth/OIDC `form_post` (`id_token`, `access_token`, or `code`/`error` with `state`).
    public var protocolFieldNames: [String] {
        let names = Set(hiddenFields.compactMap(\.name))
        var found = ["SAMLResponse", "SAMLRequest", "wresult", "id_token", "access_token"].filter(names.contains)
        if !names.isDisjoint(with: ["state", "session_state"]) {
            found += ["code", "error"].filter(names.contains)
        }
        return found
    }

    /// Whether the form carries a protocol's message (``protocolFieldNames`` is not empty).
    public var carriesProtocolMessage: Bool { !protocolFieldNames.isEmpty }
}
