import AuthFlow
import HTML
import Testing

@Suite("Classifier")
struct ClassifierTests {
    func classify(_ html: String) throws -> PageClassification { try readPage(html).classification }

    @Test("password form is a credential form; with an error message it is an error page")
    func credentialForms() throws {
        let form = "<form method=post><input type=email name=login><input type=password name=pw></form>"
        let plain = try classify(form)
        #expect(plain.kind == .credentialForm)
        #expect(plain.formIndex == 0)
        #expect(plain.reason.contains("password"))
        let failed = try classify("<div role=alert>Wrong password</div>" + form)
        #expect(failed.kind == .error)
        #expect(failed.reason.contains("Wrong password"))
    }

    @Test(
        "username detection: email type, or a text name/id/autocomplete saying user/login/email/upn/account",
        arguments: [
            ("<input type=email name=x>", "x"), ("<input name=UserName>", "UserName"),
            ("<input name=loginfmt>", "loginfmt"),
            ("<input id=upn name=u1>", "u1"), ("<input name=q autocomplete=username>", "q"),
            ("<input name=accountName>", "accountName"), ("<input type=hidden name=username><input name=city>", nil),
            ("<input name=search>", nil),
        ])
    func usernameField(markup: String, expected: String?) throws {
        let form = try #require(try readPage("<form>\(markup)<input type=password name=p></form>").forms.first)
        #expect(form.usernameField?.name == expected)
    }

    @Test("of several password forms, the one asking for the user name too; labels of a repeated id stay in their form")
    func severalPasswordForms() throws {
        let passcode =
            "<form method=post action=/token><label for=u>User</label><input id=u name=a>"
            + "<label for=p>Passcode</label><input id=p type=password name=b></form>"
        let password =
            "<form method=post action=/login><label for=p>Password</label><input id=p type=password name=b></form>"
        let withUser =
            "<form method=post action=/login><label for=u>User</label><input id=u name=a>"
            + "<label for=p>Password</label><input id=p type=password name=b></form>"
        let page = try readPage(passcode + withUser)
        #expect(page.forms[0].codeField?.name == "b", "the passcode form's own label says code")
        #expect(page.forms[1].passwordField?.name == "b")
        #expect(page.classification.kind == .credentialForm)
        #expect(page.classification.formIndex == 1)
        // A password-only form first, then one with the user name: the pair wins.
        let pair = try readPage(password.replacingOccurrences(of: "id=p", with: "id=q") + withUser).classification
        #expect(pair.formIndex == 1)
    }

    @Test(
        "second factors with nothing to type: registration links, a number to match, a button per method, a WebAuthn form",
        arguments: [
            (
                #"<h1><span trspan="choose2f"></span></h1><a href="/2fregisters/totp"><img src="/s/totp.png"></a>"#
                    + #"<a href="/2fregisters/u"><img src="/s/u2f.png" alt="U2F"></a>"#, "links to register totp, u2f"
            ),
            ("<p>Approve the sign-in request in your app.</p><h2>42</h2>", "a number to match"),
            (
                "<h1>Check your phone</h1><p>We sent a push notification to your device. Approve it to continue.</p>"
                    + "<script>setInterval(poll, 2000)</script>", "approve on a device"
            ),
            (
                #"<form method=post><button name=sms>Send SMS</button><button name=call>Call my phone</button></form>"#,
                "one per method: Send SMS, Call my phone"
            ),
            (
                #"<form method=post action="/webauthn/start"><input type=hidden name=challenge value=c>"#
                    + "<button>Use a security key</button></form>", "WebAuthn"
            ),
        ])
    func secondFactorsWithNothingToType(markup: String, signal: String) throws {
        let result = try classify(markup)
        #expect(result.kind == .secondFactor, "\(result.reason)")
        #expect(result.signals.joined(separator: " ").contains(signal), "\(result.signals)")
    }

    @Test("what a second factor with nothing to type must not take: a way on, another form to fill, an error number")
    func notSecondFactors() throws {
        // A skippable set-up prompt is a notice with one way on.
        let skippable = try classify(
            "<form method=post><button name=a>Set up authenticator app</button><button name=b>Set up SMS</button>"
                + "<button name=skip>Skip for now</button></form>")
        #expect(skippable.kind == .notice, "\(skippable.reason)")
        // A passkey alternative beside a user-name form: the user name is asked first.
        let passkey = try classify(
            "<form method=post action=/login><input name=username></form>"
                + "<form method=post action=/webauthn/login><button>Use a passkey</button></form>")
        #expect(passkey.kind == .usernameStep, "\(passkey.reason)")
        // An error number and an approval word are no number to match.
        let forbidden = try classify("<h1>403</h1><p>This app requires approval from your administrator.</p>")
        #expect(forbidden.kind != .secondFactor, "\(forbidden.reason)")
        // A timer that cancels a code page is not the page's way on.
        let timer = try classify(
            "<form id=code method=post action=/code><input name=otp autocomplete=one-time-code></form>"
                + "<form id=cancel method=post action=/cancel></form>"
                + "<script>setTimeout(function(){document.getElementById('cancel').submit()},300000)</script>")
        #expect(timer.kind == .oneTimeCode, "\(timer.reason)")
    }

