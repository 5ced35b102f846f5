import AuthFlowCore
import JSON
import Testing

@testable import HTML

/// The redirect a script performs on load, with the page's own code deciding which named functions run.
private func redirect(_ script: String) -> String? {
    ScriptReading.redirectTarget(in: script, isInvoked: ScriptReferences(code: [script]).contains)
}

/// The self-submission a script performs on load.
private func submission(_ script: String) -> ScriptSubmission? {
    ScriptReading.submission(in: script, isInvoked: ScriptReferences(code: [script]).contains)
}

@Suite("Script reading: redirects")
struct ScriptRedirectTests {
    @Test(
        "navigations that run on load",
        arguments: [
            ("window.location = 'https://a.test/1';", "https://a.test/1"),
            ("location.href=\"/two\";", "/two"),
            (#"location.replace('https:\/\/a.test\/3?x=\u0026y');"#, "https://a.test/3?x=&y"),
            ("document.location = 'four';", "four"),
            ("window.location.href = 'https://a.test/5';", "https://a.test/5"),
            ("<!--\n top.location.assign(\"https://a.test/6\");\n-->", "https://a.test/6"),
            ("if (x) { self.location='https://a.test/7' }", "https://a.test/7"),
            ("window.top.location.href = '/8'", "/8"),
            ("location.href = '/a' + \"/b\";", "/a/b"),
            ("location = '/asi'\nfoo()", "/asi"),
            ("(function () { location.href = '/iife'; })();", "/iife"),
            ("(function () { location.href = '/iife-inner'; }());", "/iife-inner"),
            ("!function () { location.href = '/bang' }();", "/bang"),
            ("(() => { location.replace('/arrow') })();", "/arrow"),
            ("(function () { location = '/call' }).call(this);", "/call"),
            ("window.onload = function () { location = '/onload' };", "/onload"),
            ("onload = () => { location = '/bare-onload' };", "/bare-onload"),
            ("window.addEventListener('load', function () { location = '/listener' }, false);", "/listener"),
            ("document.addEventListener(\"DOMContentLoaded\", () => { location.href = '/dcl' });", "/dcl"),
            ("window.attachEvent('onload', function () { location = '/attach' });", "/attach"),
            ("$(document).ready(function () { window.location = '/ready' });", "/ready"),
            ("jQuery(function ($) { location = '/jquery' });", "/jquery"),
            ("$(window).on('load', function () { location = '/on-load' });", "/on-load"),
            ("setTimeout(function () { location.href = '/timeout' }, 10);", "/timeout"),
            ("window.setTimeout(\"location.href='/string-code'\", 10);", "/string-code"),
            ("setTimeout(() => location.href = '/expression-arrow', 0);", "/expression-arrow"),
            ("function go() { location = '/declared' }\ngo();", "/declared"),
            ("var go = function () { location = '/var' }; go();", "/var"),
            ("var App = { start: function () { location = '/key' } }; App.start();", "/key"),
            ("var App = { start() { location = '/method' } }; App.start();", "/method"),
            ("function a() { b() } function b() { location = '/chain' } a();", "/chain"),
            ("function go() { location = '/later' } setTimeout(go, 100);", "/later"),
            ("function f() { location = '/1' } location = '/2';", "/2"),
            ("var s = 'x'; // location = '/no'\nlocation = '/yes';", "/yes"),
            ("var r = a / 2; location = '/after-division';", "/after-division"),
            ("var r = /'/; location = '/after-regex';", "/after-regex"),
            ("function f() {} /'/.test(s); location = '/regex-after-brace';", "/regex-after-brace"),
            ("var t = `${location = '/in-substitution'}`;", "/in-substitution"),
        ])
    func navigates(script: String, expected: String) {
        #expect(redirect(script) == expected)
    }

    @Test(
        "no navigation on load",
        arguments: [
            "if (window.location == 'https://a.test/') {}",
            "history.replaceState({}, 't', 'https://a.test/');",
            "function go() { window.location = 'https://a.test/later'; }",
            "var geolocation = 'x';",
            "foo.location = 'https://a.test/';",
            "var s = \"location = '/in-string'\";",
            "// location = '/comment'",
            "/* location.href = '/block' */",
            "var r = /location='\\/regex'/;",
            "var t = `location = '/template'`;",
            "promise.then(function () { location = '/callback' });",
            "loader.Load(null, function () { c && (document.location.href = \"/error.aspx?err=504\") });",
            "try { a() } catch (e) { location = '/catch' }",
            "var handlers = [function () { location = '/array' }];",
            "img.onload = function () { location = '/img' };",
            "xhr.onreadystatechange = function () { location = '/xhr' };",
            "button.addEventListener('click', function () { location = '/click' });",
            "document.getElementById('b').onclick = function () { location = '/onclick' };",
            "Login.go = function () { location = '/property' };",
            "location.href = '/x?u=' + encodeURIComponent(y);",
            "location.href = 'javascript:void(0)';",
            "location.replace(url);",
            "window.location.href.replace('a', 'b');",
            "location.replace('/a' + b);",
            "function go() { location = '/nobody' } function caller() { go() }",
            "return function () { location = '/returned' };",
            "function f() { location = '/declaration' }\n(function () {})();",
            "var r = /'/; var s = \"location = '/after-regex-quote'\";",
        ])
    func doesNotNavigate(script: String) {
        #expect(redirect(script) == nil)
    }

    @Test("isInvoked decides named functions; nested function bodies inside unrun code never run")
    func namedFunctions() {
        let script = "function go() { location = '/go' }"
        #expect(ScriptReading.redirectTarget(in: script) == nil)
        #expect(ScriptReading.redirectTarget(in: script, isInvoked: { $0 == "go" }) == "/go")
        let nested = "promise.then(function () { function go() { location = '/deep' } go(); });"
        #expect(ScriptReading.redirectTarget(in: nested, isInvoked: { _ in true }) == nil)
    }

    @Test("references: only calls from code that runs on load count")
    func references() {
        let references = ScriptReferences(code: [
            "function a() { b() } function b() {} function c() { d() } function d() {} a();",
            "el.onclick = function () { e() }; setTimeout('f()', 0); var g = function () {}; x = { h: 1 };",
            "register('button', 'click', i); window.onload = j; setTimeout(k, 10); el.onclick = l;",
        ])
        #expect(references.contains("a"))
        #expect(references.contains("b"))
        #expect(!references.contains("c"))
        #expect(!references.contains("d"))
        #expect(!references.contains("e"))
        #expect(references.contains("f"))
        #expect(!references.contains("g"))
        #expect(!references.contains("h"))
        #expect(!references.contains("i"), "handed to a function that does not run it on load")
        #expect(references.contains("j"))
        #expect(references.contains("k"))
        #expect(!references.contains("l"))
    }
}

@Suite("Script reading: self-submissions")
struct ScriptSubmissionTests {
    @Test(
        "submissions that run on load",
        arguments: [
            ("document.forms[0].submit();", ScriptSubmission.form(.index(0))),
            ("document.forms['n'].submit()", .form(.name("n"))),
            ("document.forms[\"n\"].submit()", .form(.name("n"))),
            ("document.forms.n.submit()", .form(.name("n"))),
            ("document.getElementById(\"f\").submit();", .form(.id("f"))),
            ("window.onload = function () { document.n.submit(); };", .form(.name("n"))),
            ("setTimeout('document.forms[0].submit()', 0)", .form(.index(0))),
            ("window.setTimeout('document.forms[0].submit()', 0);", .form(.index(0))),
            ("<!--\n document.forms[0].submit();\n-->", .form(.index(0))),
            ("document.forms[1].requestSubmit();", .form(.index(1))),
            ("window.document.forms[0].submit();", .form(.index(0))),
            ("document.getElementById('go').click();", .click(id: "go")),
            ("$('#f').submit();", .form(.id("f"))),
            ("document.querySelector('#f').requestSubmit()", .form(.id("f"))),
            ("setTimeout(function () { document.forms[0].submit(); }, 5000);", .form(.index(0))),
            ("function go() { document.forms[0].submit(); } go();", .form(.index(0))),
        ])
    func submits(script: String, expected: ScriptSubmission) {
        #expect(submission(script) == expected)
    }

