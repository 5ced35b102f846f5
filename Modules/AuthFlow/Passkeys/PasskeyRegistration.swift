import AuthFlowCore
import Foundation
import HTML
import JSON
public import Transport

/// Registers a new software passkey with a relying party's own registration page, in a session that is signed in
/// there (the client's cookies): the way a person would click through it. The page (or the page its first form
/// leads to) carries WebAuthn creation options for its script; the passkey is made for them, saved to its file
/// (never over an existing one) before anything is sent, and the form that takes the credential back is
/// submitted. A relying party that shows the ceremony again, or an error, refused it: the file is removed.
///
/// Reports each step to `progress`; prints nothing.
public struct PasskeyRegistration: Sendable {
    /// The relying party's registration page (where a person adds a passkey or security key).
    public let pageURL: String
    /// Where the new passkey is saved (must not exist yet).
    public let file: PasskeyFile
    /// The name the passkey gets at the relying party (its "name" or "nickname" field).
    public let name: String
    /// Values for the registration form's own fields, by name, over what the engine would choose.
    public let fields: [String: String]

    /// A registration at `pageURL`, saved to `file`.
    public init(pageURL: String, file: PasskeyFile, name: String = "spconnect", fields: [String: String] = [:]) {
        self.pageURL = pageURL
        self.file = file
        self.name = name
        self.fields = fields
    }

    /// Goes through the registration with `client` (holding the session) and returns the saved passkey.
    public func run(client: HTTPClient, progress: @Sendable (String) -> Void = { _ in })
        async throws(PasskeyRegistrationError) -> PasskeyCredential
    {
        var response = try await exchange(client, HTTPRequest(url: pageURL))
        var submitted: Set<String> = []
        for _ in 0..<4 {
            guard let page = try? HTMLPage(bytes: response.body, url: response.url) else {
                throw .noCeremony("\(Redaction.url(response.url)) is not an HTML page (HTTP \(response.status))")
            }
            if page.forms.contains(where: { $0.passwordField != nil }) {
                throw .notSignedIn(Redaction.url(response.url))
            }
            if let options = page.passkeyOptions.lazy.compactMap(PasskeyCreationOptions.init(json:)).first,
                let (form, returnFields) = Self.returnForm(on: page)
            {
                return try await register(options, page: page, form: form, returnFields, client, progress)
            }
            // Only a form of a passkey page (its title or headings name passkeys, or the form's button does): on an
            // account page, another form may sign out or remove something.
            guard let form = Self.registrationForm(on: page, notIn: submitted) else {
                throw .noCeremony(
                    "\(Redaction.url(response.url)) carries no passkey registration (no WebAuthn creation options)")
            }
            submitted.insert(form.actionURL ?? "")
            progress("fill in the registration form at \(Redaction.url(response.url))")
            response = try await submit(form, setting: choices(for: form), client)
        }
        throw .noCeremony("no page on the way carried WebAuthn creation options")
    }

    /// Makes the passkey for `options`, saves it, and submits it in `form`.
    private func register(
        _ options: PasskeyCreationOptions, page: HTMLPage, form: HTMLForm, _ returnFields: PasskeyReturnFields,
        _ client: HTTPClient, _ progress: @Sendable (String) -> Void
    ) async throws(PasskeyRegistrationError) -> PasskeyCredential {
        let made = try Self.makeAndKeep(options, originOf: page.url, in: file)
        progress("passkey for \(made.credential.relyingPartyID) saved to \(file.path); sending it")
        var setting = choices(for: form)
        for (field, value) in returnFields.values(for: made.response) { setting[field] = value }
        let answer: HTTPResponse
        do {
            answer = try await submit(form, setting: setting, client)
        } catch {
            // The site may have stored it before the answer was lost: the file is kept.
            throw .unconfirmed(path: file.path, reason: "\(error)")
        }
        let after = try? HTMLPage(bytes: answer.body, url: answer.url)
        let words = after?.severeErrorMessages.first
        if !(200...399).contains(answer.status) || words != nil {
            throw .refused(
                words ?? after?.errorText ?? "HTTP \(answer.status) at \(Redaction.url(answer.url))",
                fileRemoved: Self.discard(file))
        }
        if let after, !after.passkeyOptions.compactMap(PasskeyCreationOptions.init(json:)).isEmpty {
            throw .unconfirmed(path: file.path, reason: "the site shows its passkey ceremony again, with no error")
        }
        return made.credential
    }

