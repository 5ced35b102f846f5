import Foundation
import HTML
import TestSupport
import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

/// The engine's first decision on every real captured identity-provider page in ../shared/corpus/idp.
@Suite(
    .enabled(
        if: SharedCorpus.isAvailable(SharedCorpus.identityProviderPages),
        "no shared corpus beside the project (../shared/corpus)"))
struct CorpusEngineTests {
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        let file: String
        let kind: String
        let action: String?
        let username_field: String?
        let password_field: String?
        let code_field: String?
        let hidden_fields: [String: HiddenValue]?
        let error_text: String?
        let redirect: Redirect?
        let other_controls: [Control]?
        var testDescription: String { file }

        struct Control: Decodable, Sendable {
            let name: String?
            let type: String?
            let options: [String]?
        }

        struct Redirect: Decodable, Sendable {
            let target: String?
            let how: String?
        }

        /// The manifest names a user name or password field: the sign-in form itself.
        var hasCredentialFields: Bool { username_field != nil || password_field != nil }
    }

    /// A manifest hidden value: exact, a truncated prefix with the full length, or several values.
    enum HiddenValue: Decodable, Sendable {
        case exact(String)
        case truncated(prefix: String, length: Int)
        case several([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .exact(text)
            } else if let list = try? container.decode([String].self) {
                self = .several(list)
            } else {
                struct Truncated: Decodable {
                    let value: String
                    let length: Int
                }
                let truncated = try container.decode(Truncated.self)
                self = .truncated(prefix: String(truncated.value.dropLast(3)), length: truncated.length)
            }
        }

        func matches(_ values: [String]) -> Bool {
            switch self {
            case .exact(let text): return values == [text]
            case .several(let list): return values == list
            case .truncated(let prefix, let length):
                return values.count == 1 && values[0].hasPrefix(prefix) && values[0].utf8.count == length
            }
        }
    }

    static let corpus = SharedCorpus.identityProviderPages

    static let entries: [Entry] = {
        guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent("manifest.json").path)
        else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }()

    static let password = "Spring2026!"

    /// A page URL on the host the page was served from: its `<base href>`, else its form's absolute action.
    static func pageURL(for entry: Entry, body: [UInt8]) -> String {
        if let base = (try? HTMLPage(bytes: body, url: "https://id.example.com/"))?.baseHref,
            let url = URL(string: base), let scheme = url.scheme, let host = url.host
        {
            return "\(scheme)://\(host)/login/page"
        }
        if let action = entry.action, let url = URL(string: action), let scheme = url.scheme, let host = url.host,
            scheme.hasPrefix("http")
        {
            return "\(scheme)://\(host)/login/page"
        }
        return "https://id.example.com/login/page"
    }

    static func response(_ entry: Entry) throws -> SignInResponse {
        let path = corpus.appendingPathComponent(entry.file).path
        let body = try #require(FileManager.default.contents(atPath: path), "missing corpus file \(entry.file)")
        return SignInResponse(
            url: pageURL(for: entry, body: Array(body)), status: 200,
            headers: [("Content-Type", "text/html; charset=utf-8")],
            location: nil, body: Array(body), siteCookies: [])
    }

    static func machine() -> SignInMachine {
        var machine = SignInMachine(
            SignInConfiguration(
                siteURL: "https://contoso.sharepoint.test", username: "alice@contoso.test",
                password: Secret(password)))
        _ = machine.start()
        return machine
    }

    /// Without the shared folder the corpus cases skip, saying why; with it, its manifest must read.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: corpus.path),
            "no corpus at ../shared/corpus/idp: the shared folder must sit beside the project"))
    func corpusManifestReads() {
        #expect(!Self.entries.isEmpty, "\(Self.corpus.path)/manifest.json is missing or does not decode")
    }

    @Test(arguments: entries)
    func firstDecision(_ entry: Entry) throws {
        var machine = Self.machine()
        let action = machine.receive(try Self.response(entry))
        switch (entry.kind, action) {
        case ("error", .finish(.interactionRequired(let kind, _, let message, _, _))) where !entry.hasCredentialFields:
            // An error page with no sign-in form: the identity provider stopped (a refused code is a second
            // factor the engine cannot answer); its own words are the message.
            #expect(kind == .identityProviderError || kind == .mfa)
            #expect(message?.contains(entry.error_text ?? "?") == true, "\(message ?? "")")
        case ("other", .finish(.unknownPage)) where entry.redirect == nil,
            ("other", .finish(.interactionRequired(.passwordChange, _, _, _, _))):
            // Nothing to do on the page (or a password change it asks for): a clear stop, never a filled form.
            break
        case ("credential-form", .send(let request)), ("error", .send(let request)):
            #expect(request.purpose == .credentials || request.purpose == .username)
            #expect(request.method == "POST")
            let fields = request.form ?? []
            if let passwordField = entry.password_field {
                #expect(fields.filter { $0.name == passwordField }.map(\.value) == [Self.password])
            }
            if let usernameField = entry.username_field {
                #expect(fields.filter { $0.name == usernameField }.map(\.value) == ["alice@contoso.test"])
            }
            for (name, value) in entry.hidden_fields ?? [:] {
                let sent = fields.filter { $0.name == name }.map(\.value)
                #expect(value.matches(sent), "hidden \(name): sent \(sent)")
            }
            #expect(Set(fields.map(\.name)).count == fields.count, "a field is sent twice: \(fields.map(\.name))")
            #expect(!fields.contains { $0.name.lowercased() == "kmsi" }, "an unchecked Kmsi box was sent")
        case ("aad-config", .send(var request)):
            if let question = request.rawBody {
                // The converged page first asks GetCredentialType (user name and flow token, no password); a
                // managed account's answer brings the password post.
                #expect(request.method == "POST" && request.carriesCredentials)
                let text = String(decoding: question.bytes, as: UTF8.self)
                #expect(text.contains(#""username":"alice@contoso.test""#) && !text.contains(Self.password))
                let managed = #"{"IfExistsResult":0,"Credentials":{"PrefCredential":1,"FederationRedirectUrl":null}}"#
                let next = machine.receive(
                    SignInResponse(
                        url: request.url, status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
                        location: nil, body: Array(managed.utf8), siteCookies: []))
                guard case .send(let post) = next else {
                    Issue.record("no password post after GetCredentialType's answer")
                    return
                }
                request = post
            }
            #expect(request.purpose == .credentials)
            let names = (request.form ?? []).map(\.name)
            #expect(names.contains("passwd") && names.contains("login"))
            // The flow token under the page's own name (flowToken on Entra, PPFT on a Microsoft account), or ctx.
            #expect(names.contains("flowToken") || names.contains("ctx") || names.contains("PPFT"), "\(names)")
        case ("kmsi", .send(let request)):
            #expect(request.purpose == .interrupt)
            #expect(request.form?.first { $0.name == "LoginOptions" }?.value == "3")
        case ("mfa", .finish(.interactionRequired(let kind, _, _, _, _))):
            #expect(kind == .mfa)
        case ("mfa", .send(let request)) where request.purpose == .secondFactor:
            // Entra's ConvergedTFA: BeginAuth for the account's default method (else the first it can answer).
            let body = (try? JSONSerialization.jsonObject(with: Data(request.rawBody?.bytes ?? []))) as? [String: Any]
            let page = try HTMLPage(bytes: try Self.response(entry).body, url: "https://id.example.com/")
            let expected = page.aadConfig?.defaultProofMethod ?? page.aadConfig?.proofMethods.first
            #expect(body?["Method"] as? String == "BeginAuth")
            #expect(body?["AuthMethodId"] as? String == expected, "\(body ?? [:])")
        case ("mfa", .needCode(let request)):
            // A one-time-code page: the engine asks its driver for a code for the manifest's code field.
            #expect(request.fieldName == entry.code_field, "\(request)")
            #expect(request.attempt == 1)
        case ("auto-post", .send(let request)):
            #expect(request.purpose == .autoPost)
            #expect(!request.carriesCredentials)
            let names = Set((request.form ?? []).map(\.name))
            #expect(Set((entry.hidden_fields ?? [:]).keys).isSubset(of: names))
        case ("other", .send(let request)) where request.purpose == .providerChoice:
            // A choice of identity provider: the list's entry that keeps the sign-in at this provider (not a URI of
            // another host), submitted with the form's own submitter; no credential goes with it.
            let list = try #require(entry.other_controls?.first { $0.type == "select" })
            let sent = (request.form ?? []).filter { $0.name == list.name }.map(\.value)
            #expect(sent.count == 1 && list.options?.contains(sent[0]) == true, "\(sent)")
            #expect(!(sent.first ?? "").contains("://") && !request.carriesCredentials)
            let action = URL(string: entry.action ?? "", relativeTo: URL(string: request.url))
            #expect(URL(string: request.url)?.path == action?.path && request.method == "POST")
        case ("other", .send(let request)):
            #expect([.scriptRedirect, .refresh, .autoPost].contains(request.purpose))
        default:
            Issue.record("\(entry.file) (\(entry.kind)): unexpected decision \(action)")
        }
    }

    /// A sign-in form with an error that comes back after the password was sent ends the sign-in with the page's
    /// text as a rejection (exit 3); an error page without a sign-in form is the identity provider stopping (4).
    @Test(arguments: entries.filter { $0.kind == "error" && $0.hasCredentialFields })
    func errorAfterPasswordIsInvalidCredentials(_ entry: Entry) throws {
        var machine = Self.machine()
        let page = try Self.response(entry)
        _ = machine.receive(page)
        let second = machine.receive(page)
        guard case .finish(.invalidCredentials(let message, _)) = second else {
            Issue.record("\(entry.file): expected invalidCredentials, got \(second)")
            return
        }
        #expect(message == entry.error_text)
    }

    @Test(arguments: entries.filter { $0.kind == "error" && !$0.hasCredentialFields })
    func errorPageAfterPasswordIsTheIdentityProviderStopping(_ entry: Entry) throws {
        var machine = Self.machine()
        let credentials = try #require(Self.entries.first { $0.kind == "credential-form" && $0.password_field != nil })
        _ = machine.receive(try Self.response(credentials))
        let after = machine.receive(try Self.response(entry))
        guard case .finish(.interactionRequired(let kind, _, let message, _, _)) = after else {
            Issue.record("\(entry.file): expected the identity provider to stop the sign-in, got \(after)")
            return
        }
        #expect(kind == .identityProviderError || kind == .mfa)
        #expect(message?.contains(entry.error_text ?? "?") == true)
    }

    @Test func traceHoldsNoPassword() throws {
        // The pages one after another, into one machine while it goes on (so later pages meet a password already
        // sent); a machine that finished or waits for a code takes no more pages, and a fresh one goes on.
        var machine = Self.machine()
        var steps: [SignInTraceStep] = []
        for entry in Self.entries {
            if case .send = machine.receive(try Self.response(entry)) { continue }
            steps += machine.trace
            machine = Self.machine()
        }
        steps += machine.trace
        let lines = steps.map(\.jsonLine).joined(separator: "\n")
        #expect(!lines.contains(Self.password))
        #expect(steps.contains { $0.fieldsSent.contains("passwd") || $0.fieldsSent.contains("Password") })
    }
}
