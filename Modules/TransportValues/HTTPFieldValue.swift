/// RFC 9110's grammar for what may go in a header (§5.5, §5.6.2): a field value is visible ASCII, obs-text
/// (bytes 0x80-0xFF), spaces and tabs; a field name is a token. A value with CR, LF, NUL or another control
/// character would end the header early and let whoever chose it add headers or a second request.
public enum HTTPFieldValue {
    /// Whether `value` may be sent as a header's value.
    public static func isValid(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
    }

    /// Whether `name` is a header name (a token: letters, digits and ``!#$%&'*+-.^_`|~``).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }
}
