import Foundation
public import TransportValues

/// What came back for a `SignInRequest`, plus the jar's view of the site afterwards.
public struct SignInResponse: Sendable {
    /// The URL that was requested.
    public var url: String
    /// The HTTP status.
    public var status: Int
    /// The response headers, in order.
    public var headers: [(name: String, value: String)]
    /// The absolute redirect target of a 3xx, resolved against `url`.
    public var location: String?
    /// The body as received (decompressed).
    public var body: [UInt8]
    /// The cookies the jar would now send to the site, with their attributes.
    public var siteCookies: [Cookie]

    /// A response, as a driver hands it to ``SignInMachine/receive(_:)``.
    public init(
        url: String, status: Int, headers: [(name: String, value: String)], location: String?, body: [UInt8],
        siteCookies: [Cookie]
    ) {
        self.url = url
        self.status = status
        self.headers = headers
        self.location = location
        self.body = body
        self.siteCookies = siteCookies
    }

    /// The first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The charset from `Content-Type`, when given.
    var charset: String? {
        guard let type = header("Content-Type"), let range = type.range(of: "charset=", options: .caseInsensitive)
        else { return nil }
        return String(type[range.upperBound...].prefix { $0 != ";" && $0 != " " }).trimmingCharacters(
            in: CharacterSet(charactersIn: "\"'"))
    }
}
