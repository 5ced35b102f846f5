import AuthFlow
import Testing

@Suite struct RedactionTests {
    @Test func urlsKeepHarmlessNamesAndHideTheRest() {
        let url =
            "https://login.test/common/oauth2/authorize?client_id=abc&state=SECRETSTATE&code=SECRETCODE&wa=wsignin1.0#frag"
        let redacted = Redaction.url(url)
        #expect(redacted.contains("client_id=abc"))
        #expect(redacted.contains("wa=wsignin1.0"))
        #expect(!redacted.contains("SECRETSTATE"))
        #expect(!redacted.contains("SECRETCODE"))
        #expect(!redacted.contains("frag"))
        #expect(Redaction.url("https://site.test/_api/web") == "https://site.test/_api/web")
    }

    @Test func pagesLoseHiddenValuesPasswordsAndTokens() {
        let page = """
            <form><input type="hidden" name="wresult" value="SAMLSECRET"><input value='PWSECRET' type=password name=p>
            <input type="text" name="user" value="visible"></form>
            <script>$Config={"sFT":"FLOWSECRET","sCtx":"CTXSECRET","pgid":"ConvergedSignIn"};</script>
            <p>\(String(repeating: "Ab9", count: 30))</p>
            """
        let redacted = Redaction.page(page)
        for secret in ["SAMLSECRET", "PWSECRET", "FLOWSECRET", "CTXSECRET", "Ab9Ab9Ab9Ab9Ab9Ab9Ab9"] {
            #expect(!redacted.contains(secret), "\(secret) leaked")
        }
        #expect(redacted.contains("visible"))
        #expect(redacted.contains("ConvergedSignIn"))
    }

    @Test func outcomeMessagesCarryNoQueryValue() {
        let url = "https://login.test/adfs/ls/?wa=wsignin1.0&wctx=CTXSECRET&code=CODESECRET"
        let messages = [
            SignInOutcome.loop(url: url, steps: 30).message,
            SignInOutcome.unknownPage(kind: "unknown", url: url, dumpPath: nil).message,
            SignInOutcome.policyRefused(.passwordInURL(action: url)).message,
            SignInOutcome.policyRefused(.notHTTP(action: url)).message,
            SignInOutcome.policyRefused(.plainHTTP(action: url)).message,
            SignInOutcome.policyRefused(.foreignHost(action: url, formHost: "login.test")).message,
            SignInOutcome.policyRefused(.downgrade(from: url, to: url)).message,
        ]
        for message in messages {
            #expect(!message.contains("CTXSECRET") && !message.contains("CODESECRET"), "\(message)")
            #expect(message.contains("https://login.test/adfs/ls/?wa=wsignin1.0"), "\(message)")
        }
    }
}
