public import Foundation
import JSON
public import Transport

/// Response headers with case-insensitive lookup and typed accessors for the ones SharePoint clients act on.
public struct ResponseHeaders: Sendable, Equatable {
    /// The headers in the order given, names as given.
    public let pairs: [(String, String)]

    /// Wraps headers given as ordered pairs (repeated names allowed).
    public init(_ pairs: [(String, String)]) { self.pairs = pairs }

    /// Wraps headers given as a dictionary (names in any case).
    public init(_ dictionary: [String: String]) {
        pairs = dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public static func == (lhs: ResponseHeaders, rhs: ResponseHeaders) -> Bool {
        lhs.pairs.map { "\($0.0)\u{0}\($0.1)" } == rhs.pairs.map { "\($0.0)\u{0}\($0.1)" }
    }

    /// The first value of header `name`, compared case-insensitively (`X-Forms_Based_Auth_Required`
    /// matches `x-forms_based_auth_required`).
    public subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return pairs.first { $0.0.lowercased() == wanted }?.1
    }

    /// `Content-Type`.
    public var contentType: String? { self["Content-Type"] }
    /// `Retry-After` as seconds, when it is a delta-seconds value (SharePoint sends seconds).
    public var retryAfterSeconds: Int? {
        self["Retry-After"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
    }
    /// `X-Forms_Based_Auth_Required`: the sign-in page URL SharePoint sends when the session is missing or
    /// expired (re-authenticate and retry).
    public var formsAuthRequired: String? { self["X-Forms_Based_Auth_Required"] }
    /// `X-Forms_Based_Auth_Return_Url`.
    public var formsAuthReturnURL: String? { self["X-Forms_Based_Auth_Return_Url"] }
    /// `X-IDCRL_AUTH_PARAMS_V1`: the legacy IDCRL challenge of SharePoint Online.
    public var idcrlAuthParams: String? { self["X-IDCRL_AUTH_PARAMS_V1"] }
    /// `X-MSDAVEXT_Error`: WebDAV error code and form-encoded text, e.g. `917656; Access+denied.…`.
    public var webDAVError: String? { self["X-MSDAVEXT_Error"] }
    /// `WWW-Authenticate` challenge (401).
    public var wwwAuthenticate: String? { self["WWW-Authenticate"] }
    /// `MicrosoftSharePointTeamServices`: the server build, e.g. `16.0.0.19819`.
    public var serverBuild: String? { self["MicrosoftSharePointTeamServices"] }
    /// `SPRequestGuid` (or `request-id`): quote it when reporting a problem to an administrator.
    public var requestGuid: String? { self["SPRequestGuid"] ?? self["request-id"] }
    /// `ETag` (new item etag after MERGE).
    public var etag: String? { self["ETag"] }

    /// `Retry-After` as an interval from `now`: delta-seconds, or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`)
    /// minus `now` (never negative). `nil` when absent or unreadable.
    public func retryAfter(now: Date) -> TimeInterval? {
        if let seconds = retryAfterSeconds { return TimeInterval(seconds) }
        guard let text = self["Retry-After"] else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text.trimmingCharacters(in: .whitespaces)) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// The SharePoint module's error: a failed REST call read from its status, headers and error body, or a
/// response that could not be understood.
///
/// ``kind`` names the actionable cases; ``description`` is a sentence a user can act on, followed by the
/// server's own code and message. A value type, `Sendable`.
public struct SharePointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The actionable kind.
    public var kind: Kind
    /// HTTP status (0 when there was no HTTP response, e.g. a decoding error).
    public var status: Int
    /// The numeric part of the server's `code` (`-2130575338`), when given.
    public var code: Int?
    /// The exception type from the server's `code` (`Microsoft.SharePoint.SPException`), when given.
    public var exceptionName: String?
    /// The server's message (`error.message.value`), or the start of a non-JSON body.
    public var message: String?
    /// The message language (`error.message.lang`), when given.
    public var language: String?
    /// The `code` string exactly as sent, e.g. `-1, System.ArgumentException`.
    public var rawCode: String?
    /// The response headers.
    public var headers: ResponseHeaders
    /// The request URL, when the caller supplied it (for context in ``description``).
    public var url: String?
    /// For a failed write: the request reached the server, which may have carried out some or all of it before
    /// the failure (the answer was lost, cut short or unreadable, or a 5xx other than 503), so sending it again
    /// could write twice. False when the server surely wrote nothing: the request never left (no connection, a
    /// refused plain-http hop), the failure came before it was sent, or the server refused it as a whole (4xx,
    /// including 401, the digest's 403 and 429; 503). Always false for reads.
    public var mayHaveBeenWritten = false

    /// Creates an error directly.
    public init(
        kind: Kind, status: Int, code: Int? = nil, exceptionName: String? = nil, message: String? = nil,
        language: String? = nil, rawCode: String? = nil, headers: ResponseHeaders = ResponseHeaders([]),
        url: String? = nil
    ) {
        self.kind = kind
        self.status = status
        self.code = code
        self.exceptionName = exceptionName
        self.message = message
        self.language = language
        self.rawCode = rawCode
        self.headers = headers
        self.url = url
    }

    /// An error for a response body that could not be understood.
    public init(unexpectedResponse detail: String) {
        self.init(kind: .unexpectedResponse(detail), status: 0, message: detail)
    }

    /// Wraps a Transport failure (no HTTP response): kind ``Kind/transport``, Transport's sentence (with its
    /// advice) as ``message``, and the URL of the exchange.
    public init(transport error: TransportError, url: String? = nil) {
        self.init(kind: .transport(carrying: error.kind), status: 0, message: error.description, url: error.url ?? url)
    }

    /// A local file problem: `what` says which operation on which path failed, `detail` the system's reason.
    public init(localFile what: String, detail: String) {
        self.init(kind: .localFile, status: 0, message: what + (detail.isEmpty ? "" : " (\(detail))"))
    }

    /// Reads a failed response: status, headers (any case), and body in any flavour — verbose/minimal
    /// `{"error":{"code":…,"message":{"lang":…,"value":…}}}`, nometadata `{"odata.error":{…}}`, bearer
    /// `{"error_description":…}`, Atom/XML `<m:error>`, or text/HTML.
    public init(status: Int, headers: [(String, String)], body: Data, url: String? = nil) {
        self.init(status: status, responseHeaders: ResponseHeaders(headers), body: body, url: url)
    }

    /// Reads a failed response whose headers are a dictionary (see ``init(status:headers:body:url:)``).
    public init(status: Int, headers: [String: String], body: Data, url: String? = nil) {
        self.init(status: status, responseHeaders: ResponseHeaders(headers), body: body, url: url)
    }

    private init(status: Int, responseHeaders: ResponseHeaders, body: Data, url: String?) {
        self.init(kind: .server, status: status, headers: responseHeaders, url: url)
        readBody(body)
        kind = SharePointError.classify(
            status: status, code: code, exceptionName: exceptionName, headers: responseHeaders, url: url)
    }

    private mutating func readBody(_ body: Data) {
        if let json = try? JSONValue.parse(body) {
            let error = json["error"].flatMap { $0.objectValue != nil ? $0 : nil } ?? json["odata.error"]
            if let error {
                rawCode = error["code"]?.stringValue
                if let messageValue = error["message"], let text = messageValue["value"]?.stringValue {
                    message = text
                    language = messageValue["lang"]?.stringValue
                } else {
                    message = error["message"]?.stringValue
                }
            } else if let description = json["error_description"]?.stringValue {
                message = description
                rawCode = json["error"]?.stringValue
            }
        } else {
            let text = String(decoding: body, as: UTF8.self)
            if let xmlCode = SharePointError.xmlElement("code", in: text) {
                rawCode = xmlCode
                message = SharePointError.xmlElement("message", in: text)
            } else {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty, !trimmed.hasPrefix("<") { message = String(trimmed.prefix(300)) }
            }
        }
        if let rawCode {
            let parts = rawCode.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            code = parts.first.flatMap { Int($0) }
            if parts.count == 2, !parts[1].isEmpty {
                exceptionName = parts[1]
            } else if code == nil {
                exceptionName = rawCode
            }
        }
    }

    /// The text of `<m:name …>…</m:name>` (any prefix), XML-unescaped.
    private static func xmlElement(_ name: String, in text: String) -> String? {
        guard let open = text.range(of: ":\(name)", options: .caseInsensitive) ?? text.range(of: "<\(name)"),
            let tagEnd = text.range(of: ">", range: open.upperBound..<text.endIndex),
            let close = text.range(of: "</", range: tagEnd.upperBound..<text.endIndex)
        else { return nil }
        let raw = String(text[tagEnd.upperBound..<close.lowerBound])
        return raw.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func classify(
        status: Int, code: Int?, exceptionName: String?, headers: ResponseHeaders, url: String?
    ) -> Kind {
        let exception = exceptionName ?? ""
        // "Item does not exist" arrives with several codes (-2147024809, and -2130575338 shared with missing
        // files), so the request URL decides when it names an item.
        let addressesItem = ["/items(", "/getitembyid("].contains { unquotedPath(of: url ?? "").contains($0) }
        // A missing attachment of an item that exists: the file is missing, not the item.
        let addressesAttachment = unquotedPath(of: url ?? "").contains("/attachmentfiles(")
        switch status {
        case 429, 503:
            return .throttled(retryAfter: headers.retryAfterSeconds)
        case 401:
            return exception.hasSuffix("UnauthorizedAccessException") ? .accessDenied : .authenticationRequired
        case 403:
            if let login = headers.formsAuthRequired { return .formsAuthRequired(loginURL: login) }
            if code == -2_130_575_252 || code == -2_130_575_251 { return .digestExpired }
            return .accessDenied
        case 404:
            switch code {
            case -1 where exception.hasSuffix("ArgumentException"): return .listNotFound
            // "File Not Found." answers a path (a folder, a list's address, an attachment), never an item.
            case -2_130_575_338 where addressesAttachment, -2_147_024_894: return .fileNotFound
            case _ where addressesItem, -2_147_024_809: return .itemNotFound
            case -2_130_575_338, -2_147_024_894: return .fileNotFound
            default: return .notFound
            }
        case 409: return .conflict
        case 412: return .preconditionFailed
        // Some builds answer a missing `items(ID)` with 400 and the ArgumentException code (spsim answers 404).
        case 400 where addressesItem && code == -2_147_024_809: return .itemNotFound
        // "A file with the name … already exists" (an upload without overwrite).
        case 400 where code == -2_130_575_257: return .alreadyExists
        case 400: return .badRequest
        case 406: return .flavorNotAccepted
        default:
            if code == -2_147_024_860 || exception.hasSuffix("SPQueryThrottledException") { return .thresholdExceeded }
            if code == -2_130_575_342 { return .alreadyExists }
            return .server
        }
    }

    /// The lower-cased path of `url` without its query and without the text of quoted literals, so that a
    /// file named `items(1).txt` is not taken for an item.
    private static func unquotedPath(of url: String) -> String {
        let path = url.lowercased().replacingOccurrences(of: "%27", with: "'").split(separator: "?").first ?? ""
        var out = ""
        var inLiteral = false
        for character in path {
            if character == "'" {
                inLiteral.toggle()
            } else if !inLiteral {
                out.append(character)
            }
        }
        return out
    }

    /// Whether signing in again (once) and retrying may help: 401, or 403 with `X-Forms_Based_Auth_Required`.
    public var needsReauthentication: Bool {
        switch kind.code {
        case .formsAuthRequired, .authenticationRequired: return true
        default: return status == 401
        }
    }

    /// Whether the same request may succeed later without changes: throttling, and 503.
    public var isRetryable: Bool {
        if kind.code == .throttled { return true }
        return false
    }

    /// A sentence saying what happened and what to do, then the status, code and server message.
    public var description: String {
        let text: String
        switch kind.code {
        case .listNotFound:
            text = "The list was not found. Check the list's title, id or address, and the site URL."
        case .itemNotFound:
            text = "The list item was not found; it may have been deleted. Reload the list to get current ids."
        case .fileNotFound:
            text =
                "The file or folder was not found. Check the server-relative path (it starts with the site path,"
                + " e.g. /sites/team/Shared Documents/a.docx)."
        case .notFound:
            text = "The requested resource was not found. Check the URL."
        case .thresholdExceeded:
            text =
                "The query exceeds the list view threshold (5000 items). Filter on an indexed column, or page"
                + " through the list with $top and $skiptoken ordered by ID."
        case .throttled:
            let seconds = kind.retryAfter
            text =
                "SharePoint is throttling requests. "
                + (seconds.map { "Wait \($0) seconds (Retry-After) before retrying" } ?? "Wait before retrying")
                + " and reduce the request rate."
        case .digestExpired:
            text = "The request digest is missing or has expired. Get a new one from /_api/contextinfo and retry."
        case .formsAuthRequired:
            let login = kind.loginURL ?? ""
            text =
                "Not signed in or the session has expired: sign in again with `spconnect login` (login page:"
                + " \(login))."
        case .authenticationRequired:
            text =
                bearerRejection?.sentence
                ?? "Authentication is required or the credentials were rejected: sign in again with `spconnect login`."
        case .accessDenied:
            text = "Access denied: the signed-in account has no permission for this. Ask a site owner for access."
        case .preconditionFailed:
            text = "The item was changed by someone else since it was read (etag mismatch). Reload it and retry."
        case .conflict:
            text = "The change conflicts with the current state (for example the file is checked out or locked)."
        case .alreadyExists:
            text = "An object with that name already exists. Choose another title or use the existing one."
        case .badRequest:
            text = "SharePoint rejected the request as invalid. Check names, paths and query options."
        case .flavorNotAccepted:
            text =
                "This SharePoint does not accept the JSON format asked for (SharePoint 2013 before SP1 speaks only"
                + " odata=verbose). Run again with --odata verbose."
        case .server:
            text = "SharePoint reported an error."
        case .unexpectedResponse:
            let detail = kind.detail ?? ""
            return "Unexpected response from SharePoint: \(detail)" + (url.map { " (\($0))" } ?? "")
        case .transport:
            return "The request to SharePoint failed: \(message ?? "no detail")" + (url.map { " (\($0))" } ?? "")
        case .localFile:
            return "A local file operation failed: \(message ?? "no detail")"
        }
        return text + details
    }

    /// What the server said, to follow a sentence of the caller's own: ` (HTTP 400, <code>, <url>): <message>`.
    public var details: String {
        var parts: [String] = ["HTTP \(status)"]
        if let rawCode { parts.append(rawCode) }
        if let url { parts.append(url) }
        var text = " (" + parts.joined(separator: ", ") + ")"
        if let message, !message.isEmpty { text += ": " + message }
        return text
    }
}
