/// How a form is sent.
public enum FormMethod: String, Sendable, Equatable {
    case get = "GET"
    case post = "POST"

    /// The method for a `method`/`formmethod` attribute value (ASCII case-insensitive; invalid → GET).
    static func parse(_ value: String?) -> FormMethod {
        value?.trimmingASCIIWhitespace().lowercased() == "post" ? .post : .get
    }
}

/// How a POST body is encoded.
public enum FormEnctype: String, Sendable, Equatable {
    case urlencoded = "application/x-www-form-urlencoded"
    case multipart = "multipart/form-data"
    case textPlain = "text/plain"

    /// The enctype for an `enctype`/`formenctype` attribute value (invalid or missing → urlencoded).
    static func parse(_ value: String?) -> FormEnctype {
        switch value?.trimmingASCIIWhitespace().lowercased() {
        case "multipart/form-data": .multipart
        case "text/plain": .textPlain
        default: .urlencoded
        }
    }
}

/// One `<option>` of a `<select>`.
public struct SelectOption: Sendable, Equatable {
    /// The value sent: the `value` attribute, else the option's text with whitespace collapsed.
    public let value: String
    /// The option's text, whitespace collapsed.
    public let label: String
    /// The option's selectedness as a browser computes it on load: the `selected` attribute (for a single
    /// select only the last such option), or, for a single select showing one row with none marked, the
    /// first enabled option.
    public let selected: Bool
    /// Disabled itself or through a disabled `<optgroup>`.
    public let disabled: Bool

    /// Makes an option value (tests and fakes).
    public init(value: String, label: String, selected: Bool, disabled: Bool) {
        self.value = value
        self.label = label
        self.selected = selected
        self.disabled = disabled
    }
}

/// One form-associated control (`input`, `select`, `textarea`, `button`) as a plain value.
public struct FormControl: Sendable, Equatable {
    /// `input`, `select`, `textarea` or `button`.
    public let element: String
    /// The effective type, lower-cased: an input's type (unknown or missing → `text`), a button's type
    /// (`submit`, `reset` or `button`; missing or invalid → `submit`), `select-one`/`select-multiple`,
    /// or `textarea`.
    public let type: String
    /// The `name` attribute; nil when absent (such controls are never sent).
    public let name: String?
    /// The `id` attribute.
    public let id: String?
    /// The `value` attribute as written (entity-decoded); nil when absent. For a textarea, its text.
    public let valueAttribute: String?
    /// The `checked` attribute (checkboxes and radio buttons).
    public let checked: Bool
    /// Disabled itself or through a disabled ancestor `<fieldset>` (outside its first legend).
    public let disabled: Bool
    /// The options of a `select`, in tree order.
    public let options: [SelectOption]
    /// The visible text of a `<button>`, whitespace collapsed.
    public let label: String?
    /// The `autocomplete` attribute, lower-cased.
    public let autocomplete: String?
    /// The `inputmode` attribute, lower-cased.
    public let inputMode: String?
    /// Whether the control sits inside `<noscript>` (a scripting browser does not see it).
    public let insideNoscript: Bool
    /// The `formaction`, `formmethod` and `formenctype` attributes of a submit button.
    public let formAction: String?
    /// The submit button's `formmethod` attribute.
    public let formMethod: String?
    /// The submit button's `formenctype` attribute.
    public let formEnctype: String?
    /// Position in the owning form's control list (tree order).
    public let index: Int
    /// What the page calls the control, whitespace collapsed and joined with " | ": its `<label>` (by `for` or
    /// wrapping), `aria-label`, `aria-labelledby` text, `placeholder` and `title`. Nil when it has none.
    public let labelText: String?
    /// The `maxlength` attribute, when it is a number.
    public let maxLength: Int?
    /// The `pattern` attribute.
    public let pattern: String?
    /// `aria-invalid="true"`: the page marks the value as rejected (after a failed post).
    public let ariaInvalid: Bool
    /// A person can neither see nor reach it: hidden by CSS, an attribute or an ancestor, or out of the tab order
    /// (`tabindex="-1"`), as the decoy inputs for bots and password managers are (``Visibility``).
    public let concealed: Bool

    /// The value a browser sends for text-like controls, hidden inputs, buttons and textareas: the value
    /// attribute or the empty string; `on` for checkboxes and radio buttons without one.
    public var value: String {
        if type == "checkbox" || type == "radio" { return valueAttribute ?? "on" }
        return valueAttribute ?? ""
    }

    /// True for controls that can submit the form: `input type=submit|image` and `button type=submit`.
    public var isSubmitButton: Bool { type == "submit" || type == "image" }

    /// True for a hidden input.
    public var isHidden: Bool { element == "input" && type == "hidden" }

    /// True for inputs a user types into (not hidden, not a checkable, not a button or file).
    public var isTextLike: Bool {
        element == "input"
            && !["hidden", "checkbox", "radio", "submit", "image", "button", "reset", "file"].contains(type)
    }

