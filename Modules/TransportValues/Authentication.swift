/// Credentials libcurl sends. `Secret` keeps them out of logs and traces.
public enum Authentication: Sendable {
    /// HTTP Basic.
    case basic(user: String, password: Secret)
    /// NTLM (libcurl runs the handshake on one connection).
    case ntlm(user: String, password: Secret)
    /// SPNEGO/Kerberos with the ambient ticket cache (`kinit`).
    case negotiate
    /// `Authorization: Bearer <token>`.
    case bearer(Secret)

    /// Whether a 401 can be a round of the handshake rather than the answer (NTLM, Negotiate).
    package var negotiatesIn401: Bool {
        switch self {
        case .ntlm, .negotiate: true
        case .basic, .bearer: false
        }
    }
}