    @Test(
        "no submission on load",
        arguments: [
            "function pick(x) { document.forms['o'].submit(); }",
            "var s = 'document.forms[0].submit()';",
            "// document.forms[0].submit();",
            "form.submit();",
            "Login.submitLoginRequest = function () { document.forms['loginForm'].submit(); };",
            "button.addEventListener('click', function () { document.forms[0].submit() });",
            "function postCancel() { submitForm() } function submitForm() { document.forms[0].submit(); }",
            "if (document.forms[0].submit) {}",
            "document.getElementById('x').click",
        ])
    func doesNotSubmit(script: String) {
        #expect(submission(script) == nil)
    }

    @Test("submittedForm keeps to forms; a click resolves to the form owning that submit button")
    func clickFindsTheButtonsForm() throws {
        #expect(ScriptReading.submittedForm(in: "document.getElementById('go').click();") == nil)
        let page = try readPage(
            """
            <form id=a><input type=hidden name=h value=1><input type=submit id=other></form>
            <form id=b><input type=hidden name=h value=2><button id=go>Go</button></form>
            """)
        #expect(ScriptReading.formIndex(of: .click(id: "go"), in: page.forms) == 1)
        #expect(ScriptReading.formIndex(of: .click(id: "missing"), in: page.forms) == nil)
        #expect(ScriptReading.formIndex(of: .form(.name("b")), in: page.forms) == 1)
        #expect(ScriptReading.formIndex(of: .form(.index(2)), in: page.forms) == nil)
    }
}

@Suite("Script reading: object literals and configuration objects")
struct ScriptObjectLiteralTests {
    @Test("unquoted keys, both quotes, numbers, literals and nesting")
    func literal() throws {
        let value = try #require(
            ScriptObjectLiteral.parse(
                #"{a: 1, 'b': "two", "c": [1, 2.5, -3, {d: null}], e: true, f: false, g: !0, h: !1, 0x10: 'hex', i: 1e3, $j_: 0xff}"#
            ))
        #expect(value["a"]?.intValue == 1)
        #expect(value["b"]?.stringValue == "two")
        #expect(value["c"] == .array([.integer(1), .double(2.5), .integer(-3), .object([("d", .null)])]))
        #expect(value["e"]?.boolValue == true && value["f"]?.boolValue == false)
        #expect(value["g"]?.boolValue == true && value["h"]?.boolValue == false)
        #expect(value["16"]?.stringValue == "hex")
        #expect(value["i"]?.doubleValue == 1000)
        #expect(value["$j_"]?.intValue == 255)
    }