    /// The options a browser considers selected.
    public var selectedOptions: [SelectOption] { options.filter(\.selected) }
}

/// One entry of a form data set.
public struct FormEntry: Sendable, Equatable {
    /// The control name.
    public let name: String
    /// The value, before encoding.
    public let value: String
    /// True for a file input's entry (always empty here: no file is ever chosen offline).
    public let isFile: Bool

    /// Makes an entry.
    public init(name: String, value: String, isFile: Bool = false) {
        self.name = name
        self.value = value
        self.isFile = isFile
    }
}

/// What submitting a form sends: method, absolute URL, ordered entries and the encoded body.
public struct FormSubmission: Sendable, Equatable {
    /// GET or POST (after the submitter's `formmethod`).
    public let method: FormMethod
    /// Absolute target URL; for GET its query was replaced by the encoded entries.
    public let url: String
    /// The entries in tree order (the clicked submitter among them, overrides applied).
    public let entries: [FormEntry]
    /// The enctype used for the body (GET always uses the query).
    public let enctype: FormEnctype
    /// The request body for POST; nil for GET.
    public let body: [UInt8]?
    /// The `Content-Type` header value for POST; nil for GET.
    public let contentType: String?

    /// The body as text (UTF-8); empty for GET.
    public var bodyText: String { body.map { String(decoding: $0, as: UTF8.self) } ?? "" }
}

/// Why a submission could not be built.
public enum FormSubmissionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The control passed as submitter does not belong to this form or cannot submit it.
    case notASubmitter(String)
    /// The action could not be resolved to an absolute URL.
    case unresolvableAction(String)

    /// A message a user can act on.
    public var description: String {
        switch self {
        case .notASubmitter(let detail): "not a submit button of this form: \(detail)"
        case .unresolvableAction(let action): "cannot resolve the form action \"\(action)\" to an absolute URL"
        }
    }
}

/// A `<form>` with the controls a browser assigns to it, as a plain value.
public struct HTMLForm: Sendable, Equatable {
    /// Position among the page's forms, in document order (nested forms a browser ignores are not counted).
    public let index: Int
    /// The `id` attribute.
    public let id: String?
    /// The `name` attribute.
    public let name: String?
    /// The `action` attribute as written (entity-decoded); nil when absent.
    public let action: String?
    /// The `method` attribute, parsed.
    public let method: FormMethod
    /// The `enctype` attribute, parsed.
    public let enctype: FormEnctype
    /// The `onsubmit` attribute, if any.
    public let onSubmit: String?
    /// The page URL and the base URL relative actions resolve against.
    public let documentURL: String
    /// The page's base URL (`<base href>` resolved, else the document URL).
    public let baseURL: String
    /// The controls this form owns, in tree order.
    public let controls: [FormControl]
    /// The form is, or sits in, a `role=search` landmark.
    public let isSearchLandmark: Bool
    /// The page around the form asks for a code and not for a password (its headings and text, by the lexicon):
    /// a password-type input that says nothing of its own is then the code's (a token's passcode after the
    /// password). Set by the page reader only for forms that have such an input.
    public internal(set) var pageAsksForCode = false

    /// The absolute URL the form posts to when no submitter overrides it: an absent or empty action means
    /// the document URL; a relative one resolves against the base URL. Nil when it cannot be resolved.
    public var actionURL: String? { resolveAction(action) }

    func resolveAction(_ value: String?) -> String? {
        let trimmed = value?.trimmingASCIIWhitespace() ?? ""
        if trimmed.isEmpty { return documentURL }
        return URLResolver.resolve(trimmed, against: baseURL)
    }

    /// `type=hidden` inputs with a non-empty name, in tree order.
    public var hiddenFields: [FormControl] { controls.filter { $0.isHidden && !($0.name ?? "").isEmpty } }

    /// Every submit control of the form (`input type=submit|image`, `button` of type submit).
    public var submitButtons: [FormControl] { controls.filter(\.isSubmitButton) }

    /// The control naming a second factor in a form that asks for no code: Duo's `factor` choice (push, call),
    /// or an ADFS `AuthMethod` that is not a first-factor method (an MFA adapter's step). Nil otherwise.
    public var secondFactorChoice: FormControl? {
        let firstFactorMethods: Set<String> = [
            "formsauthentication", "windowsauthentication", "certificateauthentication",
        ]
        return controls.first { control in
            guard !control.disabled, !control.value.isEmpty else { return false }
            switch control.name?.lowercased() {
            case "factor", "preferred_factor": return true
            case "authmethod": return !firstFactorMethods.contains(control.value.lowercased())
            default: return false
            }
        }
    }

    /// Whether a person has nothing to type or choose in the form: no enabled visible input, text area or select.
    public var hasNothingToType: Bool {
        !controls.contains { control in
            !control.disabled && !control.isHidden && !control.isSubmitButton && control.type != "button"
                && control.type != "reset"
        }
    }

