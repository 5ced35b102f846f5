import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

/// What the engine does with a notice or consent page: clicks its one way on when that stays on the page's own
/// origin, and stops (exit 4, consent) when it leads elsewhere.
@Suite struct NoticeEngineTests {
    static func decide(_ body: String, allowing hosts: Set<String> = []) -> SignInAction {
        var machine = SignInMachine(
            .web(
                url: "https://sp.example.test/protected/", username: "alice", password: Secret("alice-pass-1"),
                policy: SignInPolicy(allowedHosts: hosts)))
        _ = machine.start()
        return machine.receive(
            SignInResponse(
                url: "https://idp.example.test/consent?StateId=s", status: 200,
                headers: [("Content-Type", "text/html")], location: nil, body: Array(body.utf8), siteCookies: []))
    }

    @Test func theOneWayOnIsTakenOnTheSameOrigin() {
        let page =
            #"<form action="/getconsent"><input type=hidden name=StateId value=s><button name=yes>Yes, continue</button></form>"#
            + #"<form action="/noconsent"><input type=hidden name=StateId value=s><button name=no>No, cancel</button></form>"#
        guard case .send(let request) = Self.decide(page) else {
            Issue.record("the consent page was not continued")
            return
        }
        #expect(request.url.hasPrefix("https://idp.example.test/getconsent?"))
        #expect(request.url.contains("yes="))
        #expect(!request.carriesCredentials)
    }

    @Test func aWayOnToAnotherHostStopsAsConsent() {
        let page =
            #"<form action="https://elsewhere.example.test/accept"><input type=hidden name=t value=1><button>Accept</button></form>"#
        guard case .finish(.interactionRequired(.consent, _, let message, _, _)) = Self.decide(page) else {
            Issue.record("expected a stop for consent")
            return
        }
        #expect(message?.contains("another host") == true)
        // A host the user allowed (bare: port 443, as everywhere in the policy) may take it.
        guard case .send(let request) = Self.decide(page, allowing: ["elsewhere.example.test"]) else {
            Issue.record("an allowed host was refused")
            return
        }
        #expect(request.url.hasPrefix("https://elsewhere.example.test/accept"))
    }
}

/// A page's own error text is quoted in the outcome's message only up to a sentence's length: a stack trace an error
/// page prints (SimpleSAMLphp's new UI does) does not become a screenful on standard error.
@Suite struct LongErrorTextTests {
    @Test func aLongErrorIsCutAtAWord() {
        var machine = SignInMachine(
            .web(url: "https://sp.example.test/protected/", username: "alice", password: Secret("alice-pass-1")))
        _ = machine.start()
        let trace = (1...200).map { "frame \($0) lib/Something.php:\($0)" }.joined(separator: " ")
        let page = "<h1>Error</h1><p>An unhandled exception was thrown. \(trace)</p>"
        let action = machine.receive(
            SignInResponse(
                url: "https://idp.example.test/error", status: 200, headers: [("Content-Type", "text/html")],
                location: nil, body: Array(page.utf8), siteCookies: []))
        guard case .finish(let outcome) = action else {
            Issue.record("expected a stop, got \(action)")
            return
        }
        #expect(outcome.message.contains("An unhandled exception was thrown"), "\(outcome.message)")
        #expect(outcome.message.contains("…"), "\(outcome.message)")
        #expect(outcome.message.count < 600, "\(outcome.message.count) characters")
    }
}