    @Test("JavaScript escapes")
    func escapes() throws {
        let value = try #require(
            ScriptObjectLiteral.parse(
                "{s: 'it\\'s \\u00e9 \\x41 \\u{1F600} \\uD83D\\uDE00 \\n\\t line\\\ncontinued \\q', d: \"say \\\"hi\\\"\", t: `plain`}"
            ))
        #expect(value["s"]?.stringValue == "it's é A 😀 😀 \n\t linecontinued q")
        #expect(value["d"]?.stringValue == "say \"hi\"")
        #expect(value["t"]?.stringValue == "plain")
    }

    @Test("what is not data is skipped")
    func skipped() throws {
        let value = try #require(
            ScriptObjectLiteral.parse(
                "{f: function (a) { return {x: '}'}; }, g: 2, m() { return 1 }, get h() { return 3 }, [k]: 4, ...rest, i: 'a' + b, short, r: /}/g, j: 5, l: [1, , function () {}, 3], u: undefined,}"
            ))
        #expect(
            value
                == .object([
                    ("g", .integer(2)), ("j", .integer(5)), ("l", .array([.integer(1), .null, .null, .integer(3)])),
                ]))
    }

    @Test(
        "garbage gives nil",
        arguments: [
            "{a: 1", "{a: 'unterminated}", "{a: (1, 2}", "[1, 2", "{a: 1;}", "{", "}", "", "{a: 1}}", "{a: 1} x",
            "x", "{a b c", "[[[[", "{'a\n': 1}",
        ])
    func garbage(text: String) {
        #expect(ScriptObjectLiteral.parse(text) == nil)
    }

    @Test("nesting deeper than the JSON limit gives nil, without exhausting the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(ScriptObjectLiteral.parse(deep) == nil)
        let fine = String(repeating: "{a:", count: 100) + "1" + String(repeating: "}", count: 100)
        #expect(ScriptObjectLiteral.parse(fine) != nil)
    }

    @Test("random bytes never crash any script reader")
    func noCrashOnGarbage() {
        let alphabet = Array(
            "{}[]()'\"`\\/*!,:;=+-.$_ \n\tabxu0123<>-!location=submit()function$Config=ServerData".utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var objects = 0
        for length in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let value = ScriptObjectLiteral.parse(text) {
                #expect(value.objectValue != nil || value.arrayValue != nil)
                objects += 1
            }
            if let config = ScriptReading.config(in: text) { #expect(config.objectValue != nil) }
            _ = redirect(text)
            _ = submission(text)
            _ = ScriptReading.unescapeJavaScript(text)
        }
        #expect(objects >= 0)
    }

    @Test("Microsoft account's ServerData: a flow token inside sFTTag")
    func serverData() throws {
        let script = """
            var ServerData = {urlPost:'https://login.test/ppsecure/post.srf?x=1', sFTTag:'<input type="hidden" name="PPFT" id="i0327" value="Dq!ab&amp;c"/>', sErrTxt:'', f: function () { return 1 }, A: !0};
            """
        let config = AADConfig(raw: try #require(ScriptReading.config(in: script)))
        #expect(config.urlPost == "https://login.test/ppsecure/post.srf?x=1")
        #expect(config.flowTokenName == "PPFT")
        #expect(config.flowToken == "Dq!ab&c")
        #expect(config.pgid == nil)
        #expect(config.errorText == "")
        #expect(config.raw["f"] == nil)
    }

    @Test("which object is the configuration")
    func choosing() throws {
        #expect(ScriptReading.config(in: "var e = {a: 1}; var t = {b: 2};") == nil)
        #expect(ScriptReading.config(in: "window.Config = {urlPost: '/p', k: 1};")?["k"]?.intValue == 1)
        #expect(ScriptReading.config(in: "var e = {urlPost: 1}; var t = {urlPost: '/t'};")?["urlPost"] == "/t")
        #expect(ScriptReading.config(in: "a.b.c = {urlPost: '/member'};") == nil)
        let both = "var ServerData = {urlPost: '/sd'}; $Config = {urlPost: '/config'};"
        #expect(ScriptReading.config(in: both)?["urlPost"] == "/config")
        #expect(ScriptReading.config(in: "var s = \"$Config = {urlPost: '/in-string'}\";") == nil)
        #expect(ScriptReading.config(in: "$Config = {broken;") == nil)
        let nested = "var App = {urlPost: 1, init: function () { $Config = {pgid: 'x'} }};"
        #expect(ScriptReading.config(in: nested)?["pgid"] == "x")
        #expect(ScriptReading.config(in: "if ($Config == {}) {}") == nil)
        #expect(ScriptReading.config(in: #"$Config={"a":1,"a":2}"#) == .object([("a", .integer(2))]))
    }

    @Test("the flow token input's attributes")
    func inputAttributes() {
        let tag = ScriptReading.inputAttributes(in: "<INPUT type=hidden NAME='PPFT' value=a&#43;b&#x2F;>")
        #expect(tag.name == "PPFT")
        #expect(tag.value == "a+b/")
        #expect(ScriptReading.inputAttributes(in: "<div name=x>").name == nil)
        #expect(ScriptReading.inputAttributes(in: "<input value=\"x\"/>").name == nil)
        #expect(
            AADConfig(raw: .object([("sFTTag", .string("<input type=\"hidden\" value=\"x\"/>"))])).flowTokenName == nil)
        #expect(AADConfig(raw: .object([("sFTName", "flowToken"), ("sFT", "t")])).flowTokenName == "flowToken")
    }
}