    @Test("a sign-up form above the sign-in form does not take the password")
    func signUpAboveSignIn() throws {
        let page = try readPage(
            "<form method=post action=/signup><input name=email><input type=password name=new_password></form>"
                + "<form method=post action=/login><input name=username><input type=password name=password></form>")
        #expect(page.classification.kind == .credentialForm)
        #expect(page.classification.formIndex == 1)
    }

    @Test("a load-time submit of a form with nothing to type is a self-submitting page, protocol fields or not")
    func loadTimeSubmitWithoutFields() throws {
        let onload = try classify(
            #"<body onload="document.forms[0].submit()"><form method=post action="/login/fallback"></form></body>"#)
        #expect(onload.kind == .autoPost && onload.formIndex == 0)
        let script = try classify(
            #"<form id=f method=post action="/negotiate"><noscript><button>Go</button></noscript></form>"#
                + "<script>document.getElementById('f').submit();</script>")
        #expect(script.kind == .autoPost)
        // A form with something to type is not submitted for the person.
        let typed = try classify(
            #"<body onload="document.forms[0].submit()"><form method=post><input name=city></form></body>"#)
        #expect(typed.kind != .autoPost)
    }

    @Test("a lone password input named new beside a user field is the sign-in password; a change asks twice")
    func loneNewNamedPassword() throws {
        let signIn = try readPage(
            "<form method=post><input name=NewLoginUsername><input type=password name=NewLoginPassword></form>")
        #expect(signIn.forms[0].passwordField?.name == "NewLoginPassword")
        #expect(signIn.classification.kind == .credentialForm)
        let change = try readPage(
            "<form method=post><input name=username><input type=password name=NewPassword>"
                + "<input type=password name=ConfirmPassword></form>")
        #expect(change.classification.kind == .passwordChange)
        let declared = try readPage(
            "<form method=post><input name=username>"
                + "<input type=password name=NewPassword autocomplete=new-password></form>")
        #expect(declared.classification.kind == .passwordChange)
        let alone = try readPage("<form method=post><input type=password name=NewPassword></form>")
        #expect(alone.classification.kind == .passwordChange, "no user field: the new password of a change")
    }

    @Test("a username-only first step is a username step (a credential form in the manifest's words)")
    func usernameFirstStep() throws {
        let result = try classify(
            "<form><input type=hidden name=ctx value=1><input name=username><button>Next</button></form>")
        #expect(result.kind == .usernameStep)
        #expect(result.kind.manifestName == "credential-form")
        #expect(result.reason.contains("username"))
        #expect(try classify("<form><input type=hidden name=username value=a><input name=city></form>").kind == .other)
    }

    @Test(
        "one-time-code inputs make an MFA page",
        arguments: [
            "<input name=x autocomplete=one-time-code>", "<input name=otp inputmode=numeric>", "<input name=totp>",
            "<input type=tel name=verificationCode>", "<input name=OathCode>", "<input name=Pin>",
        ])
    func mfaInputs(markup: String) throws {
        let result = try classify("<form method=post><input type=hidden name=state value=1>\(markup)</form>")
        #expect(result.kind == .oneTimeCode)
        #expect(result.formIndex == 0)
    }

    @Test("$Config page ids: KMSI, TFA, plain sign-in")
    func configKinds() throws {
        func config(_ body: String) throws -> PageClassification { try classify("<script>$Config=\(body);</script>") }
        #expect(try config(#"{"pgid":"KmsiInterrupt","urlPost":"/kmsi"}"#).kind == .kmsi)
        #expect(try config(#"{"pgid":"ConvergedTFA","urlPost":"/tfa"}"#).kind == .secondFactor)
        #expect(
            try config(
                #"{"pgid":"Other","urlPost":"/p","urlBeginAuth":"/b","arrUserProofs":[{"authMethodId":"PhoneAppNotification"}]}"#
            )
            .kind == .secondFactor)
        #expect(
            try config(#"{"pgid":"ConvergedSignIn","urlPost":"/p","sErrorCode":"50058","sErrTxt":""}"#).kind
                == .aadConfig)
        #expect(try config(#"{"pgid":"ConvergedSignIn"}"#).kind == .other)
    }

    @Test("a hidden-only form that submits itself next to a login form does not make an auto-post page")
    func loginBesideHiddenForm() throws {
        let html = """
            <form id=login method=post><input name=UserName type=email><input name=Password type=password></form>
            <form id=options method=post><input type=hidden name=AuthMethod></form>
            <script>document.forms['options'].submit();</script>
            """
        #expect(try classify(html).kind == .credentialForm)
    }

    @Test("pages without forms: script redirect, refresh, nothing")
    func others() throws {
        let redirect = try classify("<script>window.location='https://a.test/'</script>")
        #expect(redirect.kind == .other)
        #expect(redirect.navigation == .scriptRedirect(url: "https://a.test/"))
        #expect(redirect.reason.contains("https://a.test/"))
        let nothing = try classify("<p>Hello</p>")
        #expect(nothing.kind == .other)
        #expect(nothing.navigation == nil)
        #expect(nothing.reason == "no form and no redirect")
        let failure = try classify("<div class=alert>Service unavailable</div>")
        #expect(failure.kind == .error)
        #expect(failure.reason == "no sign-in form; the page shows an error: Service unavailable")
    }
}

@Suite("Classifier: second factors without a code field")
struct SecondFactorChoiceTests {
    /// A page with only a link to enrol a second factor is a second factor (exit 4), in several languages; a page
    /// that merely mentions an authenticator app is not.
    @Test(arguments: [
        "<h1>Set up two-factor authentication</h1><p>Your organisation requires it.</p><a href=/enroll>Start</a>",
        "<h2>Zwei-Faktor-Authentifizierung einrichten</h2><a href=/setup>Weiter</a>",
        "<h1>Configurer la double authentification</h1><a href=/setup>Continuer</a>",
        "<h1>多要素認証の登録</h1><a href=/mfa>次へ</a>",
    ])
    func enrolmentPagesAreSecondFactors(html: String) throws {
        let result = try readPage(html).classification
        #expect(result.kind == .secondFactor, "\(result.reason)")
        #expect(result.signals.contains { $0.contains("set up a second factor") })
    }

