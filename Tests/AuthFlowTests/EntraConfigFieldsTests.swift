import Testing

@testable import AuthFlowCore

/// Entra's `$Config` read by the Entra strategy's own fields: the error its script writes is among the errors the
/// engine reads on the page (the HTML module reads only the markup's).
@Suite struct EntraConfigFieldsTests {
    static func response(_ config: String, body: String = "") -> SignInResponse {
        SignInResponse(
            url: "https://login.microsoftonline.test/common/login", status: 200,
            headers: [("Content-Type", "text/html; charset=utf-8")], location: nil,
            body: Array("<html><body>\(body)<script>$Config=\(config);</script></body></html>".utf8), siteCookies: [])
    }

    @Test func theConfigsErrorTextIsAnErrorThePageShows() throws {
        let facts = try #require(
            PageFactsReader.read(
                Self.response(
                    #"{"pgid":"ConvergedSignIn","urlPost":"/p","sErrorCode":"50126","sErrTxt":"Your password is incorrect."}"#,
                    body: #"<div role="alert">Something else went wrong.</div>"#)))
        #expect(facts.errorMessages == ["Something else went wrong.", "Your password is incorrect."])
        #expect(facts.kind == .error && facts.config?.errorCode == "50126" && facts.config?.pgid == "ConvergedSignIn")
    }

    @Test func aConfigWithoutErrorTextAddsNone() throws {
        let facts = try #require(
            PageFactsReader.read(Self.response(#"{"pgid":"KmsiInterrupt","urlPost":"/kmsi","sErrTxt":""}"#)))
        #expect(facts.errorMessages.isEmpty && facts.kind == .kmsi)
    }
}
