import Foundation
import HTTPServer
import Transport

/// Who may use a gateway: a request is refused, before anything is sent upstream or its body read, unless it names
/// the gateway as its `Host` (no DNS rebinding), comes from no foreign web page (`Origin`), presents the gateway's
/// secret (a Basic password with any user name, or a bearer token; compared in constant time) and asks for a path
/// on the site. A plain value.
struct GatewayAdmission: Sendable {
    /// The gateway's own origin (`http://127.0.0.1:PORT`).
    let gatewayOrigin: String
    let secret: Secret

    /// Why `request` is refused, nil when it may go on.
    func refusal(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        let host = request.header("Host")?.lowercased() ?? ""
        let authority = String(gatewayOrigin.dropFirst("http://".count))
        let port = authority.split(separator: ":").last.map(String.init) ?? ""
        guard host == authority || host == "localhost:" + port else {
            return GatewayForwarder.text(421, "spconnect gateway: the Host header must name the gateway (\(authority))")
        }
        if let origin = request.header("Origin"), origin.lowercased() != gatewayOrigin {
            return GatewayForwarder.text(
                403, "spconnect gateway: requests from web pages are refused (Origin \(origin))")
        }
        guard let given = Self.presentedSecret(request.header("Authorization")),
            Self.constantTimeEqual(Array(given.utf8), Array(secret.revealedValue().utf8))
        else {
            var response = GatewayForwarder.text(
                401, "spconnect gateway: give the gateway's secret (HTTP Basic password, or Authorization: Bearer)")
            response.headers.append(("WWW-Authenticate", "Basic realm=\"spconnect gateway\""))
            return response
        }
        guard request.target.hasPrefix("/"), !request.path.split(separator: "/").contains("..") else {
            return GatewayForwarder.text(
                400, "spconnect gateway: only paths on the site are forwarded, not \(request.target)")
        }
        return nil
    }

    /// The secret a request presents: a Basic password (any user name) or a bearer token.
    static func presentedSecret(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0].lowercased() {
        case "bearer": return parts[1].trimmingCharacters(in: .whitespaces)
        case "basic":
            guard let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
                let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
            else { return nil }
            return String(text[text.index(after: colon)...])
        default: return nil
        }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
