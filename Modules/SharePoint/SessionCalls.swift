public import Transport

extension SharePointSite {
    /// Any request through the site's session, whatever service it is for (the `api` escape hatch): to the site's
    /// own origin it goes with the session's HTTP authentication or bearer token, and a write (neither GET nor HEAD)
    /// with a request digest unless `headers` has one or the session is a token's; elsewhere with none of them (the
    /// client's cookies go where their domains say). When the answer says the session ended (401, or 403 with
    /// `X-Forms_Based_Auth_Required`), ``reauthenticate`` runs once and the request is sent again.
    ///
    /// Returns the response whatever its status (the last one when signing in again did not help); throws only when
    /// no answer came, or when a token or digest could not be had first.
    public func send(
        method: String, url: String, headers: HTTPHeaders, body: [UInt8]?, retry: RetryPolicy
    ) async throws(SharePointError) -> HTTPResponse {
        let toTheSite = HTTPClient.isSameOrigin(url, siteURL)
        var renewed = false
        while true {
            let auth = toTheSite ? try await currentAuthentication(for: url) : nil
            var request = HTTPRequest(
                method: method, url: url, headers: headers, body: body.map(HTTPRequest.Body.bytes) ?? .none,
                auth: auth, redirects: .follow(max: 10), retry: retry)
            if toTheSite, !auth.isBearer, method != "GET", method != "HEAD", headers["X-RequestDigest"] == nil {
                request.headers.set("X-RequestDigest", try await requestDigest())
            }
            let response: HTTPResponse
            do {
                response = try await client.execute(request)
            } catch {
                throw SharePointError(transport: error, url: url)
            }
            let sessionEnded =
                response.status == 401
                || (response.status == 403 && response.headers["X-Forms_Based_Auth_Required"] != nil)
            guard sessionEnded, !renewed, let reauthenticate else { return response }
            renewed = true
            guard (try? await reauthenticate()) == true else { return response }
            invalidateDigest()
        }
    }
}
