/// What the sign-in machine knows about one page, read by the HTML module. Internal to AuthFlow so the
/// strategies depend on one small shape, whatever the parser offers.
struct PageFacts: Sendable {
    var url: String
    var status: Int
    /// The classifier's kind (`credential-form`, `auto-post`, `aad-config`, `kmsi`, `mfa`, `error`, `refresh`,
    /// `script-redirect`, `other`) and its reason.
    var kind: String
    var reason: String
    var title: String
    var forms: [PageForm]
    /// `$Config` top-level values as text (numbers and booleans spelled as JSON), when the page has one.
    var config: [String: String]?
    /// Names of `$Config` keys whose values are arrays or objects (e.g. `arrUserProofs`).
    var configCompositeKeys: Set<String>
    /// A meta refresh target outside `<noscript>`, absolute.
    var refreshURL: String?
    /// A script redirect target, absolute.
    var scriptRedirectURL: String?
    /// The index of a form that submits itself (script, onload or noscript button).
    var autoSubmitFormIndex: Int?
    /// Visible error text on the page.
    var errorText: String?

    /// The first form with a password field, else the first with a username field.
    var credentialForm: PageForm? {
        forms.first { $0.passwordField != nil } ?? forms.first { $0.usernameField != nil }
    }
}

/// One form on a page, with the HTML module's submission rules behind `submission`.
struct PageForm: Sendable {
    struct Submitter: Sendable {
        var name: String?
        var value: String
        var label: String
    }

    struct Select: Sendable {
        var name: String
        var options: [(value: String, label: String)]
    }

    var index: Int
    var id: String?
    var action: String
    var method: String
    var usernameField: String?
    var passwordField: String?
    /// How many password inputs the form has (two or three mean "choose a new password").
    var passwordFieldCount: Int
    /// Names of all fields the form would send (for traces).
    var fieldNames: [String]
    var submitters: [Submitter]
    var selects: [Select]
    /// The entry list as a browser would send it, with `setting` overriding control values and the
    /// submitter at `clicking` (an index into `submitters`) included; returns method, URL and fields.
    var submission:
        @Sendable (_ setting: [String: String], _ clicking: Int?) -> (
            method: String, url: String, fields: [(name: String, value: String)]
        )

    /// How traces name the form: `#id`, or its position.
    var label: String { id.map { "#\($0)" } ?? "#\(index)" }

    /// The submitter a person would click to sign in: one whose name, value or label says so, else the first.
    var signInSubmitter: Int? {
        let words = ["sign", "log", "submit", "next", "continue", "weiter", "anmelden", "connexion"]
        if let index = submitters.firstIndex(where: { submitter in
            let text = [submitter.name ?? "", submitter.value, submitter.label].joined(separator: " ").lowercased()
            return words.contains { text.contains($0) }
        }) {
            return index
        }
        return submitters.isEmpty ? nil : 0
    }
}
