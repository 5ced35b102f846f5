import AuthFlow
import HTML
import Testing

/// What a person sees: error templates hidden by CSS are not errors, decoy inputs are not fields, and a
/// frame-buster is not a redirect (issue #37, class 5).
@Suite("What a person sees")
struct VisibilityTests {
    static let usernameFirst =
        #"<form method=post action=/next><label for=u>Email</label><input id=u type=email name=user>"#
        + #"<button type=submit>Next</button>"#

    @Test(
        "an error template hidden by CSS is not shown, so the first page is a sign-in page",
        arguments: [
            #"<div class="alert alert-danger" style="display: none">Invalid username or password</div>"#,
            #"<div class="error-msg">Invalid username or password</div><style>.error-msg { display:none }</style>"#,
            #"<style>/* errors */ div.err.box{color:red;visibility : hidden}</style><div class="err box">Wrong password</div>"#,
            #"<style>#loginError { display: none !important; }</style><p id=loginError role=alert>Wrong password</p>"#,
            #"<div hidden><span role=alert>Invalid credentials</span></div>"#,
            #"<div aria-hidden=true class=error>Invalid credentials</div>"#,
            #"<div class="error d-none">Invalid credentials</div>"#,
            #"<div class=error style="position:absolute; left:-9999px">Invalid credentials</div>"#,
            #"<div class=error style="height:0;overflow:hidden">Invalid credentials</div>"#,
            #"<div class=error style="width:0px; height:0px">Invalid credentials</div>"#,
        ])
    func hiddenErrorTemplates(template: String) throws {
        let page = try readPage(
            template + #"<form method=post><input name=username><input type=password name=password></form>"#)
        #expect(page.errorText == nil, "\(template)")
        #expect(page.classification.kind == .credentialForm, "\(template)")
    }

    @Test("the same error shown is still an error, and a rule that shows again (or sits in @media) hides nothing")
    func shownErrorsStayErrors() throws {
        let form = #"<form method=post><input name=username><input type=password name=password></form>"#
        for shown in [
            #"<div class=error-msg role=alert>Invalid username or password</div>"#,
            #"<style>.msg{display:none}.msg.show{display:block}</style><div class="msg show" role=alert>Wrong password</div>"#,
            #"<style>@media print { .err { display:none } }</style><div class=err role=alert>Wrong password</div>"#,
            #"<style>.hide-on-mobile > .err { display:none }</style><div class=err role=alert>Wrong password</div>"#,
        ] {
            let page = try readPage(shown + form)
            #expect(page.errorText != nil, "\(shown)")
            #expect(page.classification.kind == .error, "\(shown)")
        }
    }

    @Test(
        "a decoy password input on a username-first step is no password field: the page is the username step",
        arguments: [
            #"<input type=password name=password aria-hidden=true>"#,
            #"<input type=password name=password tabindex="-1">"#,
            #"<input type=password name=password hidden>"#,
            #"<input type=password name=password style="display:none">"#,
            #"<div style="position:absolute;top:-1000px"><input type=password name=password></div>"#,
            #"<input type=password name=password class=sr-only>"#,
            #"<style>.pm-trap{opacity:.01;height:0;overflow:hidden}</style><div class=pm-trap><input type=password name=pw></div>"#,
        ])
    func decoyPasswordInputs(decoy: String) throws {
        let page = try readPage(Self.usernameFirst + decoy + "</form>")
        let form = try #require(page.forms.first)
        #expect(form.passwordField == nil, "\(decoy)")
        #expect(form.seenPasswordInputs.isEmpty, "\(decoy)")
        #expect(form.usernameField?.name == "user", "\(decoy)")
        #expect(page.classification.kind == .usernameStep, "\(decoy)")
    }

    @Test("a visible password beside a decoy one: the password goes to the visible one")
    func visiblePasswordBesideADecoy() throws {
        let page = try readPage(
            #"<form method=post><input name=username><input type=password name=trap tabindex=-1 aria-hidden=true>"#
                + #"<input type=password name=real></form>"#)
        let form = try #require(page.forms.first)
        #expect(form.passwordField?.name == "real")
        #expect(form.seenPasswordInputs.map(\.name) == ["real"])
        #expect(page.classification.kind == .credentialForm)
    }

    @Test("a form whose every input is hidden until its script shows it keeps its fields")
    func wholeFormHiddenUntilScripted() throws {
        let page = try readPage(
            #"<div id=app style="display:none"><form method=post><input name=username>"#
                + #"<input type=password name=password></form></div>"#)
        let form = try #require(page.forms.first)
        #expect(form.passwordField?.name == "password")
        #expect(form.usernameField?.name == "username")
    }

    @Test(
        "a frame-buster moves the top frame only when framed: no redirect on load",
        arguments: [
            "if (self != top) { top.location = 'https://idp.example.test/login'; }",
            "if (window.top !== window.self) window.top.location.href = '/login';",
            "if (top.location != self.location) { top.location.replace('/login'); }",
            "if (parent.frames.length > 0) parent.location.href = '/login';",
        ])
    func frameBusterIsNoRedirect(script: String) throws {
        let page = try readPage(
            "<script>\(script)</script>" + #"<form method=post><input name=u><input type=password name=p></form>"#)
        #expect(page.scriptRedirect == nil, "\(script)")
        #expect(page.classification.kind == .credentialForm)
    }

    @Test("a page that moves itself, or the top frame without asking whether it is framed, still redirects")
    func ownRedirectsStay() throws {
        for script in [
            "window.location.href = '/next';", "top.location.href = '/next';",
            "if (self != top) { top.location = self.location; } location.replace('/next');",
        ] {
            let page = try readPage("<html><body><script>\(script)</script></body></html>")
            #expect(page.scriptRedirect?.hasSuffix("/next") == true, "\(script)")
        }
    }
}
