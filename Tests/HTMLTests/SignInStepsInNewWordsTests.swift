import AuthFlow
import HTML
import Testing

/// Second-factor and refusal pages read from generic signals rather than one page's words (issue #37, class 6): a
/// token's passcode asked in a password-type input, a choice of methods by radio buttons or a list, a refusal in a
/// page's general message box, in Japanese too.
@Suite("Sign-in steps in new words")
struct SignInStepsInNewWordsTests {
    @Test(
        "a bare password-type input after the user is known, on a page asking for a code, is the code's",
        arguments: [
            #"<h2>Second step</h2><p>Please enter the passcode shown on your hardware token.</p>"#
                + #"<form method=post><input type=hidden name=user value=alice><label for=t>Response</label>"#
                + #"<input id=t type=password name=answer autocomplete=off><input type=submit value="Log In"></form>"#,
            #"<h1>Token</h1><form method=post><label>Username <input name=username value=alice disabled></label>"#
                + #"<label>Value <input type=password name=pw></label><button>Continue</button></form>"#,
        ])
    func passcodeInAPasswordInput(html: String) throws {
        let page = try readPage(html)
        let form = try #require(page.forms.first)
        #expect(form.passwordField == nil, "the password would go into the code field")
        #expect(form.codeField != nil)
        #expect(page.classification.kind == .oneTimeCode, "\(page.classification.reason)")
    }

    @Test("the same bare input on a page that asks for the password, or beside a user name to type, stays the password")
    func barePasswordInputsStayPasswords() throws {
        let asksPassword = try readPage(
            #"<h1>Enter your password</h1><p>Your token is on its way.</p><form method=post>"#
                + #"<input type=hidden name=user value=alice><input type=password name=answer></form>"#)
        #expect(asksPassword.forms.first?.passwordField?.name == "answer")
        let withUser = try readPage(
            #"<p>Sign in with your token</p><form method=post><input name=login>"#
                + #"<input type=password name=answer></form>"#)
        #expect(withUser.forms.first?.passwordField?.name == "answer")
        #expect(withUser.classification.kind == .credentialForm)
    }

    @Test(
        "a choice of methods by radio buttons or a list is a second-factor step",
        arguments: [
            #"<h1>How do you want to verify?</h1><form method=post><label><input type=radio name=m value=sms> Text me</label>"#
                + #"<label><input type=radio name=m value=voice> Phone call</label>"#
                + #"<label><input type=radio name=m value=app> Authenticator app</label><button>Continue</button></form>"#,
            #"<form method=post><select name=device><option value=1>iPhone (push)</option>"#
                + #"<option value=2>Security key</option><option value=3>SMS to ***12</option></select>"#
                + #"<button>Next</button></form>"#,
        ])
    func methodChoices(html: String) throws {
        let page = try readPage(html)
        #expect(page.classification.kind == .secondFactor, "\(page.classification.reason)")
    }

    @Test("a form of radio buttons that name no method is not a second factor")
    func otherChoices() throws {
        let page = try readPage(
            #"<form method=post><label><input type=radio name=lang value=en> English</label>"#
                + #"<label><input type=radio name=lang value=de> Deutsch</label><button>Continue</button></form>"#)
        #expect(page.classification.kind != .secondFactor)
    }

    @Test(
        "a refusal in the page's general message box is an error, in any lexicon language",
        arguments: [
            "ユーザー名またはパスワードが正しくありません。", "Invalid username or password.",
            "Benutzername oder Passwort ist falsch.",
        ])
    func refusalInAMessageBox(message: String) throws {
        let page = try readPage(
            #"<h1>Login</h1><div class="message">\#(message)</div><form method=post><input name=uid>"#
                + #"<input type=password name=pw><button>Login</button></form>"#)
        #expect(page.errorText == message)
        #expect(page.classification.kind == .error)
    }

    @Test("a refusal coloured red is an error; red text that refuses nothing is not")
    func refusalInRed() throws {
        let form = #"<form method=post><input name=uid><input type=password name=pw></form>"#
        let font = try readPage(#"<font color="red">パスワードが正しくありません</font>"# + form)
        #expect(font.errorText == "パスワードが正しくありません")
        let styled = try readPage(#"<p style="color: #c00">Incorrect password.</p>"# + form)
        #expect(styled.errorText == "Incorrect password.")
        let notice = try readPage(#"<p style="color:red">Required fields are marked.</p>"# + form)
        #expect(notice.errorText == nil)
    }

    @Test(
        "a push prompt names a device or a method: either is enough",
        arguments: [
            "<h1>Check your phone</h1><p>We sent a notification. Tap Yes to continue.</p>",
            "<h1>Push sent</h1><p>Approve the push notification in your authenticator.</p>",
        ])
    func pushPrompts(html: String) throws {
        let page = try readPage(
            html + #"<form method=post action=/poll><input type=hidden name=tx value=1></form>"#)
        #expect(page.classification.kind == .secondFactor, "\(page.classification.reason)")
    }

    @Test("a message box that says something else is no error")
    func otherMessages() throws {
        let page = try readPage(
            #"<div class="message">Welcome back! Sign in with your password.</div><form method=post><input name=uid>"#
                + #"<input type=password name=pw></form>"#)
        #expect(page.errorText == nil)
        #expect(page.classification.kind == .credentialForm)
    }
}
