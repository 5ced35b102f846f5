public import Foundation
public import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Saves and loads sessions, one file per profile, as Netscape cookie files that `curl -b FILE` reads.
///
/// The file starts with `# Netscape HTTP Cookie File`, then one comment line carrying the session's
/// metadata as JSON (site, user, flow, proof time, policy, target cookies, "Stay signed in?" answer,
/// login service; never a secret), for a token session one `# spconnect-tokens` line (``TokenSet``), then one line per
/// cookie. Files are
/// written atomically (a temporary file in the same folder, then `rename`) with mode 0600, in a folder
/// with mode 0700. A value type; concurrent writers of one profile end with one whole file, never a mix.
///
/// Beside it, `PROFILE.signin.json` keeps a ``SignInRecord`` of the profile's last sign-in, successful or not
/// (``saveLastSignIn(_:profile:)``), written the same way. It is a separate file, so a failed sign-in never
/// touches the saved session; it holds no secret (hosts, names and the outcome's sentence only).
public struct SessionStore: Sendable {
    /// The folder holding the session files.
    public let directory: String

    /// Errors reading or writing session files. Messages name the file and what to do.
    public enum StoreError: Error, Equatable, CustomStringConvertible {
        case invalidProfileName(String)
        case io(path: String, reason: String)
        case corrupt(path: String, reason: String)
        /// The last sign-in record (``SessionStore/lastSignInPath(for:)``) cannot be read; the session is not
        /// affected.
        case unreadableSignInRecord(path: String, reason: String)
        /// The sessions folder or a file in it is not safe to use: another user could have written it (owner,
        /// mode, symbolic link). Nothing was read from it and nothing was sent anywhere.
        case untrusted(path: String, reason: String, fix: String)

        /// What went wrong, naming the file, and what to do about it.
        public var description: String {
            switch self {
            case .invalidProfileName(let name):
                return "profile name '\(name)' may only use letters, digits, '.', '-' and '_'."
            case .io(let path, let reason):
                return "could not write or read \(path): \(reason)."
            case .corrupt(let path, let reason):
                return "the session file \(path) is not a valid spconnect session (\(reason)); sign in again."
            case .unreadableSignInRecord(let path, let reason):
                return "the last sign-in record \(path) cannot be read (\(reason)); it is only a summary: the next "
                    + "sign-in replaces it, or delete it."
            case .untrusted(let path, let reason, let fix):
                return "refusing to use \(path): \(reason); \(fix)."
            }
        }
    }

