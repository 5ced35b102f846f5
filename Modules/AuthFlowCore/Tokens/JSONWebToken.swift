public import Cryptography
import Foundation
public import JSON

/// Compact JWS (RFC 7515) as Entra uses it: building and signing a token, reading a token's parts. A namespace.
public enum JSONWebToken {
    /// `base64url(header) "." base64url(claims) "." base64url(signature)`, signed by `key` with `algorithm` (the
    /// header's `alg` is set from it). Keys are written sorted, slashes unescaped.
    public static func signed(
        header: [String: JSONValue], claims: [String: JSONValue], key: PrivateKey,
        algorithm: SignatureAlgorithm
    ) throws(CryptoError) -> String {
        var header = header
        header["alg"] = .string(algorithm.rawValue)
        let input = encode(header) + "." + encode(claims)
        let signature = try key.sign(Array(input.utf8), algorithm: algorithm)
        return input + "." + Base64URL.encode(signature)
    }

    /// A JSON object's bytes in base64url.
    static func encode(_ object: [String: JSONValue]) -> String {
        Base64URL.encode(JSONValue.object(object.map { ($0.key, $0.value) }).encoded(options: .sortedKeys))
    }

    /// The decoded header of `token`, or nil when it is not a compact JWS.
    public static func header(of token: String) -> JSONValue? { part(0, of: token) }

    /// The decoded claims of `token` (not verified), or nil when it is not a compact JWS.
    public static func payload(of token: String) -> JSONValue? { part(1, of: token) }

    /// Whether `token`'s signature is `key`'s over its first two parts, with the algorithm its header names.
    public static func verify(_ token: String, with key: PublicKey) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Base64URL.decode(String(parts[2])),
            let name = header(of: token)?["alg"]?.stringValue, let algorithm = SignatureAlgorithm(rawValue: name)
        else { return false }
        return key.verify(signature, of: Array("\(parts[0]).\(parts[1])".utf8), algorithm: algorithm)
    }

    private static func part(_ index: Int, of token: String) -> JSONValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[index])),
            let value = try? JSONValue.parse(bytes: bytes), value.objectValue != nil
        else { return nil }
        return value
    }
}
