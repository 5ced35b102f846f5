import Foundation
import HTTPServer

/// Who a request is: SharePoint's sessions (FedAuth, SPOIDCRL), Basic credentials, bearer tokens of the
/// password grant, and the cookies a sign-in sets.
extension SimulatorCore {
    /// The signed-in user index for this request, if any (mode-dependent).
    func authenticatedUser(_ request: HTTPServerRequest) -> Int? {
        switch options.mode {
        case .anonymous:
            return nil
        case .basic:
            guard let header = request.header("Authorization"), header.lowercased().hasPrefix("basic "),
                let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
            else { return nil }
            return checkPassword(login: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        default:
            if let token = bearerToken(request) {
                let now = nowEpoch()
                return state.withLock { state in
                    state.accessTokens[token].flatMap { $0.expires > now ? $0.user : nil }
                }
            }
            if let user = ntlmUser(request) { return user }
            let cookies = request.cookies
            let now = nowEpoch()
            return state.withLock { state -> Int? in
                for name in ["FedAuth", "SPOIDCRL"] {
                    if let value = cookies[name], let session = state.sessions[value] {
                        if session.expires > now { return session.user }
                        state.sessions[value] = nil
                    }
                }
                return nil
            }
        }
    }

    /// Whether the request may read content (anonymous mode lets everyone in).
    func isAllowed(_ request: HTTPServerRequest) -> Bool {
        options.mode == .anonymous || authenticatedUser(request) != nil
    }

    var isOnline: Bool { options.mode == .entra || options.mode == .legacySPO }

    /// Creates a session and returns its FedAuth value.
    func newSession(user: Int) -> (value: String, expires: Int) {
        let now = nowEpoch()
        let email = users[user].email
        let claim =
            isOnline
            ? "0#.f|membership|\(email)"
            : options.mode == .adfs ? "05.t|adfs|\(email)" : "0#.f|fbamembership|\(users[user].accountName)"
        let xml =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><SP>V13,\(claim),\(now),False,False,\(Tokens.random(bytes: 18)),\(siteURL)/</SP>"
        let value = base64([0xEF, 0xBB, 0xBF] + Array(xml.utf8))
        let expires = now + sessionLifetime
        state.withLock { $0.sessions[value] = SPSession(user: user, expires: expires) }
        return (value, expires)
    }

    /// `Set-Cookie` text: host-only on the bare loopback IP, `secure` only on https.
    func cookie(_ name: String, _ value: String, expires: Int? = nil, path: String = "/") -> (
        name: String, value: String
    ) {
        var text = "\(name)=\(value); path=\(path)"
        if let expires { text += "; expires=\(CivilTime(expires).http)" }
        if isTLS { text += "; secure" }
        text += "; HttpOnly"
        return ("Set-Cookie", text)
    }

    /// FedAuth (+ rtFa on SharePoint Online) for a new session.
    func sessionCookies(user: Int) -> [(name: String, value: String)] {
        let session = newSession(user: user)
        if isOnline {
            // SPO: session cookies (no expiry).
            return [cookie("FedAuth", session.value), cookie("rtFa", Tokens.random(bytes: 96))]
        }
        // On-premises: persistent FedAuth, expiry = token lifetime.
        return [cookie("FedAuth", session.value, expires: session.expires)]
    }

    func basicChallenge() -> HTTPServerResponse {
        HTTPServerResponse(
            status: 401, contentType: "text/plain; charset=utf-8", text: "401 UNAUTHORIZED",
            headers: [("WWW-Authenticate", "Basic realm=\"127.0.0.1\""), ("SPRequestGuid", Tokens.guid())])
    }
}
