import HTML
import Testing

/// The WHATWG form-submission rules, one table per rule.
@Suite("Form submission (WHATWG)")
struct FormSubmissionTests {
    /// Entries sent by the first form of `html` when `clicking` (a submit button's name or label) submits it.
    func entries(_ html: String, clicking: String? = nil) throws -> [String] {
        let form = try #require(try readPage(html).forms.first)
        let submitter = clicking.map { name in
            form.submitButtons.first { $0.name == name || $0.label == name || $0.valueAttribute == name }
        }
        return try form.submission(clicking: submitter ?? nil).entries.map { "\($0.name)=\($0.value)" }
    }

    @Test(
        "text-like inputs send name=value",
        arguments: ["hidden", "text", "email", "password", "search", "tel", "url", "number", "date", "bogus", ""])
    func textLikeInputs(type: String) throws {
        #expect(try entries("<form><input type='\(type)' name='n' value='v w'></form>") == ["n=v w"])
    }

    @Test("checkboxes and radios are sent only when checked, value defaults to on")
    func checkables() throws {
        let html = """
            <form><input type=checkbox name=a value=1><input type=checkbox name=b checked>
            <input type=radio name=r value=x><input type=radio name=r value=y checked>
            <input type=CHECKBOX name=c value=3 CHECKED></form>
            """
        #expect(try entries(html) == ["b=on", "r=y", "c=3"])
    }

    @Test("only the clicked submitter is sent; buttons default to type submit")
    func submitters() throws {
        let html = """
            <form><input name=u value=1><input type=submit name=go value=Go><input type=submit name=cancel value=Cancel>
            <button name=b value=bv>Press</button><button type=button name=plain value=p>Plain</button>
            <button type=reset name=rs>Reset</button><input type=reset name=r value=R><input type=button name=ib value=I>
            </form>
            """
        #expect(try entries(html) == ["u=1"])
        #expect(try entries(html, clicking: "go") == ["u=1", "go=Go"])
        #expect(try entries(html, clicking: "cancel") == ["u=1", "cancel=Cancel"])
        #expect(try entries(html, clicking: "b") == ["u=1", "b=bv"])
        let form = try #require(try readPage(html).forms.first)
        #expect(form.submitButtons.map { $0.name ?? "" } == ["go", "cancel", "b"])
        #expect(form.controls.first { $0.name == "plain" }?.isSubmitButton == false)
    }

    @Test("an image button sends click coordinates; a nameless submitter sends nothing")
    func imageAndNamelessSubmitters() throws {
        let html =
            "<form><input name=a value=1><input type=image name=img src=x.png><input type=submit value=Go></form>"
        #expect(try entries(html, clicking: "img") == ["a=1", "img.x=0", "img.y=0"])
        #expect(try entries(html, clicking: "Go") == ["a=1"])
    }

