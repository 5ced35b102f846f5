import Cryptography
import Foundation
import Transport

/// How a ``TokenSet`` is kept in a session file: one comment line, `# spconnect-tokens {json}`, after the metadata
/// line (curl skips comment lines, so the file stays a cookie file). It holds the tokens: the file is 0600 like
/// every session file.
enum TokenSetLine {
    static let prefix = "# spconnect-tokens "

    private struct Record: Codable {
        var kind: TokenSet.Kind
        var appId: String
        var tenant: String
        var authority: String
        var scope: String
        var accessToken: String
        var obtainedAt: Double
        var expiresAt: Double
        var refreshToken: String?
        var certificate: CertificateCredential?
    }

    static func render(_ tokens: TokenSet) -> String {
        let record = Record(
            kind: tokens.kind, appId: tokens.appId, tenant: tokens.tenant, authority: tokens.authority,
            scope: tokens.scope, accessToken: tokens.accessToken.revealedValue(),
            obtainedAt: tokens.obtainedAt.timeIntervalSince1970, expiresAt: tokens.expiresAt.timeIntervalSince1970,
            refreshToken: tokens.refreshToken?.revealedValue(), certificate: tokens.certificate)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and numbers always encode; an empty object (which parses as invalid) is the fallback.
        return prefix + ((try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) } ?? "{}")
    }

    /// The token set of a `# spconnect-tokens` line, or nil when the line is not a valid one.
    static func parse(_ line: String) -> TokenSet? {
        guard line.hasPrefix(prefix),
            let record = try? JSONDecoder().decode(Record.self, from: Data(line.dropFirst(prefix.count).utf8)),
            record.obtainedAt.isFinite, record.expiresAt.isFinite, abs(record.expiresAt) < 1e12,
            abs(record.obtainedAt) < 1e12
        else { return nil }
        return TokenSet(
            kind: record.kind, appId: record.appId, tenant: record.tenant, authority: record.authority,
            scope: record.scope, accessToken: Secret(record.accessToken),
            obtainedAt: Date(timeIntervalSince1970: record.obtainedAt),
            expiresAt: Date(timeIntervalSince1970: record.expiresAt),
            refreshToken: record.refreshToken.map(Secret.init),
            certificate: record.certificate)
    }
}
