import AuthFlow
import HTML
import JSON
import Testing

@Suite("Encodings")
struct EncodingTests {
    static let latin1Page: [UInt8] =
        Array("<html><head><title>caf".utf8) + [0xE9] + Array("</title></head><body><form><input name=n value='na".utf8)
        + [0xEF] + Array("ve'></form></body></html>".utf8)

    @Test("UTF-8 without a declared charset")
    func utf8() throws {
        let page = try HTMLPage(
            bytes: Array("<title>café ✓</title><form><input name=n value='日本'></form>".utf8), url: "https://x.test/")
        #expect(page.title == "café ✓")
        #expect(page.forms[0].controls[0].value == "日本")
        #expect(try page.forms[0].submission().url == "https://x.test/?n=%E6%97%A5%E6%9C%AC")
    }

    @Test("Latin-1 bytes read through the header charset")
    func latin1FromHeader() throws {
        let page = try HTMLPage(bytes: Self.latin1Page, url: "https://x.test/", charset: "ISO-8859-1")
        #expect(page.title == "café")
        #expect(page.forms[0].controls[0].value == "naïve")
        #expect(try page.forms[0].submission().url == "https://x.test/?n=na%C3%AFve")
    }

    @Test("windows-1252 from the page's own meta when no header charset is given")
    func metaCharset() throws {
        let bytes =
            Array("<html><head><meta charset='windows-1252'><title>".utf8) + [0x93, 0x41, 0x94]
            + Array("</title></head></html>".utf8)
        #expect(try HTMLPage(bytes: bytes, url: "https://x.test/").title == "\u{201C}A\u{201D}")
    }

    @Test("a lying meta charset is overridden by the header charset")
    func lyingMeta() throws {
        let bytes = Array("<html><head><meta charset='iso-8859-1'><title>café</title></head></html>".utf8)
        #expect(try HTMLPage(bytes: bytes, url: "https://x.test/", charset: "UTF-8").title == "café")
        // Without the header libxml2 believes the meta: mojibake, which is why the header must win.
        #expect(try HTMLPage(bytes: bytes, url: "https://x.test/").title == "cafÃ©")
    }

    @Test("entities decode in attributes and text")
    func entities() throws {
        let page = try readPage(
            "<title>a &amp; b &eacute;</title><form action='/x?a=1&amp;b=2'><input name=q value='&quot;&lt;&#101;'></form>"
        )
        #expect(page.title == "a & b é")
        #expect(page.forms[0].action == "/x?a=1&b=2")
        #expect(page.forms[0].controls[0].value == "\"<e")
    }
}

@Suite("Page reading")
struct PageReadingTests {
    @Test("title and base href")
    func titleAndBase() throws {
        let page = try readPage(
            "<head><title>\n  Sign   in\n</title><base href='/root/'></head><body><a href=x>x</a></body>")
        #expect(page.title == "Sign in")
        #expect(page.baseHref == "/root/")
        #expect(page.baseURL == "https://example.test/root/")
        let bare = try readPage("<p>no title</p>")
        #expect(bare.title == nil)
        #expect(bare.baseURL == "https://example.test/dir/page.html?q=1")
    }

    @Test(
        "meta refresh content forms",
        arguments: [
            ("5; url=/next", 5.0, "https://example.test/next"),
            ("0;URL='https://other.test/a b'", 0.0, "https://other.test/a%20b"),
            ("3", 3.0, "https://example.test/dir/page.html?q=1"),
            ("1, url=\"rel\"", 1.0, "https://example.test/dir/rel"),
            ("0; https://bare.test/", 0.0, "https://bare.test/"),
            // The whole seconds count; digits and dots after them are skipped, as in browsers.
            ("1.5.2; url=/x", 1.0, "https://example.test/x"),
            (".5;url=/y", 0.0, "https://example.test/y"),
        ])
    func refresh(content: String, delay: Double, url: String) throws {
        let page = try readPage("<head><meta http-equiv='Refresh' content='\(content.replacingQuotes())'></head>")
        #expect(page.metaRefresh == MetaRefresh(delay: delay, url: url))
        #expect(page.classification.navigation == .metaRefresh(url: url, delay: delay))
        #expect(page.classification.kind == .other)
    }