    /// A new passkey for `options` at the origin of `originOf`, saved to `file` (never over an existing one) before
    /// anything is sent: a registered passkey is never lost. The credential and the registration response.
    static func makeAndKeep(_ options: PasskeyCreationOptions, originOf url: String, in file: PasskeyFile)
        throws(PasskeyRegistrationError) -> (credential: PasskeyCredential, response: JSONValue)
    {
        let made: (credential: PasskeyCredential, response: JSONValue)
        do {
            made = try SoftwareAuthenticator.register(options: options, origin: try PasskeyOrigin(pageURL: url))
        } catch {
            throw .passkey(error.description)
        }
        do {
            try file.save(made.credential, replacing: false)
        } catch {
            throw .file(error)
        }
        return made
    }

    /// Removes a passkey the site refused; whether it is gone.
    static func discard(_ file: PasskeyFile) -> Bool {
        (try? FileManager.default.removeItem(atPath: file.path)) != nil
    }

    /// The form that takes the credential back, and how.
    private static func returnForm(on page: HTMLPage) -> (HTMLForm, PasskeyReturnFields)? {
        for form in page.forms {
            let hidden = form.hiddenFields.compactMap { field in field.name.map { (name: $0, value: field.value) } }
            if let fields = PasskeyReturnFields(hiddenFields: hidden) { return (form, fields) }
        }
        return nil
    }

    /// The form that goes on toward the ceremony: a form whose button names passkeys, else, on a page whose title or
    /// headings name passkeys, the only form not yet submitted that has a button and no password.
    private static func registrationForm(on page: HTMLPage, notIn submitted: Set<String>) -> HTMLForm? {
        let candidates = page.forms.filter {
            !$0.isSearchLandmark && $0.passwordField == nil && !$0.submitButtons.isEmpty
                && !submitted.contains($0.actionURL ?? "") && !Self.undoes($0)
        }
        if let named = candidates.first(where: { form in
            form.submitButtons.contains { button in
                SignInLexicon.says(
                    .passkey,
                    in: [button.name, button.valueAttribute, button.label].compactMap { $0 }.joined(separator: " "))
            }
        }) {
            return named
        }
        let pageNamesPasskeys = ([page.title ?? ""] + page.headings).contains { SignInLexicon.says(.passkey, in: $0) }
        return pageNamesPasskeys && candidates.count == 1 ? candidates[0] : nil
    }

    /// What the registration form gets: the passkey's name in an empty text field, a tick for a box or option that
    /// makes it a sign-in passkey (passwordless, passkey, first factor), then the user's own `fields`.
    private func choices(for form: HTMLForm) -> [String: String] {
        var setting: [String: String] = [:]
        for control in form.controls where !control.disabled {
            guard let field = control.name, !field.isEmpty else { continue }
            let words = [field, control.labelText ?? "", control.valueAttribute ?? ""].joined(separator: " ")
            if control.isTextLike, control.type != "password", control.value.isEmpty, setting[field] == nil,
                Self.namesTheKey(words)
            {
                setting[field] = name
            } else if control.type == "checkbox" || control.type == "radio",
                Self.makesSignInPasskey(words)
            {
                setting[field] = control.valueAttribute ?? "on"
            }
        }
        return setting.merging(fields) { _, given in given }
    }