/// Every corpus page's script redirect and configuration object against the manifest.
@Suite("Script reading: corpus pages", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct ScriptCorpusTests {
    static let pageURL = "https://idp.example.test/signin/start?x=1"

    @Test("redirect and configuration match the manifest", arguments: Corpus.fileNames)
    func page(file: String) throws {
        let entry = try #require(Corpus.entry(file))
        let page = try Corpus.page(file, url: Self.pageURL)
        let invoked = ScriptReferences(code: page.scripts)
        let direct = page.scripts.lazy.compactMap { ScriptReading.redirectTarget(in: $0, isInvoked: invoked.contains) }
            .first.flatMap { URLResolver.resolve($0, against: page.baseURL) }

        if let target = entry["redirect"]?["target"]?.stringValue {
            let expected = URLResolver.resolve(target, against: page.baseURL)
            if (entry["redirect"]?["how"]?.stringValue ?? "").contains("content load") {
                // A content load into an empty element is no assignment to location: the page reads it, not the
                // redirect rule.
                #expect(direct == nil)
            } else {
                #expect(direct == expected)
            }
            #expect(page.scriptRedirect == expected)
        } else {
            #expect(direct == nil, "no redirect in the manifest")
            #expect(page.scriptRedirect == nil)
        }

        let configs = page.scripts.compactMap(ScriptReading.config)
        guard let expected = entry["aad_config"] else {
            #expect(configs.isEmpty, "no configuration object in the manifest")
            #expect(page.aadConfig == nil)
            return
        }
        let config = AADConfig(raw: try #require(configs.first))
        #expect(page.aadConfig == config)
        #expect(config.pgid == expected["pgid"]?.stringValue)
        #expect(config.urlPost == expected["urlPost"]?.stringValue)
        #expect(config.flowTokenName == expected["flow_token_post_name"]?.stringValue)
        #expect(config.flowToken != nil)
        if let key = expected["flow_token_key"]?.stringValue { #expect(config.raw[key] != nil) }
        if let key = expected["ctx_key"]?.stringValue {
            #expect(config.raw[key] != nil)
        } else {
            #expect(config.context == nil)
        }
        let canaries = expected["canary_keys"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for key in canaries { #expect(config.raw[key] != nil, "canary key \(key)") }
        if canaries.isEmpty { #expect(config.canary == nil) }
        if let id = expected["hpgid"]?.intValue { #expect(config.raw["hpgid"]?.intValue == id) }
        if let text = expected["sErrTxt"]?.stringValue { #expect(config.errorText == text) }
        if let code = expected["sErrorCode"]?.stringValue { #expect(config.errorCode == code) }
    }

    @Test("JSON configuration objects read the same as JSON")
    func jsonConfigsReadAsJSON() throws {
        var checked = 0
        for file in Corpus.fileNames {
            let page = try Corpus.page(file)
            for script in page.scripts {
                let bytes = Array(script.utf8)
                let marker = Array("$Config=".utf8)
                guard
                    let start = (0..<max(0, bytes.count - marker.count)).first(where: {
                        bytes[$0..<$0 + marker.count].elementsEqual(marker)
                    }),
                    let end = ScriptReading.matchingBrace(bytes, from: start + marker.count),
                    let json = try? JSONValue.parse(bytes: Array(bytes[(start + marker.count)...end]))
                else { continue }
                #expect(ScriptReading.config(in: script) == ScriptReading.lastValueWins(json), "\(file)")
                checked += 1
            }
        }
        #expect(checked >= 3)
    }

    @Test("self-submissions: inline auto-posts are found, and nothing else submits on load")
    func submissions() throws {
        for file in Corpus.fileNames {
            let entry = try #require(Corpus.entry(file))
            let page = try Corpus.page(file)
            let invoked = ScriptReferences(code: page.scripts)
            let found = page.scripts.lazy.compactMap { ScriptReading.submission(in: $0, isInvoked: invoked.contains) }
                .first
            let how = entry["auto_submit"]?.stringValue ?? ""
            if how.hasPrefix("inline script") {
                let form = try #require(found.flatMap { ScriptReading.formIndex(of: $0, in: page.forms) }, "\(file)")
                #expect(form == entry["form_index"]?.number, "\(file)")
            } else {
                #expect(found == nil, "\(file): \(String(describing: found))")
            }
        }
    }
}

@Suite("Script reading: signs before scanning")
struct ScriptSignTests {
    @Test("a script without the sign of a redirect or a submission is not scanned, one with it is")
    func signs() {
        func mayRedirect(_ script: String) -> Bool { ScriptStrings.withBytes(script, ScriptSigns.mayRedirect) }
        func maySubmit(_ script: String) -> Bool { ScriptStrings.withBytes(script, ScriptSigns.maySubmit) }
        #expect(!mayRedirect("var here = window.location.search; if (location == x) {}"))
        #expect(mayRedirect("location = '/a'"))
        #expect(mayRedirect("top.location.href\n= '/b'"))
        #expect(mayRedirect("location /* a comment */ .replace('/c')"))
        #expect(!maySubmit("button.addEventListener('click', go); form.onsubmit = check;"))
        #expect(maySubmit("document.forms[0].submit ()"))
        #expect(maySubmit("$('#go').click()"))
    }

    @Test("a timer's string that spells its code with escapes is read as the scanner reads it, decoded")
    func escapedTimerStrings() {
        #expect(redirect(#"var l = location.search; setTimeout("lo\x63ation.href='/escaped'", 0);"#) == "/escaped")
        #expect(redirect("location /* said */ = '/commented'") == "/commented")
        #expect(
            submission(#"var s = form.submit; setTimeout("document.forms[0].subm\x69t()", 0);"#)
                == .form(.index(0)))
    }
}
