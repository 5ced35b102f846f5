import Foundation
import HTML
import JSON
import TestSupport
import Testing

@testable import AuthFlow

/// `spconnect inspect`'s report, as the library gives it: what the engine sees, never a secret.
@Suite struct PageInspectionTests {
    /// On every captured page, the report names the fields the manifest names.
    @Test(
        .enabled(
            if: SharedCorpus.isAvailable(SharedCorpus.identityProviderPages),
            "no shared corpus beside the project (../shared/corpus)"),
        arguments: CorpusEngineTests.entries.filter(\.hasCredentialFields))
    func theReportNamesTheManifestsFields(_ entry: CorpusEngineTests.Entry) throws {
        let response = try CorpusEngineTests.response(entry)
        let page = try HTMLPage(bytes: response.body, url: response.url, charset: "utf-8")
        let report = PageInspection.report(page)
        if let username = entry.username_field { #expect(report["username_field"]?.stringValue == username) }
        if let password = entry.password_field { #expect(report["password_field"]?.stringValue == password) }
    }

    /// A filled password and `$Config`'s tokens stay out of the report; their names and presence do not.
    @Test func secretsNeverAppear() throws {
        let html = """
            <html><head><script>$Config={"sFT":"FLOWTOKEN-SECRET","sCtx":"CTX-SECRET","canary":"CANARY-SECRET",\
            "urlPost":"/common/login","sFTName":"flowToken","pgid":"ConvergedSignIn"};</script></head><body>
            <form method="post" action="/login"><input name="login" value="alice@contoso.test">
            <input type="password" name="passwd" value="Spring2026!"><input type="submit" value="Sign in"></form>
            </body></html>
            """
        let page = try HTMLPage(bytes: Array(html.utf8), url: "https://login.example.test/", charset: "utf-8")
        let text = PageInspection.report(page).serialized(options: [.sortedKeys])
        for secret in ["Spring2026!", "FLOWTOKEN-SECRET", "CTX-SECRET", "CANARY-SECRET"] {
            #expect(!text.contains(secret), "\(secret) is in the report")
        }
        #expect(text.contains("\"passwd\""))
        let report = PageInspection.report(page)
        #expect(report["aad_config"]?["has_flow_token"] == .bool(true))
    }
}
