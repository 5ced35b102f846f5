import AuthFlow
import Foundation
import Testing
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs the libFuzzer targets in Tools/fuzz found (docs/fuzzing.md): each was a crash; each test fails without
/// its fix.
@Suite("Fuzz regressions: sessions")
struct SessionFuzzRegressionTests {
    let directory = NSTemporaryDirectory() + "spconnect-fuzz-\(UUID().uuidString)"

    /// fuzz-session: a last sign-in record whose time has 35 or more fraction digits kills the process with SIGFPE
    /// inside ICU (`SimpleDateFormat::subParse`, called by Foundation's `ISO8601DateFormatter.date(from:)` in
    /// `SignInRecordFile.parse`). A damaged `PROFILE.signin.json` should be "unreadable", not a crash.
    @Test
    func longFractionInTheLastSignInTimeIsUnreadableNotACrash() throws {
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fraction = String(repeating: "1", count: 35)
        let record = #"{"at":"2026-01-02T03:04:05."# + fraction + #"Z","message":"m","steps":[],"succeeded":true}"#
        try Data(record.utf8).write(to: URL(fileURLWithPath: try store.lastSignInPath(for: "work")))
        chmod(try store.lastSignInPath(for: "work"), 0o600)  // trusted, so the parser is what is tested
        #expect {
            try store.lastSignIn(profile: "work")
        } throws: { error in
            guard case .unreadableSignInRecord = error as? SessionStore.StoreError else { return false }
            return true
        }
    }

    /// Found reading Transport's cookie-file line for fuzz-session: an expiry at the top of the Int64 range (curl
    /// writes 9223372036854775807 for `Max-Age=9223372036854775807`) reads as a Date whose seconds, converted back
    /// with `Int64(_:)` in `Cookie.netscapeLine` (and `description`), overflow: saving such a session traps.
    @Test
    func cookieExpiringAtTheEndOfInt64SavesAndLoadsBack() throws {
        let line = "contoso.sharepoint.com\tFALSE\t/\tTRUE\t9223372036854775807\tFedAuth\tv"
        let cookie = try #require(Cookie(netscapeLine: line))
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = Session(
            siteURL: "https://contoso.sharepoint.com", user: "alice", flow: "adfs",
            provedAt: Date(timeIntervalSince1970: 1_700_000_000), cookies: [cookie])
        try store.save(session, profile: "work")
        let loaded = try #require(try store.load(profile: "work"))
        #expect(loaded.cookies.map(\.name) == ["FedAuth"])
        // fuzz-session, a long run: an expiry just under Int64.max (9.2e18 s) is no overflow and keeps its date.
        let near = try #require(Cookie(netscapeLine: "m\tFALSE\t/\tFALSE\t9200000000119841433\trtFa\tx"))
        try store.save(
            Session(siteURL: "https://contoso.test", user: "a", flow: "adfs", provedAt: Date(), cookies: [near]),
            profile: "near")
        #expect(try store.load(profile: "near")?.cookies.first?.expires == near.expires)
    }

    /// fuzz-session, in a 30 s CI run: a cookie line whose name holds control characters (NUL, U+0001) read back
    /// differently after the session was saved. Such a line is malformed (RFC 6265 allows no CTLs): the file is
    /// corrupt, not a session.
    @Test func aCookieLineWithControlCharactersIsMalformed() throws {
        #expect(Cookie(netscapeLine: "contoso.test\tFALSE\t/\tTRUE\t1900000000\tF\u{1}\u{0}x\tv") == nil)
        #expect(Cookie(netscapeLine: "contoso.test\tFALSE\t/\tTRUE\t1900000000\tFedAuth\tv\u{7f}") == nil)
        #expect(Cookie(netscapeLine: "contoso.test\tFALSE\t/\tTRUE\t1900000000\tFedAuth\tv")?.name == "FedAuth")
        // fuzz-session, a long run: bytes that are not UTF-8 (read as U+FFFD) in a name did not survive a save either.
        #expect(Cookie(netscapeLine: "contoso.test\tFALSE\t/\tTRUE\t0\tr\u{FFFD}\u{FFFD}vbj\t") == nil)
        #expect(Cookie(netscapeLine: "contoso.test\tFALSE\t/\tTRUE\t0\tnäme\tv") == nil)
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = try store.path(for: "work")
        let text =
            "# Netscape HTTP Cookie File\n# spconnect-session {\"flow\":\"adfs\",\"provedAt\":1,\"site\":"
            + "\"https://contoso.test\",\"user\":\"alice\"}\ncontoso.test\tFALSE\t/\tTRUE\t0\tF\u{1}\u{0}\tv\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        #expect {
            try store.load(profile: "work")
        } throws: { error in
            guard case .corrupt = error as? SessionStore.StoreError else { return false }
            return true
        }
    }
}
