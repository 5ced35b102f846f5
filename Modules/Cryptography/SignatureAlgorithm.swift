/// The JWS algorithms Entra accepts for a client assertion (RFC 7518 §3.3 and §3.5).
public enum SignatureAlgorithm: String, Sendable, CaseIterable, Codable {
    /// RSASSA-PKCS1-v1_5 with SHA-256; the JWT names the certificate by `x5t` (SHA-1 thumbprint).
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt; the JWT names the certificate by `x5t#S256`.
    case ps256 = "PS256"
}
