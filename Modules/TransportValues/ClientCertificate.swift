/// A TLS client certificate to present in the handshake of one request (Entra's certificate-based authentication):
/// the certificate chain and its private key as PEM, held in memory (read once, from files checked by their owner's
/// rules) and handed to libcurl as blobs, never as paths it would open again. The key is a ``Secret``.
public struct ClientCertificate: Sendable, Equatable {
    /// The certificate (and any intermediates), PEM.
    public let certificatePEM: [UInt8]
    /// The private key, PEM (encrypted or not).
    public let keyPEM: Secret
    /// The password of an encrypted key.
    public let keyPassword: Secret?

    /// A client certificate from its PEM texts.
    public init(certificatePEM: [UInt8], keyPEM: Secret, keyPassword: Secret? = nil) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
        self.keyPassword = keyPassword
    }
}
