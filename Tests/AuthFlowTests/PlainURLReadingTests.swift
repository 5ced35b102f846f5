import Foundation
import Testing

@testable import AuthFlow
@testable import AuthFlowCore

/// What the sign-in reads on bytes instead of with Foundation's URL parser and date formatters (those load ICU's
/// tables into every sign-in's memory, docs/performance.md): the same answers as Foundation gives.
@Suite struct PlainURLReadingTests {
    /// Foundation's reading of `text`, as `URLParts` made it before.
    static func foundationParts(_ text: String) -> (scheme: String, host: String, port: Int)? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return nil
        }
        var host = (components.host ?? "").lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (scheme, host, components.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0))
    }

    @Test(arguments: [
        "https://contoso.sharepoint.com/sites/team",
        "HTTPS://Login.MicrosoftOnline.com:443/common/oauth2/authorize?x=1",
        "http://127.0.0.1:8080", "http://127.0.0.1:8080?query", "https://adfs.contoso.com:8443/adfs/ls/#frag",
        "https://a-b_c.example.test:/x", "https://user:pw@evil.test@good.test/", "https://[::1]:8443/x",
        "https://xn--bcher-kva.example/", "https://bücher.example/", "https://host:99999/", "https://host:80x/",
        "https:\\\\evil.test/", "https://host%2Eexample/", "ftp://files.example/a", "mailto:someone@example.test",
        "https://host.example:0/",
    ])
    func aURLsOriginIsFoundationsReading(_ text: String) {
        let parts = URLParts(text)
        let foundation = Self.foundationParts(text)
        #expect(parts?.scheme == foundation?.scheme, "\(text)")
        #expect(parts?.host == foundation?.host, "\(text)")
        #expect(parts?.port == foundation?.port, "\(text)")
    }

    @Test func timesAreWrittenAndReadAsTheISOFormatterDid() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for seconds in [0.0, 1_796_579_442.503, 1_796_579_442.0, 951_782_400.999, 4_102_444_799.5] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601Time.string(from: date) == formatter.string(from: date), "\(seconds)")
            let read = try #require(ISO8601Time.date(from: formatter.string(from: date)))
            #expect(abs(read.timeIntervalSince1970 - seconds) < 0.001)
        }
        #expect(ISO8601Time.date(from: "2026-12-06T18:20:05Z") == Date(timeIntervalSince1970: 1_796_581_205))
        for bad in ["2026-12-06 18:20:05Z", "2026-13-06T18:20:05Z", "2026-12-06T18:20:05", "2026-12-06T18:20:05.Z", ""]
        {
            #expect(ISO8601Time.date(from: bad) == nil, "\(bad)")
        }
    }
}
