import Foundation
import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

/// "Stay signed in" on a generic identity provider: with ``SignInConfiguration/staySignedIn`` the sign-in form's own
/// "remember me" box is checked as a person would check it; a "remember my user name" box is not that, and without
/// the option neither is touched. The page is shaped like SimpleSAMLphp's login form, which has both.
@Suite struct StaySignedInTests {
    static let page = """
        <form action="?" method="post" name="f">
          <input id="username" type="text" name="username" autocomplete="username">
          <input id="password" type="password" name="password" autocomplete="current-password">
          <label for="remember_username"><input id="remember_username" type="checkbox" name="remember_username"
            value="Yes"> <small>Remember my username</small></label>
          <label for="remember_me"><input id="remember_me" type="checkbox" name="remember_me" value="Yes">
            <small>Remember me</small></label>
          <input type="hidden" name="AuthState" value="_abc">
          <button type="submit" id="submit_button">Login</button>
        </form>
        """

    static func fields(staySignedIn: Bool, page: String = page) throws -> [(name: String, value: String)] {
        var machine = SignInMachine(
            .web(
                url: "https://sp.example.test/protected/", username: "alice", password: Secret("alice-pass-1"),
                staySignedIn: staySignedIn))
        _ = machine.start()
        let response = SignInResponse(
            url: "https://idp.example.test/simplesaml/module.php/core/loginuserpass.php?AuthState=_abc", status: 200,
            headers: [("Content-Type", "text/html; charset=utf-8")], location: nil, body: Array(page.utf8),
            siteCookies: [])
        guard case .send(let request) = machine.receive(response) else {
            Issue.record("the form was not filled")
            return []
        }
        return request.form ?? []
    }

    @Test func theRememberMeBoxIsCheckedOnlyWhenAskedAndNeverTheUserNameOne() throws {
        let staying = try Self.fields(staySignedIn: true)
        #expect(staying.filter { $0.name == "remember_me" }.map(\.value) == ["Yes"])
        #expect(!staying.contains { $0.name == "remember_username" })
        #expect(staying.contains { $0.name == "password" && $0.value == "alice-pass-1" })
        let notStaying = try Self.fields(staySignedIn: false)
        #expect(!notStaying.contains { $0.name == "remember_me" || $0.name == "remember_username" })
    }

    @Test(
        "remember-me boxes in other words and languages",
        arguments: [
            #"<label><input type=checkbox name=persist value=1> Keep me signed in</label>"#,
            #"<input type=checkbox id=kmsi name=opt value=on><label for=kmsi>Angemeldet bleiben</label>"#,
            #"<input type=checkbox name=x value=y aria-label="Se souvenir de moi">"#,
            #"<label><input type=checkbox name=chk value=1>ログインしたままにする</label>"#,
        ])
    func otherWordsAndLanguages(_ box: String) throws {
        let page = """
            <form method=post action=/login><input name=user autocomplete=username>
            <input type=password name=pw>\(box)<button>Sign in</button></form>
            """
        let fields = try Self.fields(staySignedIn: true, page: page)
        #expect(fields.count == 3, "\(fields.map(\.name))")
    }
}
