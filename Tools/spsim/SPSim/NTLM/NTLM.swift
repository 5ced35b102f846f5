import Foundation
import HTTPServer

/// NTLM (v2) for the `fba+windows` mode: `/_windows/default.aspx`, and any request carrying
/// `Authorization: NTLM …`. Challenges are remembered for a minute and a Type 3 message is checked against
/// each outstanding one (the simulator does not bind the handshake to a TCP connection).
extension SimulatorCore {
    static let ntlmSignature: [UInt8] = Array("NTLMSSP".utf8) + [0]
    static let ntlmDomain = "CONTOSO"

    func ntlmMessage(_ request: HTTPServerRequest) -> [UInt8]? {
        guard let header = request.header("Authorization"), header.lowercased().hasPrefix("ntlm "),
            let data = Data(base64Encoded: String(header.dropFirst(5)).trimmingCharacters(in: .whitespaces))
        else { return nil }
        let bytes = [UInt8](data)
        guard bytes.count >= 12, Array(bytes[0..<8]) == SimulatorCore.ntlmSignature else { return nil }
        return bytes
    }

    func ntlmChallengeResponse(_ extra: [(name: String, value: String)] = []) -> HTTPServerResponse {
        var challenge = [UInt8](repeating: 0, count: 8)
        var generator = SystemRandomNumberGenerator()
        for index in challenge.indices { challenge[index] = UInt8.random(in: 0...255, using: &generator) }
        let now = nowEpoch()
        state.withLock { state in
            state.ntlmChallenges = state.ntlmChallenges.filter { $0.issued > now - 60 }
            state.ntlmChallenges.append((challenge, now))
        }
        let domain = Array(SimulatorCore.ntlmDomain.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        func avPair(_ id: UInt16, _ value: [UInt8]) -> [UInt8] {
            le16(id) + le16(UInt16(value.count)) + value
        }
        let targetInfo = avPair(2, domain) + avPair(1, Array("SPSIM".utf16).flatMap { [UInt8($0), 0] }) + avPair(0, [])
        let flags: UInt32 =
            0x0001 | 0x0200 | 0x0004 | 0x8000 | 0x0001_0000 | 0x0080_0000 | 0x0008_0000 | 0x2000_0000
            | 0x8000_0000 | 0x0200_0000
        let headerLength = 56
        var message = SimulatorCore.ntlmSignature + le32(2)
        message += le16(UInt16(domain.count)) + le16(UInt16(domain.count)) + le32(UInt32(headerLength))
        message += le32(flags) + challenge + [UInt8](repeating: 0, count: 8)
        message += le16(UInt16(targetInfo.count)) + le16(UInt16(targetInfo.count))
        message += le32(UInt32(headerLength + domain.count))
        message += [6, 1, 0x23, 0x1D, 0, 0, 0, 0x0F]  // version
        message += domain + targetInfo
        return HTTPServerResponse(
            status: 401, contentType: "text/html; charset=utf-8", text: "<html><body>401 UNAUTHORIZED</body></html>",
            headers: [("WWW-Authenticate", "NTLM " + base64(message))] + extra)
    }

    /// Verifies a Type 3 message (NTLMv2) and returns the user index.
    func ntlmAuthenticate(_ message: [UInt8]) -> Int? {
        guard message.count >= 64, le32(message, 8) == 3 else { return nil }
        func field(_ offset: Int) -> [UInt8] {
            let length = Int(le16(message, offset))
            let start = Int(le32(message, offset + 4))
            guard start + length <= message.count else { return [] }
            return Array(message[start..<start + length])
        }
        let ntResponse = field(20)
        let domainBytes = field(28)
        let userBytes = field(36)
        let flags = le32(message, 60)
        let unicode = flags & 1 != 0
        func text(_ bytes: [UInt8]) -> String {
            guard unicode else { return String(decoding: bytes, as: UTF8.self) }
            let units = stride(from: 0, to: bytes.count - 1, by: 2).map {
                UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8
            }
            return String(decoding: units, as: UTF16.self)
        }
        let user = text(userBytes)
        let domain = text(domainBytes)
        guard ntResponse.count > 24, let index = userIndex(login: user), users[index].hasPassword else { return nil }
        let password = users[index].password
        let ntHash = Digest.md4(Array(password.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let identity = Array((user.uppercased() + domain).utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let ntowf = Digest.hmacMD5(key: ntHash, identity)
        let proof = Array(ntResponse[0..<16])
        let blob = Array(ntResponse[16...])
        return state.withLock { state -> Int? in
            guard
                let position = state.ntlmChallenges.firstIndex(where: {
                    Digest.hmacMD5(key: ntowf, $0.challenge + blob) == proof
                })
            else { return nil }
            state.ntlmChallenges.remove(at: position)
            return index
        }
    }

    /// The user of a request authenticated by an NTLM Type 3 header (verified once, remembered briefly).
    func ntlmUser(_ request: HTTPServerRequest) -> Int? {
        guard options.mode == .fbaWindows, let header = request.header("Authorization"),
            let message = ntlmMessage(request),
            le32(message, 8) == 3
        else { return nil }
        let now = nowEpoch()
        if let known = state.withLock({ $0.ntlmVerified[header] }), known.expires > now { return known.user }
        guard let user = ntlmAuthenticate(message) else { return nil }
        state.withLock { state in
            state.ntlmVerified = state.ntlmVerified.filter { $0.value.expires > now }
            state.ntlmVerified[header] = SPSession(user: user, expires: now + 60)
        }
        return user
    }

    /// `401` asking for Windows authentication.
    func windowsChallenge() -> HTTPServerResponse {
        HTTPServerResponse(
            status: 401, contentType: "text/html; charset=utf-8", text: "<html><body>401 UNAUTHORIZED</body></html>",
            headers: [("WWW-Authenticate", "NTLM"), ("WWW-Authenticate", "Negotiate")] + standardHeaders())
    }

    /// `/_windows/default.aspx?ReturnUrl=…`: NTLM handshake, then FedAuth and a redirect (§5.5).
    func windowsSignIn(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.mode == .fbaWindows, let message = ntlmMessage(request) else {
            return HTTPServerResponse(
                status: 401, contentType: "text/html; charset=utf-8",
                text: "<html><body>401 UNAUTHORIZED</body></html>",
                headers: [("WWW-Authenticate", "NTLM"), ("WWW-Authenticate", "Negotiate")])
        }
        if le32(message, 8) == 1 { return ntlmChallengeResponse() }
        guard let user = ntlmUser(request) else { return windowsChallenge() }
        return redirect(returnURL(request), headers: sessionCookies(user: user))
    }
}

func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xFF) } }
func le16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
    offset + 1 < bytes.count ? UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 : 0
}
func le32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    offset + 3 < bytes.count
        ? UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24 : 0
}
