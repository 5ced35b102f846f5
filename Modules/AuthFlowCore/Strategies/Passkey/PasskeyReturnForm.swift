import HTML
import JSON

/// A page's form that takes a WebAuthn credential back once its script has one (``PasskeyReturnFields``).
struct PasskeyReturnForm {
    let form: PageForm
    let fields: PasskeyReturnFields

    /// The forms of `page` that take a credential back, in page order.
    static func all(on page: PageFacts) -> [PasskeyReturnForm] {
        page.forms.compactMap(PasskeyReturnForm.init(form:))
    }

    init?(form: PageForm) {
        guard let fields = PasskeyReturnFields(hiddenFields: form.hiddenFields) else { return nil }
        self.form = form
        self.fields = fields
    }

    /// The fields to set for `credential` (a `PublicKeyCredential` JSON).
    func fields(for credential: JSONValue) -> [String: String] { fields.values(for: credential) }
}
