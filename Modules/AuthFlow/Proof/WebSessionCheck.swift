import HTML
public import Transport

/// Whether a saved session of any web page still opens it: the page is asked again with the session (redirects
/// followed, as a browser would); an answer 2xx, on the page's own origin, that is not a sign-in page means signed
/// in. One request; the caller renews and asks again.
public struct WebSessionCheck: Sendable {
    /// What the check found.
    public enum Result: Sendable, Equatable {
        /// The page opened: its status.
        case signedIn(status: Int)
        /// It did not: the final status and where the request ended (another origin: a sign-in elsewhere).
        case notSignedIn(status: Int, landedAt: String, sameOrigin: Bool)
    }

    /// The page a signed-in session opens (the session's proof URL).
    public let url: String

    /// A check of `url`.
    public init(url: String) {
        self.url = url
    }

    /// Asks `url` with `client` (holding the session's cookies) and `authentication` (the session's HTTP
    /// authentication, if it signs in on every request).
    public func run(client: HTTPClient, authentication: Authentication?) async throws(TransportError) -> Result {
        let response = try await client.execute(
            HTTPRequest(
                url: url, headers: ["Accept": BrowserHeaders().accept], auth: authentication,
                redirects: .follow(max: 5)))
        let sameOrigin = HTTPClient.isSameOrigin(response.url, url)
        let page = try? HTMLPage(bytes: response.body, url: response.url)
        let signInPage = page.map { $0.classification.kind != .other } ?? false
        if (200...299).contains(response.status), sameOrigin, !signInPage { return .signedIn(status: response.status) }
        return .notSignedIn(status: response.status, landedAt: response.url, sameOrigin: sameOrigin)
    }
}
