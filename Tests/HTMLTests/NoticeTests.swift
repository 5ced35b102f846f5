import AuthFlow
import Testing

@testable import HTML

/// A notice or consent page with one way on and nothing to type is its own kind; pages that ask for something, offer
/// two ways on, or only say "yes" (a sign-out question says that too) are not.
@Suite("Classifier: notices and consent")
struct NoticeTests {
    static func kind(_ body: String) throws -> PageKind {
        try HTMLPage(bytes: Array(("<html><body>" + body + "</body></html>").utf8), url: "https://idp.example.test/a")
            .classification.kind
    }

    @Test(
        "one way on, nothing to type",
        arguments: [
            // SimpleSAMLphp's attribute release: two forms, "Yes, continue" and "No, cancel".
            #"<p>You are about to send your attributes.</p><form id=consent_yes action=/getconsent><input type=checkbox name=saveconsent value=1><input type=hidden name=StateId value=s><button type=submit name=yes id=yesbutton>Yes, continue</button></form><form id=consent_no action=/noconsent><input type=hidden name=StateId value=s><button type=submit name=no id=nobutton>No, cancel</button></form>"#,
            // Shibboleth-style consent with radio choices.
            #"<form method=post action=/idp/profile?execution=e1s2><input type=radio name=_shib_idp_consentOptions value=a checked><input type=radio name=_shib_idp_consentOptions value=b><input type=submit name=_eventId_AttributeReleaseRejected value="Reject"><input type=submit name=_eventId_proceed value="Accept"></form>"#,
            // German terms of use.
            #"<h1>Nutzungsbedingungen</h1><form method=post action=/terms><input type=hidden name=t value=1><button name=ok>Zustimmen</button><button name=no>Ablehnen</button></form>"#,
        ])
    func notices(_ body: String) throws {
        #expect(try Self.kind(body) == .notice)
    }

    @Test(
        "not a notice",
        arguments: [
            // A sign-out question: "Yes" alone is no way on.
            #"<p>Do you want to sign out?</p><form action=/logout><button name=yes>Yes</button><button name=no>No</button></form>"#,
            // Something to type.
            #"<form action=/next><input name=comment><button>Continue</button></form>"#,
            // Two ways on: the user has to choose.
            #"<form action=/a><button>Continue with work account</button></form><form action=/b><button>Continue with personal account</button></form>"#,
        ])
    func notNotices(_ body: String) throws {
        #expect(try Self.kind(body) != .notice)
    }
}
