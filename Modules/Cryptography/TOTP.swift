public import Foundation

/// Time-based one-time passwords (RFC 6238, over RFC 4226's HOTP): what authenticator apps show.
/// A plain value; `code(at:)` is pure.
public struct TOTP: Sendable, Equatable {
    /// The shared secret's bytes.
    public let secret: [UInt8]
    public let algorithm: HMAC.Algorithm
    /// 6 to 8 digits.
    public let digits: Int
    /// The time step in seconds (30 unless the account says otherwise).
    public let period: Int

    /// Why a secret could not be used. Messages never repeat the secret.
    public enum SecretError: Error, Equatable, CustomStringConvertible {
        case notBase32
        case empty
        case badParameter(String)

        public var description: String {
            switch self {
            case .notBase32: "the TOTP secret is not base32 (A–Z, 2–7, optional '=' padding and spaces)"
            case .empty: "the TOTP secret is empty"
            case .badParameter(let what): "the TOTP secret's \(what) is not supported"
            }
        }
    }

    /// A generator for `secret` (raw bytes).
    public init(secret: [UInt8], algorithm: HMAC.Algorithm = .sha1, digits: Int = 6, period: Int = 30) {
        self.secret = secret
        self.algorithm = algorithm
        self.digits = min(max(digits, 6), 8)
        self.period = max(period, 1)
    }

    /// A generator from what users are given: a base32 secret (`JBSWY3DPEHPK3PXP`, spaces and case ignored), or an
    /// `otpauth://totp/…?secret=…&algorithm=SHA256&digits=8&period=30` URI.
    public init(text: String) throws(SecretError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.lowercased().hasPrefix("otpauth://"), let components = URLComponents(string: trimmed) {
            let items = components.queryItems ?? []
            func value(_ name: String) -> String? { items.first { $0.name.lowercased() == name }?.value }
            guard let secret = value("secret") else { throw .empty }
            let algorithm = try value("algorithm").map { name throws(SecretError) in
                guard let known = HMAC.Algorithm(rawValue: name.uppercased()) else { throw .badParameter("algorithm") }
                return known
            }
            let digits = try value("digits").map { text throws(SecretError) in
                guard let number = Int(text), (6...8).contains(number) else { throw .badParameter("digits") }
                return number
            }
            let period = try value("period").map { text throws(SecretError) in
                guard let number = Int(text), number > 0 else { throw .badParameter("period") }
                return number
            }
            self.init(
                secret: try Self.base32(secret), algorithm: algorithm ?? .sha1, digits: digits ?? 6,
                period: period ?? 30)
        } else {
            self.init(secret: try Self.base32(trimmed))
        }
    }

    /// The code at `date`, zero-padded to `digits`.
    public func code(at date: Date = Date()) -> String {
        let counter = UInt64(max(date.timeIntervalSince1970, 0)) / UInt64(period)
        return code(counter: counter)
    }

    /// HOTP (RFC 4226) for `counter`: dynamic truncation of the HMAC of the big-endian counter.
    public func code(counter: UInt64) -> String {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        guard let mac = HMAC.authenticationCode(algorithm, key: secret, message: message), let last = mac.last else {
            return ""
        }
        let offset = Int(last & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// RFC 4648 base32, case-insensitive, spaces, hyphens and padding ignored.
    public static func base32(_ text: String) throws(SecretError) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits: UInt64 = 0
        var count = 0
        var bytes: [UInt8] = []
        for character in text.uppercased() where !" -=\t\n\r".contains(character) {
            guard let value = alphabet.firstIndex(of: character) else { throw .notBase32 }
            bits = (bits << 5) | UInt64(value)
            count += 5
            if count >= 8 {
                count -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(count)))
                bits &= (1 << UInt64(count)) - 1
            }
        }
        guard !bytes.isEmpty else { throw .empty }
        return bytes
    }
}
