import HTML
import JSON

/// What the sign-in machine knows about one page, read by the HTML module. Internal to AuthFlow so the
/// strategies depend on one small shape, whatever the parser offers.
struct PageFacts: Sendable {
    var url: String
    var status: Int
    /// The classifier's kind, the form it is about, its reason and the signals behind it.
    var kind: PageKind
    var formIndex: Int?
    var reason: String
    var signals: [String]
    var title: String
    var forms: [PageForm]
    /// The page's script configuration (`$Config`, `ServerData`) as the JSON it is, when the page has one.
    var config: AADConfig?
    /// The refresh a browser would act on: the HTTP `Refresh` header when the response has one (a browser
    /// sees it before the document, and a meta refresh after it is ignored), else the first meta refresh
    /// outside `<noscript>`.
    var refresh: Refresh?
    /// A script redirect target, absolute.
    var scriptRedirectURL: String?
    /// The index of a form that submits itself (script, onload or noscript button).
    var autoSubmitFormIndex: Int?
    /// Visible error text on the page: the first of ``errorMessages``.
    var errorText: String?
    /// Every message the page shows in an error container or under an error heading, in page order.
    var errorMessages: [String] = []
    /// Those of ``errorMessages`` shown as errors rather than notices.
    var severeErrorMessages: [String] = []
    /// The WebAuthn options the page carries for its scripts (objects with a `challenge`), in page order.
    var passkeyOptions: [JSONValue] = []

    /// A page's own refresh: its absolute target, its delay in seconds, and whether the header said it.
    struct Refresh: Sendable, Equatable {
        var url: String
        var delay: Double
        var fromHeader: Bool

        /// Where it comes from, for traces and messages.
        var source: String { fromHeader ? "Refresh header" : "meta refresh" }
        /// The delay as a person writes it: "0 s", "300 s", "2.5 s".
        var delayText: String {
            (delay == delay.rounded() && delay < 1e9 ? String(Int(delay)) : String(delay)) + " s"
        }
        /// Whether the engine follows it: only a short delay, as a person watching the page would see it move on.
        var isFollowed: Bool { delay <= Self.longestFollowedDelay }

        /// The longest delay followed (seconds). Interstitials ("Working…", "you are being signed in") move on
        /// at 0 to 5 s; a session-timeout or keep-alive page refreshes after minutes to its logout page, which a
        /// browser only reaches if nobody acts, so following it at once would sign the user out.
        static let longestFollowedDelay: Double = 10
    }

    /// The sign-in form the classifier chose, on pages that ask for the user name and/or password (or that
    /// show an error on such a form). Nil on every other page: the engine never fills a form that is not a
    /// sign-in form (error reports, feedback, search, consent).
    var credentialForm: PageForm? {
        guard [.credentialForm, .usernameStep, .passwordStep, .error].contains(kind), let formIndex,
            let form = forms.first(where: { $0.index == formIndex }), form.isSignInForm
        else { return nil }
        return form
    }

    /// The code field of the chosen form, on a one-time-code page (or a code page showing the refusal).
    var codeField: String? { chosenForm?.codeField }

    /// What the page calls its code field (label or placeholder), for a prompt.
    var codeLabel: String? { chosenForm?.codeLabel }

    /// The form the classifier chose, whatever the kind.
    var chosenForm: PageForm? { formIndex.flatMap { index in forms.first { $0.index == index } } }
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
    /// The user-name inputs that take only an e-mail address (`type=email`, `autocomplete=email`), when the form has
    /// another user-name input beside them.
    var emailOnlyUserFields: [String] = []
    /// The form's other user-name input, beside an e-mail-only one.
    var otherUserField: String?
    var passwordField: String?
    /// The one-time-code input and what the page calls it.
    var codeField: String?
    var codeLabel: String?
    /// The "remember me" / "keep me signed in" checkbox and the value it sends when checked.
    var staySignedInField: (name: String, value: String)?
    /// How many password inputs the form has (two or three mean "choose a new password").
    var passwordFieldCount: Int
    /// Whether a person would sign in with it: a password input, or a user-name input in a form that is no search
    /// box and asks for nothing longer (an error page's "report this problem" form with an e-mail box and a text
    /// area is not one).
    var isSignInForm: Bool = true
    /// Names of all fields the form would send (for traces).
    var fieldNames: [String]
    /// The hidden inputs with a name, and their values (a script fills some of them before it submits the form).
    var hiddenFields: [(name: String, value: String)] = []
    var submitters: [Submitter]
    var selects: [Select]
    /// The entry list as a browser would send it, with `setting` overriding control values and the
    /// submitter at `clicking` (an index into `submitters`) included; returns method, URL and fields.
    var submission:
        @Sendable (_ setting: [String: String], _ clicking: Int?) -> (
            method: String, url: String, fields: [(name: String, value: String)]
        )

    /// Whether a person reads `submitter` as "continue" (next, proceed, OK, later… in the lexicon's languages).
    static func isContinue(_ submitter: Submitter) -> Bool {
        SignInLexicon.says(
            .continue, in: [submitter.name ?? "", submitter.value, submitter.label].joined(separator: " "))
    }

    /// Whether `submitter` goes on (continue, accept, allow… in the lexicon's languages) without declining.
    static func isWayOn(_ submitter: Submitter) -> Bool {
        let words = [submitter.name ?? "", submitter.value, submitter.label].joined(separator: " ")
        return (SignInLexicon.says(.continue, in: words) || SignInLexicon.says(.accept, in: words))
            && !SignInLexicon.says(.decline, in: words)
    }

    /// The user-name input for `user`: a name without `@` goes to the user-name input beside an e-mail-only one (a
    /// form with both fills either); else ``usernameField``.
    func userField(for user: String) -> String? {
        guard let usernameField, emailOnlyUserFields.contains(usernameField), !user.contains("@") else {
            return usernameField
        }
        return otherUserField ?? usernameField
    }

    /// How traces name the form: `#id`, or its position.
    var label: String { id.map { "#\($0)" } ?? "#\(index)" }

    /// The submitter a person would click to sign in: the first whose name, value or label says sign in, else one
    /// that says continue (``SignInLexicon``), else the first.
    var signInSubmitter: Int? {
        for concept in [SignInLexicon.Concept.signIn, .continue] {
            if let index = submitters.firstIndex(where: { submitter in
                SignInLexicon.says(
                    concept, in: [submitter.name ?? "", submitter.value, submitter.label].joined(separator: " "))
            }) {
                return index
            }
        }
        return submitters.isEmpty ? nil : 0
    }
}
