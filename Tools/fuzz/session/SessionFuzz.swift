import Foundation
import FuzzSupport
import Transport

// Fuzz target: the session file (a Netscape cookie file with spconnect's metadata line) and the last sign-in record,
// as `SessionStore.load` and `SessionStore.lastSignIn` read them (Modules/AuthFlow/SessionStore.swift, through
// `@testable import`; the cookie lines are Transport's `Cookie(netscapeLine:)`).
//
// Oracles: a file that parses renders to a file that parses back to the same session (the proof time within
// floating-point rounding: it is stored as seconds since 1970; an expiry before 1970 is written as 1 s), and a sign-in record that parses renders to text
// that parses and renders to the same text.
@testable import AuthFlow
@testable import AuthFlowCore

func fuzzSession(_ bytes: [UInt8]) {
    let text = Fuzz.text(bytes)
    // An expiry at the top of Int64 once trapped rendering (fixed; docs/fuzzing.md, crash 5).
    if let session = try? NetscapeCookieFile.parse(text) {
        let rendered = NetscapeCookieFile.render(session)
        do {
            let again = try NetscapeCookieFile.parse(rendered)
            Fuzz.check(same(session, again), "a rendered session reads back differently:\n\(rendered)")
        } catch {
            Fuzz.check(false, "a rendered session does not parse (\(error.reason)):\n\(rendered)")
        }
        let names = session.cookies.prefix(4).map(\.name)
        _ = session.isValid(requiring: names, at: Date(timeIntervalSince1970: 1_700_000_000))
        _ = (session.expiry(of: names), session.description)
    }

    // A time ICU dies on (35 or more fraction digits) once killed the record reader (fixed; crash 4).
    if let record = try? SignInRecordFile.parse(Data(bytes)) {
        let rendered = SignInRecordFile.render(record)
        do {
            let again = try SignInRecordFile.parse(Data(rendered.utf8))
            Fuzz.check(SignInRecordFile.render(again) == rendered, "a rendered sign-in record changes:\n\(rendered)")
        } catch {
            Fuzz.check(false, "a rendered sign-in record does not parse (\(error)):\n\(rendered)")
        }
    }
}

/// The cookie as a cookie file keeps it: an expiry before 1970-01-01T00:00:01 is written as 1 (0 would mean a
/// session cookie); both are in the past.
func clampedExpiry(_ cookie: Cookie) -> Cookie {
    var cookie = cookie
    if let expires = cookie.expires, expires.timeIntervalSince1970 < 1 {
        cookie.expires = Date(timeIntervalSince1970: 1)
    }
    return cookie
}

func same(_ a: Session, _ b: Session) -> Bool {
    let time = a.provedAt.timeIntervalSince1970
    let tolerance = max(1e-6, abs(time) * 1e-15)
    return a.siteURL == b.siteURL && a.user == b.user && a.displayName == b.displayName && a.flow == b.flow
        && abs(time - b.provedAt.timeIntervalSince1970) <= tolerance && a.policy == b.policy
        && a.cookies.map(clampedExpiry) == b.cookies && a.targetCookies == b.targetCookies
        && a.staySignedIn == b.staySignedIn
        && a.loginURL == b.loginURL && sameTokens(a.tokens, b.tokens)
}

/// Token sets equal but for the times' floating-point rounding (seconds since 1970 through `Date`).
func sameTokens(_ a: TokenSet?, _ b: TokenSet?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    func close(_ x: Date, _ y: Date) -> Bool {
        abs(x.timeIntervalSince1970 - y.timeIntervalSince1970) <= max(1e-6, abs(x.timeIntervalSince1970) * 1e-15)
    }
    return a.kind == b.kind && a.appId == b.appId && a.tenant == b.tenant && a.authority == b.authority
        && a.scope == b.scope && a.accessToken == b.accessToken && a.refreshToken == b.refreshToken
        && a.certificate == b.certificate && close(a.obtainedAt, b.obtainedAt) && close(a.expiresAt, b.expiresAt)
}

/// A session file as `SessionStore.save` writes it (one host-only and one domain cookie), an older file without the
/// later metadata keys, a token session, and a last sign-in record.
let seeds = [
    """
    # Netscape HTTP Cookie File
    # spconnect-session {"allowHTTPLoopback":false,"allowedHosts":["sts.contoso.com"],"displayName":"Alice","flow":\
    "adfs","loginURL":"https://login.microsoftonline.com/extSTS.srf","provedAt":1700000000.25,"site":\
    "https://contoso.sharepoint.com/sites/team","staySignedIn":true,"targetCookies":["FedAuth","rtFa"],"user":\
    "alice@contoso.com"}
    # This file holds secrets: keep it private (mode 0600).

    #HttpOnly_.contoso.sharepoint.com\tTRUE\t/\tTRUE\t1900000000\tFedAuth\t77u/PD94bWwgdmVyc2lvbj0iMS4wIj8+
    contoso.sharepoint.com\tFALSE\t/sites/team\tFALSE\t0\trtFa\tx=y;z

    """,
    "# Netscape HTTP Cookie File\n# spconnect-session {\"site\":\"https://c.sharepoint.com\",\"user\":\"app:a\","
        + "\"flow\":\"app-only\",\"provedAt\":1800000000.5}\n# spconnect-tokens {\"accessToken\":\"eyJ0.e30.c2ln\","
        + "\"appId\":\"a\",\"authority\":\"https://login.microsoftonline.com\",\"certificate\":{\"algorithm\":\"PS256\","
        + "\"certificatePath\":\"/k/app.crt\",\"keyPath\":\"/k/app.key\"},\"expiresAt\":1800003599.5,\"kind\":"
        + "\"app-only\",\"obtainedAt\":1800000000.5,\"scope\":\"https://c.sharepoint.com/.default\",\"tenant\":\"t\"}\n",
    "# Netscape HTTP Cookie File\r\n# spconnect-session {\"site\":\"http://127.0.0.1:8080\",\"user\":\"bob\","
        + "\"flow\":\"fba\",\"provedAt\":0}\r\n127.0.0.1\tFALSE\t/\tFALSE\t0\t.ASPXAUTH\r\n",
    #"{"at":"2026-01-02T03:04:05.678Z","message":"Signed in as alice.","source":"cli","steps":[{"cookiesSet":["FedAuth"],"#
        + #""decision":"done","fieldsSent":["UserName","Password"],"host":"sts.contoso.com","method":"POST","pageKind":"#
        + #""credential-form","purpose":"start","status":302,"step":0}],"succeeded":true}"#,
]

@main enum Main {
    static func main() { Fuzz.main(fuzzSession, seeds: seeds) }
}