    /// Whether a form takes something away (deletes, removes, revokes, signs out, declines): never submitted here.
    private static func undoes(_ form: HTMLForm) -> Bool {
        let words =
            ([form.actionURL ?? "", form.id ?? "", form.name ?? ""]
            + form.submitButtons.flatMap { [$0.name, $0.valueAttribute, $0.label].compactMap { $0 } })
            .joined(separator: " ")
        let lowered = words.lowercased()
        return ["delete", "remove", "revoke", "logout", "signout", "sign out", "log out"].contains {
            lowered.contains($0)
        } || SignInLexicon.says(.decline, in: words)
    }

    /// A text field for the passkey's own name (name, nickname, label).
    private static func namesTheKey(_ words: String) -> Bool {
        let lowered = words.lowercased()
        return ["name", "nick", "label", "description"].contains { lowered.contains($0) }
    }

    private static func makesSignInPasskey(_ words: String) -> Bool {
        let lowered = words.lowercased()
        return lowered.contains("passwordless") || lowered.contains("first") || SignInLexicon.says(.passkey, in: words)
    }

    private func submit(_ form: HTMLForm, setting: [String: String], _ client: HTTPClient)
        async throws(PasskeyRegistrationError) -> HTTPResponse
    {
        let built: FormSubmission
        do {
            built = try form.submission(setting: setting)
        } catch {
            throw .noCeremony("the registration form cannot be submitted: \(error)")
        }
        var headers = HTTPHeaders()
        for (name, value) in BrowserHeaders().headers(
            method: built.method.rawValue.uppercased(), url: built.url, referrer: form.documentURL, existing: [])
        {
            headers.add(name, value)
        }
        var body: HTTPRequest.Body = .none
        if built.method == .post {
            body = .bytes(built.body ?? [])
            headers.set("Content-Type", built.contentType ?? "application/x-www-form-urlencoded")
        }
        return try await exchange(
            client,
            HTTPRequest(method: built.method.rawValue.uppercased(), url: built.url, headers: headers, body: body))
    }

    private func exchange(_ client: HTTPClient, _ request: HTTPRequest) async throws(PasskeyRegistrationError)
        -> HTTPResponse
    {
        var request = request
        request.redirects = .follow(max: 8)
        if request.headers["Accept"] == nil { request.headers.set("Accept", BrowserHeaders().accept) }
        do {
            return try await client.execute(request)
        } catch {
            throw .transport(error)
        }
    }
}

/// Why a passkey registration did not end with a registered passkey; each says what to do.
public enum PasskeyRegistrationError: Error, Sendable, CustomStringConvertible {
    /// The page asked for a password: the session is not signed in there.
    case notSignedIn(String)
    /// No page on the way carried WebAuthn creation options.
    case noCeremony(String)
    /// The authenticator refused the options (origin, relying party, algorithm).
    case passkey(String)
    /// The passkey file could not be written.
    case file(PasskeyFileError)
    /// The relying party did not accept the new credential (its words), and whether its file was removed (nil: no
    /// file was made yet).
    case refused(String, fileRemoved: Bool?)
    /// The credential was sent and its fate is unknown (the answer was lost, or says nothing): its file is kept.
    case unconfirmed(path: String, reason: String)
    /// The exchange failed.
    case transport(TransportError)

    /// What happened, and what to do.
    public var description: String {
        switch self {
        case .notSignedIn(let url):
            "\(url) asks for a password: sign in there first ('spconnect login --url …'), then register with "
                + "that profile"
        case .noCeremony(let reason): "\(reason); give the page where a person adds a passkey or security key"
        case .passkey(let reason): reason
        case .file(let error): "\(error)"
        case .refused(let words, let removed):
            "the site did not accept the new passkey: \(words)"
                + (removed.map {
                    $0 ? ". The passkey file was removed" : ". The passkey file could not be removed: delete it"
                } ?? "")
        case .unconfirmed(let path, let reason):
            "the site's answer to the new passkey was not a clear yes or no (\(reason)): it may have registered it, "
                + "so \(path) is kept. Try signing in with it; delete it if the site does not know it"
        case .transport(let error): "\(error)"
        }
    }
}
