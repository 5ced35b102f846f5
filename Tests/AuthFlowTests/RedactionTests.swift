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

    /// The forms a secret takes on real pages: Entra's `sFTTag` (a hidden PPFT input inside a `$Config` string,
    /// with JSON-escaped quotes and `\u003c`), unquoted attributes, a `>` inside an earlier attribute, a
    /// `<textarea>` carrying the token, markup quoted with character references, and secret-named controls
    /// that are not hidden. (page, secret)
    static let secretForms: [(String, String)] = [
        (
            #"$Config={"sFTTag":"<input type=\"hidden\" name=\"PPFT\" id=\"i0327\" value=\"Dq!PPFT*SECRET$1\"/>","#
                + #""pgid":"ConvergedSignIn"};"#, "Dq!PPFT*SECRET$1"
        ),
        (
            #"$Config={"sFTTag":"\u003cinput type=\"hidden\" name=\"PPFT\" value=\"Dq!ESC*SECRET$2\"/\u003e"};"#,
            "Dq!ESC*SECRET$2"
        ),
        (#"var t = '<input type=\'hidden\' name=\'ctx\' value=\'SQ!SECRET*3\'>';"#, "SQ!SECRET*3"),
        (#"<form><input type=hidden name=wresult value=UNQUOTED!SECRET*4></form>"#, "UNQUOTED!SECRET*4"),
        (#"<input value=BEFORE!SECRET*5 name=x type=HIDDEN>"#, "BEFORE!SECRET*5"),
        (#"<input data-hint="a>b" type="hidden" name="x" value="AFTER-GT!SECRET*6">"#, "AFTER-GT!SECRET*6"),
        (
            #"<textarea name="wresult"><t:RequestSecurityTokenResponse>TA!SECRET*7"#
                + #"</t:RequestSecurityTokenResponse></textarea>"#, "TA!SECRET*7"
        ),
        (#"<TEXTAREA name=SAMLResponse>PHNhbWw+!SECRET*8</TEXTAREA>"#, "PHNhbWw+!SECRET*8"),
        (#"<input type="text" name="code" value="CODE!SECRET*9">"#, "CODE!SECRET*9"),
        (#"<input name="id_token" value='IDT!SECRET*10'>"#, "IDT!SECRET*10"),
        (
            #"<div data-html="&lt;input type=&quot;hidden&quot; name=&quot;PPFT&quot; value=&quot;ENT!SECRET*13&quot;&gt;">"#
                + "</div>", "ENT!SECRET*13"
        ),
        (#"<p>&lt;textarea name=wresult&gt;ENTTA!SECRET*14&lt;/textarea&gt;</p>"#, "ENTTA!SECRET*14"),
        (#"{"flowToken":"FT!SECRET*11","sUnauthSessionID":"US!SECRET*12"}"#, "FT!SECRET*11"),
        (#"{"flowToken":"FT!SECRET*11","sUnauthSessionID":"US!SECRET*12"}"#, "US!SECRET*12"),
        (#"<a href="/cb?code=CODE!SECRET*15&amp;state=ST!SECRET*16">next</a>"#, "CODE!SECRET*15"),
        (#"<a href="/cb?code=CODE!SECRET*15&amp;state=ST!SECRET*16">next</a>"#, "ST!SECRET*16"),
        (#"<form action="https://idp.example/login?client-request-id=RQ!SECRET*18&wa=wsignin1.0">"#, "RQ!SECRET*18"),
        (#"<meta name="csrf-token" content="CSRF!SECRET*17">"#, "CSRF!SECRET*17"),
        (#"<meta content='XS!SECRET*19' name='x-xsrf-token'/>"#, "XS!SECRET*19"),
    ]

    @Test(arguments: secretForms)
    func pagesLoseSecretsInEveryForm(page: String, secret: String) {
        let redacted = Redaction.page("<p>before</p>" + page + "<p>after</p>")
        #expect(!redacted.contains(secret), "\(redacted)")
        #expect(redacted.contains("<p>before</p>") && redacted.contains("<p>after</p>"), "\(redacted)")
    }

    /// What is not secret stays readable: visible inputs, other textareas, page ids.
    @Test func pagesKeepWhatIsNotSecret() {
        let page = #"""
            <input type="text" name="loginfmt" value="alice@contoso.test"><textarea name="comment">keep me</textarea>
            <input type=hidden name=wa value=SECRET><p>Sign in to Contoso</p>
            <form action="/adfs/ls/?wa=wsignin1.0&amp;mkt=en-US"><meta name="viewport" content="width=device-width">
            <script>$Config={"pgid":"ConvergedSignIn","sFTTag":"<input type=\"hidden\" value=\"x\"/>"};</script>
            """#
        let redacted = Redaction.page(page)
        for kept in [
            "alice@contoso.test", "keep me", "Sign in to Contoso", #""pgid":"ConvergedSignIn""#, "name=wa",
            "?wa=wsignin1.0&amp;mkt=en-US", "width=device-width",
        ] {
            #expect(redacted.contains(kept), "\(kept) lost: \(redacted)")
        }
        #expect(!redacted.contains("value=SECRET"))
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