    @Test("a file input sends an empty file; reset never")
    func fileInput() throws {
        let form = try #require(
            try readPage("<form method=post><input type=file name=f><input type=reset name=r></form>").forms.first)
        let submission = try form.submission()
        #expect(submission.entries == [FormEntry(name: "f", value: "", isFile: true)])
        #expect(submission.bodyText == "f=")
    }

    @Test("select sends its selected options, a single select defaults to its first enabled option")
    func selects() throws {
        let html = """
            <form>
            <select name=single><option disabled>zero</option><option value=1>one</option><option>  two  </option></select>
            <select name=chosen><option value=a selected>A</option><option value=b selected>B</option></select>
            <select name=multi multiple><option value=x selected>X</option><option value=y>Y</option><option value=z selected>Z</option></select>
            <select name=none multiple><option value=q>Q</option></select>
            <select name=listbox size=3><option value=l>L</option></select>
            <select name=off><option value=d selected disabled>D</option></select>
            <select name=group><optgroup disabled><option value=g1>G1</option></optgroup><option>two  words</option></select>
            </form>
            """
        #expect(try entries(html) == ["single=1", "chosen=b", "multi=x", "multi=z", "group=two words"])
    }

    @Test("textarea sends its text, first newline dropped, newlines as CRLF in the body")
    func textarea() throws {
        let form = try #require(
            try readPage("<form method=post><textarea name=t>\nline1\nline 2</textarea></form>").forms.first)
        let submission = try form.submission()
        #expect(submission.entries == [FormEntry(name: "t", value: "line1\nline 2")])
        #expect(submission.bodyText == "t=line1%0D%0Aline+2")
    }

    @Test("disabled controls and controls in a disabled fieldset are skipped (except in its first legend)")
    func disabled() throws {
        let html = """
            <form><input name=a value=1 disabled><input name=b value=2>
            <fieldset disabled><legend><input name=c value=3></legend><input name=d value=4>
            <fieldset><input name=e value=5></fieldset></fieldset>
            <fieldset><input name=f value=6></fieldset><select name=s disabled><option>x</option></select></form>
            """
        #expect(try entries(html) == ["b=2", "c=3", "f=6"])
    }

    @Test("controls without a name are skipped; a missing value is the empty string")
    func namesAndValues() throws {
        let html =
            "<form><input value=nameless><input name='' value=empty><input name=novalue><input type=hidden name=h></form>"
        #expect(try entries(html) == ["novalue=", "h="])
    }

    @Test(
        "action resolution",
        arguments: [
            ("<form>", "https://example.test/dir/page.html?q=1"),
            ("<form action=''>", "https://example.test/dir/page.html?q=1"),
            ("<form action='  '>", "https://example.test/dir/page.html?q=1"),
            ("<form action='next'>", "https://example.test/dir/next"),
            ("<form action='../up?x=1&amp;y=2'>", "https://example.test/up?x=1&y=2"),
            ("<form action='/abs'>", "https://example.test/abs"),
            ("<form action='//other.test/p'>", "https://other.test/p"),
            ("<form action='?only=query'>", "https://example.test/dir/page.html?only=query"),
            ("<form action='https://idp.test/login'>", "https://idp.test/login"),
            ("<base href='https://base.test/root/'><form action='rel'>", "https://base.test/root/rel"),
            ("<base href='https://base.test/root/'><form action=''>", "https://example.test/dir/page.html?q=1"),
        ])
    func actions(markup: String, expected: String) throws {
        let form = try #require(try readPage(markup + "<input name=a value=1></form>").forms.first)
        #expect(form.actionURL == expected)
        #expect(try form.submission(clicking: nil).method == .get)
    }

    @Test("GET replaces the query and keeps the fragment; POST sends a urlencoded body")
    func methods() throws {
        let get = try #require(
            try readPage("<form action='/s?old=1#frag'><input name=q value='a b'></form>").forms.first)
        let getSubmission = try get.submission()
        #expect(getSubmission.url == "https://example.test/s?q=a+b#frag")
        #expect(getSubmission.body == nil)
        let post = try #require(
            try readPage("<form method=PoSt action='/s?keep=1'><input name=q value='a b'></form>").forms.first)
        let postSubmission = try post.submission()
        #expect(postSubmission.method == .post)
        #expect(postSubmission.url == "https://example.test/s?keep=1")
        #expect(postSubmission.bodyText == "q=a+b")
        #expect(postSubmission.contentType == "application/x-www-form-urlencoded")
        let invalid = try #require(try readPage("<form method=dialogx><input name=q></form>").forms.first)
        #expect(invalid.method == .get)
    }

    @Test("multipart and text/plain bodies")
    func enctypes() throws {
        let html = """
            <form method=post enctype='multipart/form-data'><input name=a value='x y'><input type=file name=f></form>
            <form method=post enctype='TEXT/PLAIN'><input name=a value='x y'><input name=b value='1'></form>
            """
        let forms = try readPage(html).forms
        let multipart = try forms[0].submission(boundary: "BOUNDARY")
        #expect(multipart.contentType == "multipart/form-data; boundary=BOUNDARY")
        #expect(
            multipart.bodyText == "--BOUNDARY\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx y\r\n"
                + "--BOUNDARY\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n\r\n--BOUNDARY--\r\n")
        let plain = try forms[1].submission()
        #expect(plain.enctype == .textPlain)
        #expect(plain.bodyText == "a=x y\r\nb=1\r\n")
    }

    @Test("overrides fill credentials in place; unknown names are appended sorted")
    func overrides() throws {
        let form = try #require(
            try readPage(
                "<form method=post><input name=user><input type=password name=pw><input type=hidden name=t value=1></form>"
            ).forms
                .first)
        let submission = try form.submission(setting: ["pw": "s3cret&=", "user": "me@x", "zz": "2", "aa": "1"])
        #expect(submission.entries.map(\.name) == ["user", "pw", "t", "aa", "zz"])
        #expect(submission.bodyText == "user=me%40x&pw=s3cret%26%3D&t=1&aa=1&zz=2")
    }

    @Test("overrides tick a checkbox or choose a radio by value")
    func checkableOverrides() throws {
        let form = try #require(
            try readPage(
                "<form><input type=checkbox name=Kmsi value=true><input type=radio name=r value=a checked><input type=radio name=r value=b></form>"
            ).forms.first)
        let entries = try form.submission(setting: ["Kmsi": "true", "r": "b"]).entries
        #expect(entries == [FormEntry(name: "Kmsi", value: "true"), FormEntry(name: "r", value: "b")])
        #expect(try form.submission(setting: ["Kmsi": "no"]).entries == [FormEntry(name: "r", value: "a")])
    }

    @Test("a submitter's formaction, formmethod and formenctype win")
    func submitterOverrides() throws {
        let form = try #require(
            try readPage(
                "<form action=/a method=get><input name=q value=1><button name=b formaction=/b formmethod=post>B</button></form>"
            )
            .forms.first)
        let submission = try form.submission(clicking: form.submitButtons.first)
        #expect(submission.method == .post)
        #expect(submission.url == "https://example.test/b")
        #expect(submission.bodyText == "q=1&b=")
    }

    @Test("a submitter from another form is refused")
    func foreignSubmitter() throws {
        let forms = try readPage(
            "<form><input name=a><input type=submit name=s1></form><form><input name=b><input name=c><input type=submit name=s2></form>"
        ).forms
        #expect(throws: FormSubmissionError.self) { try forms[0].submission(clicking: forms[1].submitButtons[0]) }
    }

    @Test("_charset_ hidden field carries the encoding")
    func charsetField() throws {
        #expect(try entries("<form><input type=hidden name=_charset_></form>") == ["_charset_=UTF-8"])
    }
}