    @Test("a refresh inside noscript is not followed; garbage content is ignored")
    func noscriptRefresh() throws {
        #expect(
            try readPage("<head><noscript><meta http-equiv=refresh content='0; url=/jsdisabled'></noscript></head>")
                .metaRefresh == nil)
        #expect(try readPage("<meta http-equiv=refresh content='soon'>").metaRefresh == nil)
        // Anything but a separator right after the number makes the value invalid ("1e3" is not 1 s to "e3").
        #expect(try readPage("<meta http-equiv=refresh content='1e3'>").metaRefresh == nil)
        #expect(try readPage("<meta http-equiv=refresh content='2x; url=/z'>").metaRefresh == nil)
    }

    @Test(
        "script redirects",
        arguments: [
            ("window.location = 'https://a.test/1';", "https://a.test/1"),
            ("location.href=\"/two\";", "https://example.test/two"),
            ("location.replace('https:\\/\\/a.test\\/3?x=\\u0026y');", "https://a.test/3?x=&y"),
            ("document.location = 'four';", "https://example.test/dir/four"),
            ("window.location.href = 'https://a.test/5';", "https://a.test/5"),
            ("<!--\n top.location.assign(\"https://a.test/6\");\n-->", "https://a.test/6"),
            ("if (x) { self.location='https://a.test/7' }", "https://a.test/7"),
        ])
    func scriptRedirect(script: String, expected: String) throws {
        let page = try readPage("<script>\(script)</script>")
        #expect(page.scriptRedirect == expected)
        #expect(page.classification.navigation == .scriptRedirect(url: expected))
        #expect(page.scripts == [script])
    }

    @Test(
        "not redirects",
        arguments: [
            "if (window.location == 'https://a.test/') {}", "history.replaceState({}, 't', 'https://a.test/');",
            "function go() { window.location = 'https://a.test/later'; }", "var geolocation = 'x';",
            "foo.location = 'https://a.test/';",
        ])
    func notRedirects(script: String) throws {
        #expect(try readPage("<script>\(script)</script>").scriptRedirect == nil)
    }

    @Test("a script with a non-JavaScript type is not read as a redirect")
    func jsonScript() throws {
        #expect(
            try readPage("<script type='text/json'>window.location = 'https://a.test/'</script>").scriptRedirect == nil)
    }

    @Test(
        "self-submitting forms",
        arguments: [
            (
                "<form id=f name=n method=post><input type=hidden name=h value=1></form><script>document.forms[0].submit();</script>",
                SelfSubmit.Trigger.script
            ),
            ("<form name=n><input type=hidden name=h></form><script>document.forms['n'].submit()</script>", .script),
            ("<form name=n><input type=hidden name=h></form><script>document.forms.n.submit()</script>", .script),
            (
                "<form id=f><input type=hidden name=h></form><script>document.getElementById(\"f\").submit();</script>",
                .script
            ),
            (
                "<form name=n><input type=hidden name=h></form><script>window.onload = function () { document.n.submit(); };</script>",
                .script
            ),
            (
                "<form><input type=hidden name=h></form><script>setTimeout('document.forms[0].submit()', 0)</script>",
                .script
            ),
            ("<body onload='document.forms[0].submit()'><form><input type=hidden name=h></form></body>", .bodyOnload),
            (
                "<form><input type=hidden name=h><noscript><input type=submit value=Go></noscript></form>",
                .noscriptButton
            ),
        ])
    func selfSubmit(html: String, trigger: SelfSubmit.Trigger) throws {
        let page = try readPage(html)
        #expect(page.selfSubmit == SelfSubmit(formIndex: 0, trigger: trigger))
        #expect(page.classification.kind == .autoPost)
        #expect(page.classification.formIndex == 0)
    }

    @Test(
        "a named function that submits or redirects counts once something calls it",
        arguments: [
            "<script>function go() { document.forms[0].submit(); } go();</script>",
            "<script>function go() { document.forms[0].submit(); }\nwindow.onload = go;</script>",
            "<script>function go() { document.forms[0].submit(); }</script><script>setTimeout(go, 10)</script>",
        ])
    func invokedFunction(script: String) throws {
        let page = try readPage("<form><input type=hidden name=h></form>" + script)
        #expect(page.selfSubmit == SelfSubmit(formIndex: 0, trigger: .script))
    }

    @Test("body onload calling a declared function")
    func onloadCallsFunction() throws {
        let page = try readPage(
            "<body onload='start()'><script>function start() { location.replace('/next'); }</script></body>")
        #expect(page.scriptRedirect == "https://example.test/next")
    }

    @Test("a submit inside a named function does not count; a visible field means no auto-post")
    func notSelfSubmit() throws {
        let declared = try readPage(
            "<form name=o><input type=hidden name=h></form><script>function pick(x) { document.forms['o'].submit(); }</script>"
        )
        #expect(declared.selfSubmit == nil)
        #expect(declared.classification.kind == .other)
        let visible = try readPage(
            "<form><input name=q><input type=hidden name=h></form><script>document.forms[0].submit()</script>")
        #expect(visible.selfSubmit?.formIndex == 0)
        #expect(visible.classification.kind != .autoPost)
    }

    @Test("$Config is found with a string-aware brace matcher and decoded as JSON")
    func config() throws {
        let script = """
            //<![CDATA[
            $Config = {"pgid":"ConvergedSignIn","urlPost":"https://login.test/post?a=1\\u0026b={x}","s":"brace } and \\" quote","n":{"a":[1,2,{"b":null}]},"t":true,"sFTName":"flowToken","sErrorCode":"50126","sErrTxt":""};
            var after = { not: json };
            //]]>
            """
        let page = try readPage("<script>\(script)</script>")
        let config = try #require(page.aadConfig)
        #expect(config.pgid == "ConvergedSignIn")
        #expect(config.urlPost == "https://login.test/post?a=1&b={x}")
        #expect(config.raw["s"] == .string("brace } and \" quote"))
        #expect(config.raw["n"]?["a"] == .array([.integer(1), .integer(2), .object([("b", .null)])]))
        #expect(config.raw["t"] == .bool(true))
        #expect(config.flowTokenName == "flowToken")
        #expect(page.classification.kind == .aadConfig)
        #expect(try readPage("<script>$Config = {broken;</script>").aadConfig == nil)
        #expect(try readPage("<script>if ($Config == {}) {}</script>").aadConfig == nil)
        // As in JavaScript, a repeated key keeps its last value (in the first one's place); numbers may be integers.
        let repeated = try #require(try readPage(#"<script>$Config={"a":1,"n":2.5,"a":"x"};</script>"#).aadConfig)
        #expect(repeated.raw == .object([("a", "x"), ("n", .double(2.5))]))
    }

    /// The HTML module reads the markup's errors only; what `sErrTxt` means is Entra's (the engine adds it to what
    /// the page shows, and its rule makes the page an error).
    @Test("$Config error text is the engine's, not the reader's")
    func configError() throws {
        let page = try readPage(
            #"<script>$Config={"pgid":"ConvergedSignIn","urlPost":"/p","sErrorCode":"50126","sErrTxt":"Your account or password is incorrect."};</script>"#
        )
        #expect(page.errorText == nil)
        #expect(page.aadConfig?.errorText == "Your account or password is incorrect.")
        #expect(page.classification.kind == .error)
        #expect(page.classification.reason.contains("sErrTxt"))
    }

    @Test(
        "visible error text",
        arguments: [
            ("<div role=alert>  Wrong\n password </div>", "Wrong password"),
            ("<label id=errorText>Bad user</label>", "Bad user"),
            ("<div class='form error'><span>Nope</span> <b>again</b></div>", "Nope again"),
            ("<p class=error>Wr<b>o</b>ng<br>pass<span>word</span></p>", "Wrong password"),
            ("<span id=input-error-username class=x>Invalid username.</span>", "Invalid username."),
            ("<p class='alert alert-danger'>Locked</p>", "Locked"),
            ("<div id=error style='display: none'>Hidden</div><div class=error></div>", nil),
            ("<div class=error hidden>Hidden</div>", nil),
            ("<noscript><div class=error>Enable JavaScript</div></noscript>", nil),
            ("<div class=error><script>var e = 'x';</script></div>", nil),
            ("<div class=errorless>Fine</div><div id=terror>Not one</div>", nil),
            ("<div class=error>One</div><div role=alert>Two</div><div role=alert>One</div>", "One"),
            ("<div class=error-panel><span class=error-text>Bad user.</span><a href=/>Back</a></div>", "Bad user."),
            (
                "<h2>Error</h2><p><strong>Incorrect username or password</strong></p><p>Try again.</p>",
                "Incorrect username or password"
            ),
            (
                "<div class=title>\n Błąd </div><div><span>Wystąpił problem.</span></div><div>Spróbuj ponownie.</div>"
                    + "<div><b>Numer:</b> 123</div>", "Wystąpił problem. Spróbuj ponownie."
            ),
            ("<h2>Having problems signing in?</h2><p>Call us.</p>", nil),
            ("<div class='field tooltip-text type-alert'>Please fill out this field.</div>", nil),
            ("<div role=alert data-error-code=5></div><script>show(5)</script>", "the identity provider's message 5"),
            (
                "<div class='message alert'><span trmsg=5></span></div>",
                "the identity provider's message 5: wrong credentials"
            ),
            (
                "<p class=error><span data-i18n=login.badPassword></span></p>",
                "the identity provider's message login.badPassword"
            ),
            (
                "<ul class=errorlist><li>Please enter a correct username and password.</li></ul>",
                "Please enter a correct username and password."
            ),
            ("<div class=errorbox>Wrong code.</div>", "Wrong code."),
            ("<p class='warning wrongPasswordMsg'>Wrong login or password.</p>", "Wrong login or password."),
            ("<p class='warning'>This connection is not secure.</p>", nil),
            ("<p class=error data-code=0></p>", nil),
        ])
    func errorText(html: String, expected: String?) throws {
        #expect(try readPage(html).errorText == expected)
    }

    @Test func everyErrorMessageIsKeptInOrder() throws {
        let page = try readPage("<div class=error>One</div><div role=alert>Two</div><div role=alert>One</div>")
        #expect(page.errorMessages == ["One", "Two"])
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var result = ""
        for character in self { result += character == "'" ? "&#39;" : String(character) }
        return result
    }
}