    /// Whether every control a browser would send without a click is a hidden input (and there is one).
    public var hasOnlyHiddenFields: Bool {
        let sendable = controls.filter { !$0.isSubmitButton && $0.type != "button" && $0.type != "reset" }
        return !sendable.isEmpty && sendable.allSatisfy(\.isHidden)
    }

    /// Builds what a browser sends when `submitter` (one of `submitButtons`, or nil for a script's
    /// `form.submit()` / implicit submission without a button) submits the form.
    ///
    /// - Parameter overrides: values to fill in, by control name (credentials). They replace the value of
    ///   every text-like, password, hidden, textarea or select control of that name; a checkbox or radio
    ///   button of that name counts as checked exactly when its value equals the override (so
    ///   `["Kmsi": "true"]` ticks `<input type=checkbox name=Kmsi value=true>`). Names no enabled control
    ///   has are appended at the end, sorted by name.
    public func submission(
        clicking submitter: FormControl? = nil, setting overrides: [String: String] = [:], boundary: String? = nil
    ) throws(FormSubmissionError) -> FormSubmission {
        if let submitter {
            guard submitter.index < controls.count, controls[submitter.index] == submitter, submitter.isSubmitButton
            else { throw .notASubmitter(submitter.name ?? submitter.label ?? submitter.value) }
        }
        var entries: [FormEntry] = []
        var used: Set<String> = []
        for control in controls {
            // An image button sends its click coordinates (0,0 offline), even without a name.
            if control.type == "image", control.element == "input", control.index == submitter?.index,
                !control.disabled
            {
                let prefix = (control.name ?? "").isEmpty ? "" : (control.name ?? "") + "."
                entries.append(FormEntry(name: prefix + "x", value: "0"))
                entries.append(FormEntry(name: prefix + "y", value: "0"))
                continue
            }
            guard let name = control.name, !name.isEmpty, !control.disabled else { continue }
            let override = overrides[name]
            if override != nil { used.insert(name) }
            switch control.element {
            case "select":
                if let override {
                    entries.append(FormEntry(name: name, value: override))
                } else {
                    for option in control.selectedOptions where !option.disabled {
                        entries.append(FormEntry(name: name, value: option.value))
                    }
                }
            case "textarea":
                entries.append(FormEntry(name: name, value: override ?? control.value))
            case "button":
                if control.type == "submit", control.index == submitter?.index {
                    entries.append(FormEntry(name: name, value: control.value))
                }
            default:
                switch control.type {
                case "checkbox", "radio":
                    let checked = override.map { $0 == control.value } ?? control.checked
                    if checked { entries.append(FormEntry(name: name, value: control.value)) }
                case "submit":
                    if control.index == submitter?.index { entries.append(FormEntry(name: name, value: control.value)) }
                case "image", "button", "reset":
                    break
                case "file":
                    entries.append(FormEntry(name: name, value: "", isFile: true))
                case "hidden" where name.lowercased() == "_charset_" && control.valueAttribute == nil:
                    entries.append(FormEntry(name: name, value: override ?? "UTF-8"))
                default:
                    entries.append(FormEntry(name: name, value: override ?? control.value))
                }
            }
        }
        for name in overrides.keys.sorted() where !used.contains(name) {
            entries.append(FormEntry(name: name, value: overrides[name]!))
        }

        var method = self.method
        var enctype = self.enctype
        var actionValue = action
        if let submitter {
            if submitter.formAction != nil { actionValue = submitter.formAction }
            if let value = submitter.formMethod { method = FormMethod.parse(value) }
            if let value = submitter.formEnctype { enctype = FormEnctype.parse(value) }
        }
        guard let target = resolveAction(actionValue) else { throw .unresolvableAction(actionValue ?? "") }
        switch method {
        case .get:
            let query = FormEncoding.urlencoded(entries)
            return FormSubmission(
                method: .get, url: URLResolver.replacingQuery(of: target, with: query), entries: entries,
                enctype: .urlencoded, body: nil, contentType: nil)
        case .post:
            switch enctype {
            case .urlencoded:
                return FormSubmission(
                    method: .post, url: target, entries: entries, enctype: enctype,
                    body: Array(FormEncoding.urlencoded(entries).utf8), contentType: enctype.rawValue)
            case .textPlain:
                return FormSubmission(
                    method: .post, url: target, entries: entries, enctype: enctype,
                    body: Array(FormEncoding.textPlain(entries).utf8), contentType: "text/plain;charset=UTF-8")
            case .multipart:
                let boundary = boundary ?? FormEncoding.makeBoundary()
                return FormSubmission(
                    method: .post, url: target, entries: entries, enctype: enctype,
                    body: FormEncoding.multipart(entries, boundary: boundary),
                    contentType: "multipart/form-data; boundary=\(boundary)")
            }
        }
    }
}