    @Test func mentioningAnAuthenticatorIsNotEnrolment() throws {
        #expect(try readPage("<h1>Welcome</h1><p>Download our authenticator app.</p>").classification.kind == .other)
    }

    /// Duo's prompt for a user whose only factor is push: the real page with its passcode inputs taken out.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func duoPushOnlyPromptIsMFA() throws {
        let bytes = try #require(readFile(Corpus.directory + "/duo-universal-prompt-mfa.html"))
        let html = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains(#"name="passcode""#) }.joined(separator: "\n")
        let page = try readPage(html, url: "https://api-1.duosecurity.test/frame/prompt")
        #expect(page.forms.allSatisfy { $0.codeField == nil }, "the passcode inputs are gone")
        let result = page.classification
        #expect(result.kind == .secondFactor)
        #expect(result.formIndex == 0)
        #expect(result.reason.contains("factor=Duo Push"))
    }

    /// An ADFS MFA adapter's waiting step posts itself to poll: it is a second factor, not an auto-post.
    @Test func adfsAdapterStepIsMFAEvenWhenItPostsItself() throws {
        let html = """
            <form method="post" id="options" action="/adfs/ls/?client-request-id=1">
              <input type="hidden" name="AuthMethod" value="AzureMfaAuthentication">
              <input type="hidden" name="Context" value="ctx-value">
            </form>
            <p>We've sent a notification to your mobile device.</p>
            <script>setTimeout(function () { document.forms[0].submit(); }, 5000);</script>
            """
        let result = try readPage(html, url: "https://sts.contoso.test/adfs/ls/").classification
        #expect(result.kind == .secondFactor)
        #expect(result.reason.contains("AuthMethod=AzureMfaAuthentication"))
    }

    /// First-factor methods, and ADFS's "other options" page whose method is still empty, are not second factors.
    @Test(arguments: [
        #"<form method=post><input type=hidden name=AuthMethod value=FormsAuthentication><input name=UserName><input type=password name=Password></form>"#,
        #"<form method=post><input type=hidden name=AuthMethod value=""><input type=hidden name=Context value=c><button>Other</button></form>"#,
        #"<form method=post><input type=hidden name=AuthMethod value=WindowsAuthentication><input type=hidden name=Context value=c></form><script>document.forms[0].submit()</script>"#,
    ])
    func firstFactorsAndEmptyChoicesAreNot(html: String) throws {
        #expect(try readPage(html).classification.kind.manifestName != "mfa")
    }
}