@Suite("Robustness")
struct RobustnessTests {
    @Test("an unknown header charset falls back to the page's own detection")
    func unknownCharset() throws {
        let page = try HTMLPage(
            bytes: Array("<title>café</title>".utf8), url: "https://x.test/", charset: "x-no-such-charset")
        #expect(page.title?.hasPrefix("caf") == true)
    }

    @Test("empty and binary input still give a page")
    func emptyInput() throws {
        #expect(try HTMLPage(bytes: [], url: "https://x.test/").forms.isEmpty)
        #expect(try HTMLPage(bytes: [0, 1, 2, 0xFF, 0xFE], url: "https://x.test/").classification.kind == .other)
    }

    @Test("libxml2 stops reading below its nesting limit of 256 (pinned: later content is lost)")
    func depthLimit() throws {
        let shallow = String(repeating: "<div>", count: 200) + "<form><input name=a></form>"
        #expect(try readPage(shallow).forms.count == 1)
        let deep = String(repeating: "<div>", count: 300) + "<form><input name=a></form>"
        #expect(try readPage(deep).forms.isEmpty)
    }

    @Test("pages parse concurrently")
    func concurrentParsing() async throws {
        let html = "<form method=post><input name=u><input type=password name=p></form>"
        let kinds = await withTaskGroup(of: PageKind?.self) { group in
            for _ in 0..<16 {
                group.addTask { try? HTMLPage(bytes: Array(html.utf8), url: "https://x.test/").classification.kind }
            }
            var kinds: [PageKind?] = []
            for await kind in group { kinds.append(kind) }
            return kinds
        }
        #expect(kinds == Array(repeating: .credentialForm, count: 16))
    }
}