    /// A store in `directory`, or by default `$XDG_STATE_HOME/spconnect/sessions`
    /// (`~/.local/state/spconnect/sessions` when unset).
    public init(directory: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let directory {
            self.directory = directory
        } else if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            self.directory = state + "/spconnect/sessions"
        } else {
            self.directory = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/spconnect/sessions"
        }
    }

    /// The file of a profile.
    public func path(for profile: String) throws(StoreError) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        guard !profile.isEmpty, profile.first != ".", profile.allSatisfy({ allowed.contains($0) }) else {
            throw .invalidProfileName(profile)
        }
        return directory + "/" + profile + ".cookies"
    }

    /// The throttling back-off every process of `profile` shares (`PROFILE.backoff` beside the session): a 429 or
    /// 503 with `Retry-After` seen by one pauses the others until that time. Nil for a name no profile can have.
    public func sharedBackoff(for profile: String) -> SharedBackoff? {
        guard let path = try? path(for: profile) else { return nil }
        return SharedBackoff(path: String(path.dropLast(".cookies".count)) + ".backoff")
    }

    /// The request budget every process of `profile` spends together (`PROFILE.budget` beside the session): once the
    /// server states its budget, each request waits for its share of it (``SharedRateBudget``). Nil for a name no
    /// profile can have.
    public func sharedRateBudget(for profile: String) -> SharedRateBudget? {
        guard let path = try? path(for: profile) else { return nil }
        return SharedRateBudget(path: String(path.dropLast(".cookies".count)) + ".budget")
    }

    /// Writes `session` for `profile`, replacing any earlier file whole.
    public func save(_ session: Session, profile: String) throws(StoreError) {
        let path = try path(for: profile)
        try makeDirectory()
        PrivateFiles.removeStaleTemporaries(of: path)
        try writeAtomically(Array(NetscapeCookieFile.render(session).utf8), to: path)
    }

    /// The session saved for `profile`, or nil when there is none.
    public func load(profile: String) throws(StoreError) -> Session? {
        let path = try path(for: profile)
        guard let data = try contents(of: path) else { return nil }
        do {
            return try NetscapeCookieFile.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw .corrupt(path: path, reason: error.reason)
        }
    }

    /// Deletes the profile's session file and its last sign-in record; no error when there is none.
    public func remove(profile: String) throws(StoreError) {
        for path in [try path(for: profile), try lastSignInPath(for: profile)] {
            if unlink(path) != 0 && errno != ENOENT {
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    // MARK: The last sign-in

    /// The file keeping the profile's last sign-in record: `PROFILE.signin.json` beside the session file.
    public func lastSignInPath(for profile: String) throws(StoreError) -> String {
        let path = try path(for: profile)
        return String(path.dropLast(".cookies".count)) + ".signin.json"
    }

    /// Writes `record` as the profile's last sign-in, replacing the earlier one whole (mode 0600, atomically).
    /// The session file is left alone.
    public func saveLastSignIn(_ record: SignInRecord, profile: String) throws(StoreError) {
        let path = try lastSignInPath(for: profile)
        try makeDirectory()
        PrivateFiles.removeStaleTemporaries(of: path)
        try writeAtomically(Array(SignInRecordFile.render(record).utf8), to: path)
    }

    /// The profile's last sign-in record, or nil when none was saved.
    public func lastSignIn(profile: String) throws(StoreError) -> SignInRecord? {
        let path = try lastSignInPath(for: profile)
        guard let data = try contents(of: path) else { return nil }
        do {
            return try SignInRecordFile.parse(data)
        } catch {
            throw .unreadableSignInRecord(path: path, reason: Self.reason(error))
        }
    }

    /// A short reason for a record that did not decode: the key at fault and what was wrong.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context):
            return "no '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "'\(path)': ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    /// The bytes of the file at `path`, or nil when there is no such file; only from a trusted folder and a
    /// trusted file (``PrivateFiles``).
    private func contents(of path: String) throws(StoreError) -> Data? {
        try checkDirectory()
        do {
            return try PrivateFiles.contents(of: path).map { Data($0) }
        } catch {
            throw .untrusted(path: path, reason: error.reason, fix: error.fix)
        }
    }

    private func checkDirectory() throws(StoreError) {
        do {
            try PrivateFiles.checkDirectory(directory)
        } catch {
            throw .untrusted(path: directory, reason: error.reason, fix: error.fix)
        }
    }

    /// Creates the folder (mode 0700) when it is missing, then checks that it may be trusted.
    func makeDirectory() throws(StoreError) {
        if !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .io(path: directory, reason: "cannot create the folder (\(error.localizedDescription))")
            }
        }
        try checkDirectory()
    }

    private func writeAtomically(_ bytes: [UInt8], to path: String) throws(StoreError) {
        do {
            try PrivateFiles.writeAtomically(bytes, to: path)
        } catch {
            throw .io(path: path, reason: error.reason)
        }
    }
}

/// The Netscape cookie-file format as curl reads and writes it, with spconnect's metadata comment.
enum NetscapeCookieFile {
    static let header = "# Netscape HTTP Cookie File"
    static let metadataPrefix = "# spconnect-session "
    /// Each identity-provider cookie is a comment line to curl (which never sends it), after this prefix.
    static let identityProviderPrefix = "#spconnect-idp "

    struct ParseError: Error {
        let reason: String
    }

    private struct Metadata: Codable {
        var site: String
        var user: String
        var displayName: String?
        var flow: String
        var provedAt: Double
        var allowedHosts: [String]?
        var allowHTTPLoopback: Bool?
        // How the user signed in, for renewals; files written before these existed read as the defaults.
        var targetCookies: [String]?
        var staySignedIn: Bool?
        var loginURL: String?
        var proofURL: String?
        var passwordCommand: String?
        /// "keyring" when the password is in the Secret Service keyring (`login --save-password`).
        var passwordSource: String?
    }

