import Transport

/// What a token from a token endpoint must look like before it is kept: a value that can travel in an HTTP header
/// (RFC 9110's field-value: visible characters and inner spaces, no line break or control character, which would
/// let the server inject a header), of a size a header can carry; and a lifetime within what Entra issues.
enum TokenShape {
    /// The longest token kept: far above Entra's (a few KiB, up to ~16 KiB with many group claims) and below what
    /// a server accepts in one header line.
    static let maxLength = 64 * 1024

    /// The range `expires_in` is clamped to, in seconds: none to a day (Entra's longest access-token lifetime). A
    /// longer promise is not believed: the session is renewed no later than a day on, and its expiry stays within
    /// what the session file's token line keeps.
    static let lifetimes = 0...86_400

    /// Throws `unexpectedResponse`, naming the field (never its value), when `token` could not be sent as a header.
    static func check(_ token: String, named field: String) throws(TokenError) {
        let length = token.utf8.count
        guard length <= maxLength else {
            throw TokenError(
                .unexpectedResponse,
                detail:
                    "its \(field) is \(length) bytes, more than a request header can carry (\(maxLength) at most); "
                    + "the answer is unusable")
        }
        guard HTTPFieldValue.isValid(token) else {
            throw TokenError(
                .unexpectedResponse,
                detail:
                    "its \(field) holds a line break or control character, which cannot go in a request header; "
                    + "the answer is unusable")
        }
    }
}

extension ClosedRange where Bound == Int {
    /// `value` moved into the range.
    func clamp(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
