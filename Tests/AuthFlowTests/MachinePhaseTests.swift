import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

/// The machine's phases: a driver that feeds it out of turn stops at a precondition (its bug, not a sign-in
/// outcome), and the budget ends a sign-in that answers interrupts or repeats a request without end.
@Suite struct MachinePhaseTests {
    static func page(_ url: String, _ html: String) -> SignInResponse {
        SignInResponse(
            url: url, status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], location: nil,
            body: Array(html.utf8), siteCookies: [])
    }

    @Test func anAnswerBeforeTheStartIsADriversBug() async {
        await #expect(processExitsWith: .failure) {
            var machine = SignInMachine(
                SignInConfiguration(siteURL: "https://contoso.sharepoint.test", username: "a", password: Secret("p")))
            _ = machine.receive(MachinePhaseTests.page("https://contoso.sharepoint.test/", "<p>hello</p>"))
        }
    }

    @Test func anAnswerAfterTheEndIsADriversBug() async {
        await #expect(processExitsWith: .failure) {
            var machine = SignInMachine(
                SignInConfiguration(siteURL: "https://contoso.sharepoint.test", username: "a", password: Secret("p")))
            _ = machine.start()
            let nothing = MachinePhaseTests.page("https://contoso.sharepoint.test/x", "<p>nothing to do here</p>")
            guard case .finish = machine.receive(nothing) else { return }
            _ = machine.receive(nothing)
        }
    }

    @Test func aCodeNobodyAskedForIsADriversBug() async {
        await #expect(processExitsWith: .failure) {
            var machine = SignInMachine(
                SignInConfiguration(siteURL: "https://contoso.sharepoint.test", username: "a", password: Secret("p")))
            _ = machine.start()
            _ = machine.provide(code: Secret("123456"))
        }
    }

    /// A notice that comes back after each "Continue" is answered three times, then the sign-in calls it a loop.
    @Test func interruptsAnsweredAreBounded() {
        var machine = SignInMachine(
            SignInConfiguration(siteURL: "https://contoso.sharepoint.test", username: "a", password: Secret("p")))
        _ = machine.start()
        var continued = 0
        for round in 0..<10 {
            let notice = Self.page(
                "https://contoso.sharepoint.test/notice?round=\(round)",
                #"<form method="post" action="/notice"><input type="hidden" name="n" value="\#(round)">"#
                    + #"<p>Terms changed.</p><button type="submit">Continue</button></form>"#)
            switch machine.receive(notice) {
            case .send: continued += 1
            case .finish(.loop):
                #expect(continued == SignInBudget.interruptAnswers)
                return
            case let other:
                Issue.record("unexpected \(other)")
                return
            }
        }
        Issue.record("the notice was answered \(continued) times")
    }
}