    static func render(_ session: Session) -> String {
        let metadata = Metadata(
            site: session.siteURL, user: session.user, displayName: session.displayName, flow: session.flow,
            provedAt: session.provedAt.timeIntervalSince1970, allowedHosts: session.policy.allowedHosts.sorted(),
            allowHTTPLoopback: session.policy.allowHTTPLoopback, targetCookies: session.targetCookies,
            staySignedIn: session.staySignedIn, loginURL: session.loginURL, proofURL: session.proofURL,
            passwordCommand: session.renewalPasswordSource.command,
            passwordSource: session.renewalPasswordSource == .keyring ? "keyring" : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings and a double cannot fail; fall back to an empty object regardless.
        let json = (try? encoder.encode(metadata)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var lines = [header, metadataPrefix + json, "# This file holds secrets: keep it private (mode 0600).", ""]
        if let tokens = session.tokens { lines.insert(TokenSetLine.render(tokens), at: 2) }
        lines += session.cookies.map(\.netscapeLine)
        if !session.identityProviderCookies.isEmpty {
            lines += [
                "", "# The identity provider's own session, for renewals without a password (--stay-signed-in);",
                "# commented out, so curl never sends these.",
            ]
            lines += session.identityProviderCookies.map { identityProviderPrefix + $0.netscapeLine }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func parse(_ text: String) throws(ParseError) -> Session {
        var metadata: Metadata?
        var cookies: [Cookie] = []
        var identityProviderCookies: [Cookie] = []
        var tokens: TokenSet?
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            if line.hasPrefix(TokenSetLine.prefix) {
                guard let parsed = TokenSetLine.parse(line) else {
                    throw ParseError(reason: "the spconnect-tokens line is not valid")
                }
                tokens = parsed
                continue
            }
            if line.hasPrefix(metadataPrefix) {
                let json = Data(line.dropFirst(metadataPrefix.count).utf8)
                metadata = try? JSONDecoder().decode(Metadata.self, from: json)
                continue
            }
            if line.hasPrefix(identityProviderPrefix) {
                guard let cookie = Cookie(netscapeLine: String(line.dropFirst(identityProviderPrefix.count))) else {
                    throw ParseError(reason: "an identity-provider cookie line does not have the 7 fields")
                }
                identityProviderCookies.append(cookie)
                continue
            }
            if line.hasPrefix("#") && !line.hasPrefix("#HttpOnly_") { continue }
            guard let cookie = Cookie(netscapeLine: line) else {
                throw ParseError(reason: "a cookie line does not have the 7 tab-separated fields")
            }
            cookies.append(cookie)
        }
        guard let metadata else { throw ParseError(reason: "the spconnect-session line is missing") }
        var session = Session(
            siteURL: metadata.site, user: metadata.user, displayName: metadata.displayName, flow: metadata.flow,
            provedAt: Date(timeIntervalSince1970: metadata.provedAt),
            policy: SignInPolicy(
                allowedHosts: Set(metadata.allowedHosts ?? []), allowHTTPLoopback: metadata.allowHTTPLoopback ?? false),
            cookies: cookies, targetCookies: metadata.targetCookies ?? [], staySignedIn: metadata.staySignedIn ?? false,
            loginURL: metadata.loginURL, proofURL: metadata.proofURL, tokens: tokens)
        session.identityProviderCookies = identityProviderCookies
        if let command = metadata.passwordCommand {
            session.renewalPasswordSource = .command(command)
        } else if metadata.passwordSource == "keyring" {
            session.renewalPasswordSource = .keyring
        }
        return session
    }
}

/// The last sign-in file: one JSON object on one line, keys sorted, times as ISO 8601 with milliseconds.
enum SignInRecordFile {
    static func render(_ record: SignInRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Time.string(from: date))
        }
        // A struct of strings, numbers and dates always encodes; fall back to an empty object regardless.
        return ((try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }

    static func parse(_ data: Data) throws -> SignInRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            // ICU crashes (SIGFPE) on a fraction of 35 digits or more: only a sane time reaches the formatter.
            guard text.utf8.count <= 40, text.utf8.allSatisfy({ $0 < 0x80 }) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time")
            }
            guard
                let date = ISO8601Time.date(from: text)
            else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time")
            }
            return date
        }
        return try decoder.decode(SignInRecord.self, from: data)
    }

}