@Suite("Known libxml2 differences and charset headers")
struct PinnedBehaviourTests {
    @Test(
        "charset from a Content-Type header",
        arguments: [
            ("text/html; charset=UTF-8", "UTF-8"), ("text/html;charset=\"iso-8859-1\"", "iso-8859-1"),
            ("text/html; foo=bar; Charset = windows-1252 ", "windows-1252"), ("text/html", nil),
            ("text/html; charset=", nil),
        ] as [(String, String?)])
    func contentTypeCharset(header: String, expected: String?) {
        #expect(HTMLPage.charset(fromContentType: header) == expected)
    }

    @Test("a semicolon-less entity at the end of an unquoted value stays literal (browsers decode it)")
    func semicolonlessEntity() throws {
        #expect(try readPage("<form><input name=a value=caf&eacute></form>").forms[0].controls[0].value == "caf&eacute")
    }

    @Test("controls inside <noscript> are parsed as elements, flagged, and sent like any other")
    func noscriptControls() throws {
        let form = try #require(
            try readPage(
                "<form><noscript><input type=hidden name=n value=1><input type=submit name=s></noscript></form>"
            )
            .forms.first)
        #expect(form.controls.map(\.insideNoscript) == [true, true])
        #expect(try form.submission().entries == [FormEntry(name: "n", value: "1")])
    }

    /// How the reading time grows with the page is measured by `bench --pages` (Tools/bench/PageReading.swift),
    /// not timed here.
    @Test("a large page with a long $Config and many controls is read whole")
    func largePage() throws {
        var script = "$Config={\"pgid\":\"ConvergedSignIn\",\"urlPost\":\"/p\",\"big\":\""
        script += String(repeating: "abcdefghij", count: 5_000) + "\"};\n"
        for i in 0..<500 { script += "var x\(i) = window.foo.location; function f\(i)(a) { return a.location; }\n" }
        let html =
            "<script>" + script + "</script>"
            + String(repeating: "<div class=x><span>t</span><input type=hidden name=h value=v></div>", count: 500)
        let page = try readPage(html)
        #expect(page.classification.kind == .aadConfig)
        #expect(page.aadConfig?.urlPost == "/p")
        #expect(page.aadConfig?.raw["big"]?.stringValue?.count == 50_000)
    }
}
