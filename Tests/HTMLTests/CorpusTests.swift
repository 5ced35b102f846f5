import AuthFlow
import HTML
import JSON
import Testing

/// Every page of the shared corpus against its manifest entry.
@Suite("Corpus pages match the manifest", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct CorpusTests {
    static let pageURL = "https://idp.example.test/signin/start?x=1"

    @Test("the manifest lists pages") func manifestIsNotEmpty() {
        #expect(Corpus.fileNames.count >= 20)
    }

    /// A choice of identity provider is its own kind (the manifest calls it `other`): the one page of the corpus
    /// that asks for one, and no other page.
    @Test func onlyTheHomeRealmDiscoveryPageIsAChoiceOfIdentityProvider() throws {
        let choices = try Corpus.fileNames.filter { file in
            try Corpus.page(file, url: Self.pageURL).classification.kind == .identityProviderChoice
        }
        #expect(choices == ["adfs2-home-realm-discovery-select-pl.html"])
    }

    @Test("page matches manifest", arguments: Corpus.fileNames)
    func pageMatchesManifest(file: String) throws {
        let entry = try #require(Corpus.entry(file))
        let page = try Corpus.page(file, url: Self.pageURL)
        let classification = page.classification

        #expect(classification.kind.manifestName == entry["kind"]?.stringValue, "\(classification.reason)")
        #expect(!classification.reason.isEmpty)
        // No corpus page carries a refresh a scripting browser follows (the AAD ones sit in <noscript>).
        #expect(page.metaRefresh == nil)
        #expect(page.errorText == entry["error_text"]?.stringValue)
        #expect(page.baseHref == entry["base_href"]?.stringValue)

        if let redirect = entry["redirect"]?["target"]?.stringValue {
            let expected = URLResolver.resolve(redirect, against: Self.pageURL)
            #expect(page.scriptRedirect == expected)
        } else {
            #expect(page.scriptRedirect == nil)
        }

        if let config = entry["aad_config"] {
            let aad = try #require(page.aadConfig)
            #expect(aad.pgid == config["pgid"]?.stringValue)
            #expect(aad.urlPost == config["urlPost"]?.stringValue)
            #expect(aad.flowTokenName == config["flow_token_post_name"]?.stringValue)
            #expect(aad.raw[config["flow_token_key"]?.stringValue ?? "sFT"] != nil)
            // A null ctx_key (Microsoft account's ServerData) means the page has no context value.
            if config["ctx_key"] != .null { #expect(aad.raw[config["ctx_key"]?.stringValue ?? "sCtx"] != nil) }
            for key in config["canary_keys"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                #expect(aad.raw[key] != nil, "canary key \(key)")
            }
            if let name = config["canary_post_name"]?.stringValue { #expect(aad.canaryTokenName == name) }
            if let code = config["sErrorCode"]?.stringValue { #expect(aad.errorCode == code) }
            if let text = config["sErrTxt"]?.stringValue { #expect(aad.errorText == text) }
            if let methods = config["arrUserProofs_methods"]?.arrayValue?.compactMap(\.stringValue) {
                #expect(aad.proofMethods == methods)
            }
            #expect(page.forms.isEmpty)
        } else {
            #expect(page.aadConfig == nil)
        }

        guard let formIndex = entry["form_index"]?.number else {
            #expect(page.forms.isEmpty, "manifest lists no form")
            return
        }
        #expect(page.forms.count == entry["forms_on_page"]?.number)
        let form = try #require(page.forms.indices.contains(formIndex) ? page.forms[formIndex] : nil)
        if ["credential-form", "error", "mfa", "auto-post"].contains(entry["kind"]?.stringValue) {
            #expect(classification.formIndex == formIndex)
        }
        #expect(form.id == entry["form_id"]?.stringValue)
        #expect(form.name == entry["form_name"]?.stringValue)
        #expect(form.action == entry["action"]?.stringValue)
        #expect(form.method.rawValue == entry["method"]?.stringValue)
        if let enctype = entry["enctype"]?.stringValue { #expect(form.enctype.rawValue == enctype) }
        if entry["auto_submit"] != nil { #expect(page.selfSubmit?.formIndex == formIndex) }

        #expect(form.usernameField?.name == entry["username_field"]?.stringValue)
        #expect(form.passwordField?.name == entry["password_field"]?.stringValue)
        #expect(form.codeField?.name == entry["code_field"]?.stringValue)

        #expect(
            Self.hiddenFieldSummary(form).serialized(options: .sortedKeys)
                == entry["hidden_fields"]?.serialized(options: .sortedKeys))

        let buttons = entry["submit_buttons"]?.arrayValue ?? []
        #expect(form.submitButtons.count == buttons.count)
        for (button, expected) in zip(form.submitButtons, buttons) {
            #expect(button.element == expected["element"]?.stringValue)
            #expect(button.name == expected["name"]?.stringValue)
            #expect(button.valueAttribute == expected["value"]?.stringValue)
            if let label = expected["label"]?.stringValue { #expect(button.label == label) }
            #expect(button.insideNoscript == (expected["inside_noscript"] == .bool(true)))
        }

        let expectedOthers = entry["other_controls"]?.arrayValue ?? []
        let others = Self.otherControls(form)
        #expect(others.map { $0.name ?? "" } == expectedOthers.compactMap { $0["name"]?.stringValue })
        for (control, expected) in zip(others, expectedOthers) {
            #expect(control.type.hasPrefix(expected["type"]?.stringValue ?? "?"))
            if let value = expected["value"]?.stringValue { #expect(control.value == value) }
            if let checked = expected["checked"] { #expect(.bool(control.checked) == checked) }
            if let options = expected["options"]?.arrayValue?.compactMap(\.stringValue) {
                #expect(control.options.map(\.value) == options)
            }
            if let selected = expected["selected"]?.stringValue {
                #expect(control.selectedOptions.map(\.value) == [selected])
            }
        }
    }

    @Test("credential forms fill and submit like a browser", arguments: Corpus.fileNames)
    func credentialSubmission(file: String) throws {
        let page = try Corpus.page(file, url: Self.pageURL)
        let classification = page.classification
        guard [.credentialForm, .error].contains(classification.kind), let index = classification.formIndex,
            page.forms[index].passwordField != nil, page.forms[index].usernameField != nil
        else { return }
        let form = page.forms[index]
        let user = try #require(form.usernameField?.name)
        let password = try #require(form.passwordField?.name)
        let submission = try form.submission(
            clicking: form.submitButtons.first, setting: [user: "alice@example.com", password: "p@ss word"])
        #expect(submission.method == form.method)
        #expect(submission.url.hasPrefix("https://"))
        let names = submission.entries.map(\.name)
        #expect(submission.entries.first { $0.name == user }?.value == "alice@example.com")
        #expect(submission.entries.first { $0.name == password }?.value == "p@ss word")
        #expect(submission.bodyText.contains("p%40ss+word"))
        for hidden in form.hiddenFields { #expect(names.contains(hidden.name ?? "")) }
        for control in form.controls where control.type == "checkbox" && !control.checked {
            #expect(!names.contains(control.name ?? ""))
        }
        let sentButtons = form.submitButtons.filter { button in
            submission.entries.contains { $0.name == button.name && $0.value == button.value }
        }
        #expect(sentButtons.count <= 1)
    }

    /// Hidden fields in the manifest's shape: value, `{value: first 40 + "...", length}`, or a list.
    static func hiddenFieldSummary(_ form: HTMLForm) -> JSONValue {
        var grouped: [String: [String]] = [:]
        for field in form.hiddenFields { grouped[field.name ?? "", default: []].append(field.value) }
        func shape(_ value: String) -> JSONValue {
            let scalars = Array(value.unicodeScalars)
            guard scalars.count > 40 else { return .string(value) }
            var prefix = ""
            prefix.unicodeScalars.append(contentsOf: scalars[0..<40])
            return .object([("value", .string(prefix + "...")), ("length", .integer(Int64(scalars.count)))])
        }
        return .object(grouped.map { ($0.key, $0.value.count == 1 ? shape($0.value[0]) : .array($0.value.map(shape))) })
    }

    /// Controls the manifest calls "other": user-facing, not the username/password/code field.
    static func otherControls(_ form: HTMLForm) -> [FormControl] {
        let special = Set([form.usernameField?.name, form.passwordField?.name, form.codeField?.name].compactMap { $0 })
        return form.controls.filter { control in
            guard let name = control.name, !name.isEmpty, !special.contains(name) else { return false }
            return !control.isHidden && !control.isSubmitButton && control.type != "button" && control.type != "reset"
        }
    }
}

extension JSONValue {
    var number: Int? {
        if case .integer(let value) = self { return Int(value) }
        return nil
    }
}
