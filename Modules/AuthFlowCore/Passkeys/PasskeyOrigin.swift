import TransportValues

/// The origin a WebAuthn ceremony runs for (scheme, host, port; the port only when not the scheme's default, as
/// browsers serialise it into `clientDataJSON`), and the rules tying a relying party id to it.
public struct PasskeyOrigin: Sendable, Equatable, CustomStringConvertible {
    /// `https` or `http`.
    public let scheme: String
    /// The host, lowercased.
    public let host: String
    /// The port, nil for the scheme's default.
    public let port: Int?

    /// The origin of `url`'s page; throws when it is not a secure context: https, or http to a loopback address
    /// (browsers' rule) when `allowsHTTPLoopback` (the sign-in policy's choice) says so.
    public init(pageURL url: String, allowsHTTPLoopback: Bool = false) throws(PasskeyError) {
        guard let parts = URLParts(url), !parts.host.isEmpty else { throw .insecureOrigin(url) }
        let scheme = parts.scheme
        let defaultPort = scheme == "https" ? 443 : 80
        self.scheme = scheme
        self.host = parts.host
        self.port = parts.port == defaultPort ? nil : parts.port
        guard scheme == "https" || (scheme == "http" && allowsHTTPLoopback && PlainHTTPRule.isLoopback(host)) else {
            throw .insecureOrigin(description)
        }
    }

    /// `scheme://host[:port]`, as `clientDataJSON.origin` carries it.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)" + (port.map { ":\($0)" } ?? "")
    }

    /// The relying party id the ceremony uses: `asked` when it is the host or a domain above it, else an error;
    /// the host when nothing was asked.
    func relyingPartyID(asked: String?) throws(PasskeyError) -> String {
        guard let asked = asked?.lowercased(), !asked.isEmpty else { return host }
        // A domain above the host may be asked for (not a top-level one); an address only as itself.
        let isAddress = host.contains(":") || host.split(separator: ".").allSatisfy { UInt8($0) != nil }
        guard host == asked || (!isAddress && host.hasSuffix("." + asked) && asked.contains(".")) else {
            throw .relyingPartyNotForOrigin(relyingParty: asked, origin: description)
        }
        return asked
    }

}
